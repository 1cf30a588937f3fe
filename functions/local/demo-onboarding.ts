/**
 * `npm start`'s demo: the bundled store is registered as the business `demo-store` through
 * the API (as the dashboard would) and its AI site is built step by step.
 */
import { buildAiSite, type BuildAiSiteReport } from '../app/build-ai-site';
import { getContainer } from '../container';
import type { LocalStack } from './runtime';

export const DEMO_ORG = 'demo-store';

export async function onboardDemoStore(stack: LocalStack, storeOrigin: string, storeName: string, log: (line: string) => void): Promise<BuildAiSiteReport> {
  const token = await stack.idp.mint({ orgId: DEMO_ORG });
  const res = await fetch(`${stack.api.url}/api/business`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: storeName, url: storeOrigin }),
  });
  if (res.status !== 201 && res.status !== 409) throw new Error(`creating the demo business failed: HTTP ${res.status} ${await res.text()}`);
  log(res.status === 201 ? `business ${DEMO_ORG} created` : `business ${DEMO_ORG} already exists: refreshing its AI site`);
  return buildAiSite(getContainer(), DEMO_ORG, (step, detail) => log(`${step.padEnd(22)} ${detail}`));
}
