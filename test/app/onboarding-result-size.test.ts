/**
 * D39 for the onboarding run record: one DynamoDB item holds every step's result, so a step
 * whose result grows with the catalogue (3a's shortfall per product, 20,000 products) must be
 * stored as counts and a bounded sample, through the real repository on the embedded database,
 * and the status route says how many there were.
 */
import { runStep } from '../../functions/app/onboarding/runs';
import { getContainer } from '../../functions/container';
import { RESULT_SAMPLE } from '../../functions/core/util/bounded-result';
import { newRun, ONBOARDING_STEPS, type StepId } from '../../functions/core/onboarding/steps';
import { startTestStackWithBusiness, type TestStack } from '../support/stack';

let stack: TestStack;
const ORG = 'big-store';

beforeAll(async () => {
  stack = await startTestStackWithBusiness(ORG, { name: 'Big Store Co.', url: 'https://big-store.example' });
}, 60_000);
afterAll(async () => stack.close());

test('a 20,000-product 3a result is stored bounded: the item stays under 350 KB and the status route shows the totals', async () => {
  const container = getContainer();
  const now = new Date().toISOString();
  const run = { ...newRun('exec-big', ORG, now, null), heartbeat_at: now, runner: null };
  await container.onboarding.start(run, null, { heartbeatBefore: now, runnerOtherThan: null });
  // 3a's inputs have run.
  for (const id of ONBOARDING_STEPS['3a'].uses as StepId[]) await container.onboarding.updateStep(ORG, 'exec-big', id, { ...run.steps[id], status: 'succeeded', finished_at: now });
  const shortfall = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`tidal-camp-mug-${i}`, 3]));
  const shortfallReasons = Object.fromEntries(Object.keys(shortfall).map((id) => [id, `its siblings ${id}-a, ${id}-b and ${id}-c share every word of its name and description, so only 2 prompts tell it apart`]));
  const result = await runStep(container, { org_slug: ORG, execution_id: 'exec-big' }, '3a', async () => ({
    business: { target: 50, generated: 50, saved: 50, shortfall: 0 },
    products: { count: 20_000, perProduct: 5, generated: 40_000, saved: 40_000, shortfall, shortfallReasons },
  }));
  expect((result.result as any).products).toMatchObject({ count: 20_000, shortfall_total: 20_000, shortfallReasons_total: 20_000 });

  const stored = (await container.onboarding.getRun(ORG, 'exec-big'))!;
  expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThan(350 * 1024);
  const products = stored.steps['3a'].result!.products as Record<string, unknown>;
  expect(Object.keys(products.shortfall as object)).toHaveLength(RESULT_SAMPLE);

  const status = await stack.call('GET', '/api/onboarding/status', { token: await stack.token(ORG) });
  expect(status.status).toBe(200);
  expect(JSON.stringify(status.body)).toContain('"shortfall_total":20000');
}, 60_000);
