/**
 * At-least-once delivery (issue 36, part 1): Step Functions may run a task again after its
 * side effects happened (a retry after a timeout or a lost response). The local runner makes
 * that visible on the real state machines and tasks (LocalWorkflowOptions.delivery):
 * - `twice`: every task runs twice with the same input;
 * - `failAfter`: the tasks with side effects run, then their response is lost once, so the
 *   state's Retry runs them again.
 * In both, onboarding then a daily run (2 products added to the store, a platform to check,
 * IndexNow on a local fake) leave exactly what a single delivery leaves: one entity per
 * product, unique prompts, unique articles, one IndexNow submission, one release per publish
 * step, and each business counted once in the execution's record.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getContainer } from '../../functions/container';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startIndexNowFake, type IndexNowFake } from '../../functions/local/fakes/indexnow';
import type { LocalWorkflowOptions } from '../../functions/local/runtime/workflow-runner';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'twice';
const NEW_PRODUCTS = ['harbor-night-roast', 'pine-pour-over-stand'];
/** The tasks whose work writes or calls out: each fails once after its work in the second mode. */
const SIDE_EFFECT_TASKS = [
  'ScrapeWebsite', 'DiscoverProducts', 'FetchFavicon', 'CreateCdnDistribution', 'CreateAiWebsite', 'GenerateOnboardingPrompts', 'GenerateProductLlmsFiles', 'FinishOnboarding',
  'PrepareDailyRun', 'StartBusinessRun', 'DetectChanges', 'DiscoverNewProducts', 'GenerateProductPrompts', 'GenerateProductLlmsTxt', 'CreateArticleBatch',
  'UpdateAiSite', 'PublishArticlesAndTimestamps', 'NotifySearchEngines', 'CommitProductSnapshot', 'FinishBusinessRun', 'FinishDailyRun',
  'PublishSite', 'RegeneratePrompts',
];

interface Outcome {
  onboarding: string;
  /** deploy-site, update-all-timestamps and regenerate-prompts (site-publish and regenerate-prompts executions). */
  others: string[];
  daily: { status: string; run: string; counts: Record<string, number> };
  products: number;
  duplicateProducts: number;
  prompts: number;
  duplicatePrompts: number;
  articles: number;
  duplicateArticles: number;
  indexNowSubmissions: number;
  releases: number;
}

/** How often each task was invoked (kept apart from the outcome, which must not change). */
type Invocations = Readonly<Record<string, number>>;

async function runDay(delivery: LocalWorkflowOptions['delivery'], indexNow: IndexNowFake): Promise<Outcome & { invocations: Invocations }> {
  const store: DemoStore = await startDemoStore({ products: 6 });
  const stack: TestStack = await startTestStack({
    LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100', INDEXNOW_ENDPOINT: indexNow.url,
  }, { workflows: { retryWithoutDelay: true, delivery } });
  try {
    indexNow.reset();
    const token = await stack.token(ORG);
    expect((await stack.call('POST', '/api/business', { token, body: { name: 'Twice Roasters', url: store.origin } })).status).toBe(201);
    const onboarding = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    await stack.workflows.finished(onboarding.body.execution_id);
    const onboarded = (await stack.call('GET', '/api/onboarding/status', { token })).body;

    store.admin.addProduct({ handle: NEW_PRODUCTS[0], title: 'Harbor Night Roast', product_type: 'Coffee', body_html: '<p>A dark roast with notes of bittersweet chocolate.</p>', price: '17.00' });
    store.admin.addProduct({ handle: NEW_PRODUCTS[1], title: 'Pine Pour-Over Stand', product_type: 'Brewing Gear', body_html: '<p>A walnut stand for one pour-over dripper.</p>', price: '42.00' });
    const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [ORG] } });
    await stack.workflows.finished(started.body.execution_id);
    const daily = (await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY })).body;

    // The other workflows a caller starts: a deploy, a timestamp refresh, a prompt regeneration.
    const deploy = await stack.call('POST', '/api/cron/deploy-site', { apiKey: DEV_API_KEY, body: { business_id: ORG, files: [{ path: '/ai/hello/index.html', content: '<!doctype html><title>Hello</title>' }] } });
    const refresh = await stack.call('POST', '/api/cron/update-all-timestamps', { apiKey: DEV_API_KEY, body: { business_id: ORG } });
    const regenerate = await stack.call('POST', '/api/manual-trigger/regenerate-prompts', { apiKey: DEV_API_KEY, body: { business_id: ORG, url: store.origin, prompt_count: 10 } });
    await stack.workflows.running();

    const container = getContainer();
    const products = (await container.products.list(ORG)).map((p) => p.productId);
    const prompts = (await container.prompts.list(ORG)).map((p) => `${p.entityId}|${p.prompt.toLowerCase()}`);
    const articles = (await container.articles.list(ORG)).map((a) => a.title.toLowerCase());
    return {
      onboarding: onboarded.status,
      others: [deploy.body.status, refresh.body.status, regenerate.body.status],
      daily: { status: daily.status, run: daily.businesses.runs[0]?.status, counts: daily.businesses.counts ?? daily.counts },
      products: products.length,
      duplicateProducts: products.length - new Set(products).size,
      prompts: prompts.length,
      duplicatePrompts: prompts.length - new Set(prompts).size,
      articles: articles.length,
      duplicateArticles: articles.length - new Set(articles).size,
      indexNowSubmissions: indexNow.accepted().length,
      releases: readdirSync(join(stack.sitesDir, ORG, 'releases')).filter((n) => !n.startsWith('.')).length,
      // The invocations that did work: a step asked again while another step's output was not ready (or another invocation held it) did none, and how often that happens is timing.
      invocations: Object.fromEntries(Object.entries(stack.workflows.taskInvocations).map(([fn, n]) => [fn, n - (stack.workflows.taskWaits[fn] ?? 0)])),
    };
  } finally {
    await stack.close();
    await store.close();
  }
}

let indexNow: IndexNowFake;
let once: Outcome & { invocations: Invocations };
beforeAll(async () => {
  indexNow = await startIndexNowFake();
  once = await runDay(undefined, indexNow);
}, 300_000);
afterAll(async () => indexNow?.close());

test('delivered once: the reference day', () => {
  expect(once).toMatchObject({ onboarding: 'succeeded', others: ['success', 'success', 'success'], daily: { status: 'succeeded', run: 'succeeded' }, products: 8, duplicateProducts: 0, duplicatePrompts: 0, duplicateArticles: 0 });
  expect(once.prompts).toBeGreaterThanOrEqual(8 * 5);
});

test('every task run twice: the same day, nothing duplicated', async () => {
  const { invocations, ...outcome } = await runDay({ twice: true }, indexNow);
  const { invocations: reference, ...expected } = once;
  expect(outcome).toEqual(expected);
  // Every task really ran twice.
  expect(invocations).toEqual(Object.fromEntries(Object.entries(reference).map(([fn, n]) => [fn, 2 * n])));
}, 300_000);

test('every side-effect task failing once after its work: the same day, nothing duplicated', async () => {
  const { invocations, ...outcome } = await runDay({ failAfter: SIDE_EFFECT_TASKS }, indexNow);
  const { invocations: reference, ...expected } = once;
  expect(outcome).toEqual(expected);
  // Each of them ran once more (its Retry), the others as often as with one delivery.
  const ran = SIDE_EFFECT_TASKS.filter((fn) => reference[fn]);
  expect(ran.length).toBeGreaterThanOrEqual(15);
  expect(invocations).toEqual(Object.fromEntries(Object.entries(reference).map(([fn, n]) => [fn, SIDE_EFFECT_TASKS.includes(fn) ? 2 * n : n])));
}, 300_000);
