/**
 * The run summary of 2b and the day's report state each platform's status by one rule
 * (report.ts `platformStatus`), so a partly failed platform never reads one way in the
 * summary and another in the report.
 */
import { getContainer } from '../../functions/container';
import { PLATFORM_KEYS, type PlatformKey } from '../../functions/core/constants';
import type { PlatformClient, PlatformOutcome } from '../../functions/core/visibility/platform-answer';
import { analyzeVisibility, type VisibilitySummary } from '../../functions/app/visibility/analyze';
import { claimDailySample } from '../../functions/app/visibility/sample';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { onboardViaApi } from '../support/onboard';
import { startTestStack, type TestStack } from '../support/stack';

const ORG = 'summit';

let stack: TestStack;
let store: DemoStore;

beforeAll(async () => {
  store = await startDemoStore({ port: 0 });
  stack = await startTestStack({ LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', LLM_BASE_URL: '', JUDGE_BASE_URL: '' }, { workflows: { retryWithoutDelay: true } });
  await onboardViaApi(stack, ORG, 'Summit Tea House', store.origin);
}, 240_000);

afterAll(async () => {
  await stack?.close();
  await store?.close();
});

function client(platform: PlatformKey, ask: (prompt: string) => PlatformOutcome): PlatformClient {
  return { platform, kind: 'test', model: null, unconfigured: null, ask: async (prompt) => ask(prompt) };
}

test('a platform with no boolean and mixed failure kinds reads the same in the summary and the report', async () => {
  const container = getContainer();
  const day = new Date(container.clock.now().getTime() - 4 * 86_400_000).toISOString().slice(0, 10);
  const sample = await claimDailySample(container, ORG, day);
  expect(sample.prompts.length).toBeGreaterThan(1);
  // platform_1: no answer for the first prompt in record order, failed for the others; platform_2 answers.
  const first = [...sample.prompts].sort((a, b) => (a.prompt_id < b.prompt_id ? -1 : 1))[0]!.prompt;
  const platforms = PLATFORM_KEYS.map((k) => client(k, (prompt) => {
    if (k === 'platform_1') {
      return prompt === first
        ? { ok: false, failure: { platform: k, kind: 'no_answer', reason: 'nothing to say' } }
        : { ok: false, failure: { platform: k, kind: 'failed', reason: 'HTTP 500' } };
    }
    return { ok: true, answer: { platform: k, text: 'Any tea shop will do.', citations: [], retrieved: [], model: null, latencyMs: 1, costUnits: 1, costUnit: 'tokens', obtainedVia: 'test' } };
  }));
  const summary = await analyzeVisibility(container, ORG, day, { platforms, judge: null, limiter: container.platformLimiter }) as VisibilitySummary;
  const report = await container.visibilityChecks.getReport(ORG, day);
  expect(report!.platforms.platform_1.status).toBe('failed');
  for (const k of PLATFORM_KEYS) expect([k, summary.platforms[k].status]).toEqual([k, report!.platforms[k].status]);
}, 60_000);
