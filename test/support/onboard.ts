/** Onboards a business through the API exactly as the dashboard does, and waits for the workflow. */
import type { TestStack } from './stack';

export async function onboardViaApi(stack: TestStack, orgSlug: string, name: string, storeOrigin: string): Promise<{ status: any; token: string }> {
  const token = await stack.token(orgSlug);
  const created = await stack.call('POST', '/api/business', { token, body: { name, url: storeOrigin } });
  if (created.status !== 201) throw new Error(`POST /api/business: HTTP ${created.status} ${JSON.stringify(created.body)}`);
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  if (started.status !== 202) throw new Error(`generate-all: HTTP ${started.status} ${JSON.stringify(started.body)}`);
  await stack.workflows.finished(started.body.execution_id);
  const status = (await stack.call('GET', '/api/onboarding/status', { token })).body;
  return { status, token };
}
