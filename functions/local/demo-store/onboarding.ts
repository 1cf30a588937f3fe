/**
 * `npm start`'s demo: the bundled store is registered as the business `demo-store` and
 * onboarded through the API exactly as the dashboard would do it (POST /api/business,
 * POST /api/onboarding/generate-all, then polling GET /api/onboarding/status), so the
 * onboarding state machine runs for real and its progress is shown step by step.
 */
import type { LocalStack } from '../runtime';

export const DEMO_ORG = 'demo-store';

interface StepView { id: string; name: string; status: string; reason: string | null; duration_ms: number | null; result: Record<string, unknown> | null }

export interface DemoOnboardingReport {
  status: string;
  steps: StepView[];
  aiSiteUrl: string | null;
  distributionUrl: string | null;
  products: number;
  prompts: number;
}

export async function onboardDemoStore(stack: LocalStack, storeOrigin: string, storeName: string, log: (line: string) => void): Promise<DemoOnboardingReport> {
  const token = await stack.idp.mint({ orgId: DEMO_ORG });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.api.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  const created = await call('POST', '/api/business', { name: storeName, url: storeOrigin });
  if (created.status !== 201 && created.status !== 409) throw new Error(`creating the demo business failed: HTTP ${created.status} ${JSON.stringify(created.body)}`);
  log(created.status === 201 ? `business ${DEMO_ORG} created` : `business ${DEMO_ORG} exists: generate-all repairs what is missing`);

  const started = await call('POST', '/api/onboarding/generate-all', {});
  if (started.status !== 202) throw new Error(`generate-all failed: HTTP ${started.status} ${JSON.stringify(started.body)}`);
  log(`generate-all started execution ${started.body.execution_id}`);

  const shown = new Map<string, string>();
  let status: { status: string; steps: StepView[] };
  for (;;) {
    status = (await call('GET', '/api/onboarding/status')).body;
    for (const step of status.steps) {
      if (shown.get(step.id) === step.status || step.status === 'pending') continue;
      shown.set(step.id, step.status);
      const detail = step.status === 'running' ? '' : step.reason ?? summarize(step.result);
      log(`${step.id} ${step.name.padEnd(30)} ${step.status.padEnd(9)} ${step.duration_ms != null ? `${(step.duration_ms / 1000).toFixed(1)} s ` : ''}${detail}`);
    }
    if (status.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 250));
  }

  const [site, proxy, products, prompts] = await Promise.all([
    call('GET', `/api/ai-website/${DEMO_ORG}`),
    call('GET', `/api/domain/get-proxy/${DEMO_ORG}`),
    call('GET', `/api/products/${DEMO_ORG}`),
    call('GET', `/api/prompts/${DEMO_ORG}`),
  ]);
  return {
    status: status.status,
    steps: status.steps,
    aiSiteUrl: site.status === 200 ? site.body.deployment_url : null,
    distributionUrl: proxy.body.cdn_domain ? `http://${proxy.body.cdn_domain}:${stack.proxy.port}` : null,
    products: products.body.total ?? 0,
    prompts: prompts.body.total ?? 0,
  };
}

function summarize(result: Record<string, unknown> | null): string {
  if (!result) return '';
  return Object.entries(result)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
    .slice(0, 4)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}
