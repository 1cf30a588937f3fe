/**
 * Prompt regeneration over the real local stack (spec: regenerate-prompts and
 * POST /api/cron/generate-prompts; D20, D22, D24, D33): an onboarded demo store, the
 * regenerate-prompts.asl.json workflow in the local Step Functions stand-in with its real
 * task, and every answer the routes give — the spec response when the execution finishes
 * within the wait, 202 + read-back otherwise, the failure body with counts 0, 400/404.
 */
import { createServer } from 'node:net';
import { getContainer, type Container } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { PLATFORM_KEYS } from '../../functions/core/constants';
import type { TrackedPrompt } from '../../functions/core/model';
import { promptId } from '../../functions/core/prompts/prompt-identity';
import { regeneratePromptsFromUrl } from '../../functions/app/prompts/regenerate';
import { readPromptRegeneration, awaitPromptRegeneration } from '../../functions/app/prompts/regenerate-run';
import { awaitWorkflowOutcome, saveWorkflowResult, WORKFLOW_WAIT_MS } from '../../functions/app/workflow-results';
import { waitBudget } from '../../functions/http/workflow-http';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import type { MapSiteOptions, SiteMapper } from '../../functions/ports';
import { onboardViaApi } from '../support/onboard';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'regen-coffee';
/** A business that exists but whose regeneration task crashes (the Catch path). */
const CRASH_ORG = 'regen-crash';
const MANUAL = '/api/manual-trigger/regenerate-prompts';
const CRON = '/api/cron/generate-prompts';
const key = { apiKey: DEV_API_KEY };

let stack: TestStack;
let store: DemoStore;
let businessId = '';

/** The 10 pre-tested search-API prompts onboarding saves when a search API is configured (none is here). */
async function addSearchApiPrompts(): Promise<TrackedPrompt[]> {
  const testedAt = '2026-01-05T14:00:00.000Z';
  const rows: TrackedPrompt[] = Array.from({ length: 10 }, (_, i) => {
    const prompt = `which coffee roaster ships search question number ${i + 1}?`;
    return {
      id: promptId(businessId, prompt), orgSlug: ORG, prompt, entityId: businessId, productId: null, source: 'search_api',
      ...Object.fromEntries(PLATFORM_KEYS.map((k, j) => [k, (i + j) % 2 === 0])) as Record<(typeof PLATFORM_KEYS)[number], boolean>,
      lastTestedAt: testedAt, createdAt: testedAt,
    };
  });
  expect(await getContainer().prompts.addMissing(rows)).toBe(10);
  return rows;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The onboarded product entities (by slug order), not the nameless one a test adds. */
const catalogueProducts = async () => (await getContainer().products.list(ORG)).filter((p) => p.name !== '').sort((a, b) => a.productId.localeCompare(b.productId));

const byId = (rows: TrackedPrompt[]) => new Map(rows.map((r) => [r.id, r]));

/** Every prompt of `before` is still there, unchanged; returns the rows that are new. */
function added(before: TrackedPrompt[], after: TrackedPrompt[]): TrackedPrompt[] {
  const now = byId(after);
  for (const old of before) expect(now.get(old.id)).toEqual(old);
  const was = byId(before);
  return after.filter((r) => !was.has(r.id));
}

function expectUntested(rows: TrackedPrompt[], entityId: string, productId: string | null): void {
  for (const r of rows) {
    expect(r).toMatchObject({ orgSlug: ORG, entityId, productId, source: 'generated', lastTestedAt: null });
    for (const k of PLATFORM_KEYS) expect(r[k]).toBeNull();
  }
}

beforeAll(async () => {
  store = await startDemoStore({ port: 0 });
  stack = await startTestStack({ LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0' }, {
    workflows: {
      retryWithoutDelay: true,
      taskOverrides: {
        // The real task, except for CRASH_ORG, where the Lambda dies as on a timeout.
        RegeneratePrompts: async (payload) => {
          if ((payload as { org_slug: string }).org_slug === CRASH_ORG) {
            throw Object.assign(new Error('Task timed out after 300.00 seconds'), { name: 'States.Timeout' });
          }
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          return (require('../../functions/tasks/regenerate-prompts') as typeof import('../../functions/tasks/regenerate-prompts')).handler(payload as never);
        },
      },
    },
  });
  await onboardViaApi(stack, ORG, 'Harbor & Pine Coffee Co.', store.origin);
  businessId = (await getContainer().businesses.get(ORG))!.id;
  await addSearchApiPrompts();
  expect((await stack.call('POST', '/api/business', { token: await stack.token(CRASH_ORG), body: { name: 'Crash Coffee', url: store.origin } })).status).toBe(201);
}, 240_000);

afterAll(async () => {
  await stack?.close();
  await store?.close();
});

describe('KEY auth (D6)', () => {
  test.each([['POST', MANUAL], ['POST', CRON], ['GET', `${MANUAL}/00000000-0000-4000-8000-000000000000`], ['GET', `${CRON}/00000000-0000-4000-8000-000000000000`]])('%s %s: no key → 401, wrong key → 403', async (method, path) => {
    const body = method === 'POST' ? { business_id: ORG, url: store.origin, product_id: 'x' } : undefined;
    expect((await stack.call(method, path, { body })).status).toBe(401);
    expect((await stack.call(method, path, { body, apiKey: 'wrong-key' })).status).toBe(403);
    expect((await stack.call(method, path, { body, token: await stack.token(ORG) })).status).toBe(401);
  });
});

describe('regenerating business prompts from the URL', () => {
  let before: TrackedPrompt[];
  let scrapeBefore: unknown;
  let res: Awaited<ReturnType<TestStack['call']>>;
  let requestsBefore = 0;

  beforeAll(async () => {
    before = await getContainer().prompts.list(ORG);
    scrapeBefore = await getContainer().artifacts.get(artifactKeys.scrape(ORG));
    requestsBefore = store.requests();
    res = await stack.call('POST', MANUAL, { ...key, body: { business_id: ORG, url: store.origin } });
  }, 60_000);

  test('the spec response: success, default 50 asked, what was generated is saved', () => {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success', prompts_generated: expect.any(Number), prompts_saved: expect.any(Number),
      pages_scraped: expect.any(Number), execution_id: expect.any(String),
    });
    expect(res.body.prompts_generated).toBe(50);
    expect(res.body.prompts_saved).toBe(50);
    expect(res.body.pages_scraped).toBeGreaterThan(10);
  });

  test('the website was mapped and scraped again through the guarded client, but the stored scrape (the AI site\'s input) is untouched', async () => {
    expect(store.requests() - requestsBefore).toBeGreaterThanOrEqual(res.body.pages_scraped);
    expect(await getContainer().artifacts.get(artifactKeys.scrape(ORG))).toEqual(scrapeBefore);
  });

  test('existing prompts are kept unchanged (the pre-tested search-API ones too); the new ones are untested business prompts, unique (D33)', async () => {
    const after = await getContainer().prompts.list(ORG);
    const fresh = added(before, after);
    expect(fresh).toHaveLength(res.body.prompts_saved);
    expectUntested(fresh, businessId, null);
    const search = after.filter((r) => r.source === 'search_api');
    expect(search).toHaveLength(10);
    expect(search.every((r) => r.lastTestedAt !== null && PLATFORM_KEYS.every((k) => typeof r[k] === 'boolean'))).toBe(true);
    const { promptIdentity } = await import('../../functions/core/prompts/prompt-identity');
    expect(new Set(after.map((r) => promptIdentity(r.prompt))).size).toBe(after.length);
  });

  test('an explicit prompt_count is honoured; the pages come from the URL given, not from the business\'s own site', async () => {
    const other = await startDemoStore({ port: 0, name: 'Lighthouse Tea Traders', products: 6 });
    try {
      const prior = await getContainer().prompts.list(ORG);
      const own = store.requests();
      const five = await stack.call('POST', MANUAL, { ...key, body: { business_id: ORG, url: other.origin, prompt_count: 5 } });
      expect(five.status).toBe(200);
      expect(five.body).toMatchObject({ status: 'success', prompts_generated: 5, prompts_saved: 5 });
      expect(five.body.pages_scraped).toBeGreaterThan(0);
      expect(other.requests()).toBeGreaterThanOrEqual(five.body.pages_scraped);
      expect(store.requests()).toBe(own);
      expect(added(prior, await getContainer().prompts.list(ORG))).toHaveLength(5);
    } finally {
      await other.close();
    }
  }, 60_000);

  test('the prompts API lists the new prompts as untested', async () => {
    const listed = await stack.call('GET', `/api/prompts/${ORG}`, { token: await stack.token(ORG) });
    expect(listed.status).toBe(200);
    const generated = listed.body.prompts.filter((p: any) => p.product_id === null && p.source === 'generated' && p.last_tested_at === null);
    expect(generated.length).toBeGreaterThanOrEqual(res.body.prompts_saved + 5);
  });
});

describe('regenerating product prompts', () => {
  test('manual trigger with product_id: 10 by default, on that product, untested; others untouched', async () => {
    const product = (await catalogueProducts())[0];
    const before = await getContainer().prompts.list(ORG);
    const res = await stack.call('POST', MANUAL, { ...key, body: { business_id: ORG, url: store.origin, product_id: product.productId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', prompts_generated: 10, prompts_saved: 10 });
    const fresh = added(before, await getContainer().prompts.list(ORG));
    expect(fresh).toHaveLength(10);
    expectUntested(fresh, product.id, product.productId);
  }, 60_000);

  test('POST /api/cron/generate-prompts {business_id, url, product_id, product_name}: 10 for the product', async () => {
    const product = (await catalogueProducts())[1];
    const before = await getContainer().prompts.list(ORG);
    const res = await stack.call('POST', CRON, { ...key, body: { business_id: ORG, url: store.origin, product_id: product.productId, product_name: product.name } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', prompts_generated: 10, prompts_saved: 10, execution_id: expect.any(String) });
    const fresh = added(before, await getContainer().prompts.list(ORG));
    expectUntested(fresh, product.id, product.productId);
    expect(fresh).toHaveLength(10);
    // The entity UUID names the product as well as its slug; prompt_count applies here too.
    const three = await stack.call('POST', CRON, { ...key, body: { business_id: ORG, url: store.origin, product_id: product.id, product_name: product.name, prompt_count: 3 } });
    expect(three.body).toMatchObject({ status: 'success', prompts_generated: 3, prompts_saved: 3 });
  }, 60_000);
});

describe('product_name and skipped', () => {
  test('product_name names a product that has no name of its own; without any name nothing new comes out: skipped with the reason (200)', async () => {
    const now = new Date().toISOString();
    const { randomUUID } = await import('node:crypto');
    const entity = { id: randomUUID(), orgSlug: ORG, productId: 'unnamed-blend', name: '', url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now };
    expect(await getContainer().products.addMissing([entity])).toBe(1);
    const nameless = await stack.call('POST', CRON, { ...key, body: { business_id: ORG, url: store.origin, product_id: 'unnamed-blend' } });
    expect(nameless.status).toBe(200);
    expect(nameless.body).toEqual({
      status: 'skipped', prompts_generated: 0, prompts_saved: 0, skipped_reason: 'the store evidence yields no new prompt',
      pages_scraped: expect.any(Number), execution_id: expect.any(String),
    });
    const named = await stack.call('POST', CRON, { ...key, body: { business_id: ORG, url: store.origin, product_id: 'unnamed-blend', product_name: 'Midnight Espresso Blend' } });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ status: 'success' });
    expect(named.body.prompts_saved).toBeGreaterThan(0);
    const rows = await getContainer().prompts.list(ORG, { entityId: entity.id });
    expect(rows).toHaveLength(named.body.prompts_saved);
    expectUntested(rows, entity.id, 'unnamed-blend');
  }, 60_000);
});

describe('failures', () => {
  test('a link-local / metadata address is refused (400 naming url) whatever ALLOW_PRIVATE_NETWORK says; nothing starts', async () => {
    const before = (await getContainer().prompts.list(ORG)).length;
    for (const url of ['http://169.254.169.254/', 'http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://[fe80::1]/']) {
      const res = await stack.call('POST', MANUAL, { ...key, body: { business_id: ORG, url } });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/^url: .*not allowed/) });
    }
    const cron = await stack.call('POST', CRON, { ...key, body: { business_id: ORG, url: 'http://169.254.169.254/', product_id: (await catalogueProducts())[0].productId } });
    expect(cron.status).toBe(400);
    expect((await stack.call('POST', MANUAL, { ...key, body: { business_id: ORG, url: 'ftp://example.com/' } })).status).toBe(400);
    expect((await getContainer().prompts.list(ORG)).length).toBe(before);
  });

  test('an unreachable website: status error, counts 0 and the reason (HTTP 502); no prompt added', async () => {
    const before = (await getContainer().prompts.list(ORG)).length;
    const url = `http://127.0.0.1:${await closedPort()}`;
    const res = await stack.call('POST', MANUAL, { ...key, body: { business_id: ORG, url } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      status: 'error', prompts_generated: 0, prompts_saved: 0, pages_scraped: 0, execution_id: expect.any(String),
      error: expect.stringMatching(new RegExp(`^could not map ${url.replace(/[.]/g, '\\.')}/: `)),
    });
    expect((await getContainer().prompts.list(ORG)).length).toBe(before);
    // The read-back says the same.
    const again = await stack.call('GET', `${MANUAL}/${res.body.execution_id}`, key);
    expect(again.status).toBe(502);
    expect(again.body).toEqual(res.body);
  }, 60_000);

  test('a task that dies (timeout) still answers the failure body through the Catch', async () => {
    const res = await stack.call('POST', MANUAL, { ...key, body: { business_id: CRASH_ORG, url: store.origin } });
    expect(res.status).toBe(504);
    expect(res.body).toEqual({
      status: 'error', prompts_generated: 0, prompts_saved: 0, pages_scraped: 0, execution_id: expect.any(String),
      error: expect.stringMatching(/^the regeneration task failed: States\.Timeout.*timed out/),
    });
    await stack.workflows.finished(res.body.execution_id);
    expect(await getContainer().workflows.describe!('regenerate-prompts', res.body.execution_id)).toMatchObject({ status: 'FAILED' });
  }, 60_000);

  test('invalid bodies are 400s naming the field', async () => {
    const product = (await catalogueProducts())[0].productId;
    const cases: Array<[string, unknown, RegExp]> = [
      [MANUAL, { business_id: ORG }, /url/],
      [MANUAL, { business_id: ORG, url: '' }, /url is required/],
      [MANUAL, { url: store.origin }, /business_id/],
      [MANUAL, { business_id: 'bad slug!', url: store.origin }, /business_id/],
      [MANUAL, { business_id: ORG, url: store.origin, prompt_count: 0 }, /prompt_count: must be an integer from 1 to 500/],
      [MANUAL, { business_id: ORG, url: store.origin, prompt_count: 501 }, /prompt_count/],
      [MANUAL, { business_id: ORG, url: store.origin, prompt_count: 2.5 }, /prompt_count/],
      [MANUAL, { business_id: ORG, url: store.origin, prompt_count: '10' }, /prompt_count/],
      [MANUAL, { business_id: ORG, url: store.origin, extra: true }, /extra|unrecognized/i],
      [MANUAL, { business_id: ORG, url: 'not a url at all' }, /url/],
      [CRON, { business_id: ORG, url: store.origin }, /product_id/],
      [CRON, { business_id: ORG, url: store.origin, product_id: product, product_name: 'x'.repeat(501) }, /product_name/],
    ];
    for (const [path, body, message] of cases) {
      const res = await stack.call('POST', path, { ...key, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error).toMatch(message);
    }
    expect((await stack.call('POST', MANUAL, { ...key, rawBody: '{nope', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
  });

  test('an unknown business or product is 404, before anything is fetched', async () => {
    const requests = store.requests();
    const cases: Array<[string, unknown]> = [
      [MANUAL, { business_id: 'nobody-here', url: store.origin }],
      [MANUAL, { business_id: ORG, url: store.origin, product_id: 'no-such-product' }],
      [CRON, { business_id: ORG, url: store.origin, product_id: 'no-such-product', product_name: 'Ghost' }],
      [CRON, { business_id: 'nobody-here', url: store.origin, product_id: 'x', product_name: 'X' }],
    ];
    for (const [path, body] of cases) {
      const res = await stack.call('POST', path, { ...key, body });
      expect({ body, status: res.status }).toEqual({ body, status: 404 });
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/not found/) });
    }
    expect(store.requests()).toBe(requests);
  });
});

describe('long runs: 202 and the read-back (D20)', () => {
  test('Prefer: respond-async answers 202 at once; GET <path>/{execution_id} returns the spec response once finished', async () => {
    const before = await getContainer().prompts.list(ORG);
    const res = await stack.call('POST', MANUAL, { ...key, headers: { Prefer: 'respond-async' }, body: { business_id: ORG, url: store.origin, prompt_count: 4 } });
    expect(res.status).toBe(202);
    const id = res.body.execution_id;
    expect(res.body).toEqual({ status: 'running', execution_id: id, status_url: `${MANUAL}/${id}` });
    expect(res.headers.get('preference-applied')).toBe('respond-async');
    expect(res.headers.get('location')).toBe(`${MANUAL}/${id}`);
    await stack.workflows.finished(id);
    const done = await stack.call('GET', res.body.status_url, key);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'success', prompts_generated: 4, prompts_saved: 4, pages_scraped: expect.any(Number), execution_id: id });
    expect(added(before, await getContainer().prompts.list(ORG))).toHaveLength(4);
    // Read twice, same answer.
    expect((await stack.call('GET', res.body.status_url, key)).body).toEqual(done.body);
  }, 60_000);

  test('the cron route too, with Prefer: wait=0; its read-back path is its own', async () => {
    const product = (await catalogueProducts())[2];
    const res = await stack.call('POST', CRON, { ...key, headers: { Prefer: 'wait=0' }, body: { business_id: ORG, url: store.origin, product_id: product.productId, product_name: product.name, prompt_count: 2 } });
    expect(res.status).toBe(202);
    expect(res.body.status_url).toBe(`${CRON}/${res.body.execution_id}`);
    expect(res.headers.get('preference-applied')).toBe('wait=0');
    await stack.workflows.finished(res.body.execution_id);
    const done = await stack.call('GET', res.body.status_url, key);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'success', prompts_generated: 2, prompts_saved: 2, execution_id: res.body.execution_id });
  }, 60_000);

  test('an unknown execution id is 404; a malformed one 400', async () => {
    const unknown = await stack.call('GET', `${MANUAL}/7b0c4a55-1f0e-4c59-9d07-2f3d1c9e0a11`, key);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 'error', error: 'no regenerate-prompts execution 7b0c4a55-1f0e-4c59-9d07-2f3d1c9e0a11' });
    expect((await stack.call('GET', `${CRON}/7b0c4a55-1f0e-4c59-9d07-2f3d1c9e0a11`, key)).status).toBe(404);
    expect((await stack.call('GET', `${MANUAL}/-bad`, key)).status).toBe(400);
    expect((await stack.call('GET', `${MANUAL}/${'a'.repeat(81)}`, key)).status).toBe(400);
  });
});

describe('the wait and the read-back, on a scripted engine', () => {
  /** A container whose engine reports `states` in turn and whose artifact store holds what the task saved. */
  function scripted(states: Array<'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | null>, saveAt = -1) {
    const store = new Map<string, unknown>();
    let looks = 0;
    const base = getContainer();
    const container = {
      ...base,
      artifacts: { ...base.artifacts, get: async (k: string) => (store.get(k) ?? null) as never, put: async (k: string, v: unknown) => { store.set(k, v); } },
      workflows: {
        start: async () => undefined,
        describe: async () => {
          const i = Math.min(looks++, states.length - 1);
          if (i === saveAt) await saveWorkflowResult(container, 'regenerate-prompts', 'exec-1', 200, { status: 'success', prompts_generated: 1, prompts_saved: 1, pages_scraped: 3 });
          const status = states[i];
          return status && { status, startedAt: '2026-01-01T00:00:00.000Z', stoppedAt: status === 'RUNNING' ? null : '2026-01-01T00:00:09.000Z' };
        },
      },
    } as unknown as Container;
    return { container, looks: () => looks };
  }

  test('backoff 100 ms doubling to 2 s, within the budget; then 202', async () => {
    const { container } = scripted(['RUNNING']);
    let now = 0;
    const sleeps: number[] = [];
    const outcome = await awaitWorkflowOutcome(container, 'regenerate-prompts', 'exec-1', {
      budgetMs: WORKFLOW_WAIT_MS, now: () => now, sleep: async (ms) => { sleeps.push(ms); now += ms; },
    });
    expect(outcome.state).toBe('running');
    expect(sleeps.slice(0, 6)).toEqual([100, 200, 400, 800, 1600, 2000]);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(WORKFLOW_WAIT_MS);
    const answer = await awaitPromptRegeneration(container, 'exec-1', `${MANUAL}/exec-1`, 0);
    expect(answer).toEqual({ statusCode: 202, body: { status: 'running', execution_id: 'exec-1', status_url: `${MANUAL}/exec-1` } });
  });

  test('a response stored between two looks is found; an execution that ended without one is a 500 failure body', async () => {
    const late = scripted(['SUCCEEDED'], 0);
    expect(await readPromptRegeneration(late.container, 'exec-1', 'x')).toEqual({
      statusCode: 200, body: { status: 'success', prompts_generated: 1, prompts_saved: 1, pages_scraped: 3, execution_id: 'exec-1' },
    });
    const died = scripted(['TIMED_OUT']);
    expect(await readPromptRegeneration(died.container, 'exec-1', 'x')).toEqual({
      statusCode: 500,
      body: { status: 'error', prompts_generated: 0, prompts_saved: 0, pages_scraped: 0, execution_id: 'exec-1', error: 'the regenerate-prompts operation ended without a result: the workflow engine reports TIMED_OUT' },
    });
  });

  test('just started and not yet listed by the engine is running, not unknown; otherwise unknown is 404', async () => {
    const fresh = scripted([null]);
    expect((await awaitPromptRegeneration(fresh.container, 'exec-1', 'x', 0)).statusCode).toBe(202);
    await expect(readPromptRegeneration(fresh.container, 'exec-1', 'x')).rejects.toThrow(/no regenerate-prompts execution exec-1/);
  });

  test('Prefer: respond-async, wait=N (capped at the default), or the default 20 s', () => {
    expect(waitBudget({})).toEqual({ budgetMs: 20_000, applied: null });
    expect(waitBudget({ prefer: 'respond-async, wait=5' })).toEqual({ budgetMs: 0, applied: 'respond-async' });
    expect(waitBudget({ prefer: 'wait=5' })).toEqual({ budgetMs: 5_000, applied: 'wait=5' });
    expect(waitBudget({ prefer: 'wait=600' })).toEqual({ budgetMs: 20_000, applied: 'wait=20' });
    expect(waitBudget({ prefer: 'handling=lenient' })).toEqual({ budgetMs: 20_000, applied: null });
  });
});

describe('the 5,000-page cap (D22)', () => {
  test('the site is mapped with at most 5,000 pages, whatever is asked; a site with nothing mapped is an UpstreamError naming the reason', async () => {
    const asked: MapSiteOptions[] = [];
    const mapper: SiteMapper = {
      async map(_origin, options) {
        asked.push(options ?? {});
        return { urls: [], sitemaps: [], robots: { status: 200, sitemaps: [] }, truncated: false, fetched: 1, errors: [{ url: 'x', reason: 'robots.txt disallows everything' }], disallowed: 0, robotsTxt: null };
      },
    };
    const request = { orgSlug: ORG, url: store.origin };
    await expect(regeneratePromptsFromUrl(getContainer(), request, { mapper })).rejects.toThrow(`could not map ${store.origin}/: robots.txt disallows everything`);
    await expect(regeneratePromptsFromUrl(getContainer(), request, { mapper, maxPages: 10_000 })).rejects.toThrow(/could not map/);
    await expect(regeneratePromptsFromUrl(getContainer(), request, { mapper, maxPages: 25 })).rejects.toThrow(/could not map/);
    expect(asked.map((o) => o.maxPages)).toEqual([5000, 5000, 25]);
  });
});
