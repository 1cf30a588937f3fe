/**
 * platform_3 on Gemini on Vertex AI (D239): with PLATFORM_3_VERTEX_PROJECT set, its daily checks
 * go synchronously to the project's publisher-model path (no Vertex batch client is built),
 * while platforms 1 and 2 keep their vendor batches; the run waits only for those two.
 */
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startPlatformFakes, type PlatformFakes } from '../../functions/local/fakes/platforms';
import { onboardViaApi } from '../support/onboard';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'vertexy';
const NAME = 'Vertexy Beans';

let stack: TestStack;
let store: DemoStore;
let fakes: PlatformFakes;
let token: string;

beforeAll(async () => {
  store = await startDemoStore({ port: 0 });
  fakes = await startPlatformFakes({ answerFor: () => ({ text: `${NAME} roasts the freshest beans.`, citations: [] }) });
  stack = await startTestStack(
    {
      LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100', ...fakes.env, ...fakes.searchEnv, LLM_BASE_URL: '', JUDGE_BASE_URL: '',
      PLATFORM_3_VERTEX_PROJECT: 'shop-visibility-7', PLATFORM_3_VERTEX_LOCATION: 'us-central1',
    },
    { workflows: { retryWithoutDelay: true } },
  );
  ({ token } = await onboardViaApi(stack, ORG, NAME, store.origin));
}, 240_000);

afterAll(async () => {
  await stack?.close();
  await fakes?.stop();
  await store?.close();
});

test('platform_3\'s daily checks are answered synchronously on the Vertex AI path while platforms 1 and 2 wait in their batches', async () => {
  for (const k of ['platform_1', 'platform_2', 'platform_3'] as const) fakes.servers[k].holdBatches(true);
  fakes.servers.platform_3.reset();
  const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [ORG] } });
  const status = () => stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY });
  let run: any;
  for (let i = 0; i < 600; i++) {
    run = (await status()).body.businesses.runs[0];
    if (run?.status === 'succeeded') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(run.steps['2b'].result).toMatchObject({ pending_platforms: ['platform_1', 'platform_2'], checks_done: 60, score: null });

  const checks = (await stack.call('GET', `/api/visibility/${ORG}/checks`, { token })).body.checks as Array<{ platform: string; status: string; batch?: object }>;
  const p3 = checks.filter((c) => c.platform === 'platform_3');
  expect(p3.map((c) => c.status)).toEqual(Array(10).fill('checked'));
  expect(p3.filter((c) => c.batch)).toEqual([]);
  const paths = fakes.servers.platform_3.requests.map((r) => r.path);
  expect(paths).toHaveLength(10);
  expect(new Set(paths)).toEqual(new Set(['/v1/projects/shop-visibility-7/locations/us-central1/publishers/google/models/gemini-3.5-flash-lite:generateContent']));

  for (const k of ['platform_1', 'platform_2'] as const) fakes.servers[k].holdBatches(false);
  await stack.workflows.finished(started.body.execution_id);
  const done = (await status()).body;
  expect(done.businesses.runs[0].steps['2b'].result).toMatchObject({ pending_platforms: [], checks_done: 80, score: { raw_score: 100, n: 80 } });
}, 240_000);
