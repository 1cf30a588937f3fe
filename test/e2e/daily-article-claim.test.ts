/**
 * D240: one invocation of a 2a article item at a time. Step Functions delivers a task at least
 * once: two copies of an item at once would each count its entity's articles missing, then both
 * write them (and, with a model, both pay for them). The copy that does not hold the item's claim
 * asks to be asked again (StepClaimed); asked again, it finds nothing missing.
 */
import { createArticleBatch } from '../../functions/app/articles/daily';
import { startBusinessRun } from '../../functions/app/daily/business-run';
import { getContainer } from '../../functions/container';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { onboardViaApi } from '../support/onboard';
import { startTestStack, type TestStack } from '../support/stack';

const ORG = 'article-claim';
const EXECUTION = 'exec-article-claim';
let stack: TestStack;
let store: DemoStore;

beforeAll(async () => {
  store = await startDemoStore({ port: 0 });
  stack = await startTestStack({ LOG_LEVEL: 'error', LLM_BASE_URL: '' });
  await onboardViaApi(stack, ORG, 'Claim Roasters', store.origin);
}, 240_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

test('two deliveries of one item at once write its entity\'s articles once; the copy asked again finds nothing missing', async () => {
  const container = getContainer();
  const runDate = new Date().toISOString().slice(0, 10);
  await container.dailyRuns.createExecution({
    execution_id: EXECUTION, run_date: runDate, status: 'running', trigger: 'manual', org_slugs: [ORG], started_at: new Date().toISOString(),
    finished_at: null, reason: null, counts: { succeeded: 0, partial: 0, failed: 0, skipped: 0 },
  });
  const input = { org_slug: ORG, run_date: runDate, execution_id: EXECUTION };
  expect(await startBusinessRun(container, input)).toMatchObject({ run: 'go' });
  const product = (await container.products.list(ORG))[0]!;
  const todays = async () => (await container.articles.list(ORG)).filter((a) => a.run_date === runDate && a.product_id === product.productId).length;
  // onboarding may have written today's first articles of the product: the item plans two more
  const before = await todays();
  const batch = { ...input, entities: [{ product_id: product.productId, count: before + 2 }] };

  const deliveries = await Promise.allSettled([createArticleBatch(container, batch), createArticleBatch(container, batch)]);
  const done = deliveries.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []));
  const refused = deliveries.flatMap((d) => (d.status === 'rejected' ? [d.reason as Error] : []));
  // the holder wrote them; the copy either asked to be asked again or, claiming after the holder was done, found nothing missing
  expect(refused.map((e) => e.name)).toEqual(refused.length ? ['StepClaimed'] : []);
  const created = done.map((r) => (r as { entities: Array<{ created: number }> }).entities[0]!.created).sort((a, b) => b - a);
  expect(created[0]).toBeGreaterThan(0);
  expect(created.slice(1)).toEqual(done.length > 1 ? [0] : []);
  expect(await todays()).toBe(before + created[0]!);
  // a copy asked to wait is not the item failing: 2a's record carries no failure
  expect((await container.dailyRuns.getBusinessRun(EXECUTION, ORG))!.steps['2a'].status).not.toBe('failed');

  // the state machine's retry of the refused copy: the item is free again and nothing is missing
  const again = await createArticleBatch(container, batch) as { entities: Array<{ created: number; already: number }> };
  expect(again.entities[0]).toMatchObject({ created: 0, already: before + created[0]! });
  expect(await todays()).toBe(before + created[0]!);
}, 120_000);
