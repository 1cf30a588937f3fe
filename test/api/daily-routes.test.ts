/**
 * The daily schedule's cron routes over the real local stack: KEY auth, zod-validated
 * requests (400 naming the field), the same code as the workflow tasks, 202 + execution id
 * for the heavy ones, paginated listings, and the deprecated alias's headers (D26).
 */
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let store: DemoStore;
const key = { apiKey: DEV_API_KEY };

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100' }, { workflows: { retryWithoutDelay: true } });
  store = await startDemoStore({ port: 0 });
  for (const org of ['alpha', 'bravo', 'charlie']) {
    expect((await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: `${org} shop`, url: store.origin } })).status).toBe(201);
  }
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token: await stack.token('alpha'), body: {} });
  await stack.workflows.finished(started.body.execution_id);
}, 120_000);

afterAll(async () => {
  await store.close();
  await stack.close();
});

describe('GET /api/cron/entities', () => {
  test('pages through every business by slug with an opaque cursor', async () => {
    const first = await stack.call('GET', '/api/cron/entities?limit=2', key);
    expect(first.status).toBe(200);
    expect(first.body.businesses.map((b: any) => b.business_id)).toEqual(['alpha', 'bravo']);
    expect(first.body.businesses[0]).toMatchObject({ has_ai_site: true, products: 24, url: store.origin });
    expect(first.body.businesses[1]).toMatchObject({ has_ai_site: false, products: 0 });
    const second = await stack.call('GET', `/api/cron/entities?limit=2&cursor=${first.body.next_cursor}`, key);
    expect(second.body.businesses.map((b: any) => b.business_id)).toEqual(['charlie']);
  });

  test('a forged cursor or a bad limit is a 400 naming it; no key is 401', async () => {
    expect((await stack.call('GET', '/api/cron/entities?cursor=eyJQSyI6MX0', key)).body.error).toMatch(/invalid cursor/);
    expect((await stack.call('GET', '/api/cron/entities?limit=abc', key)).body.error).toMatch(/limit/);
    expect((await stack.call('GET', '/api/cron/entities')).status).toBe(401);
  });
});

describe('per-business routes run the workflow for that business', () => {
  test.each(['discover-products', 'generate-product-prompts', 'generate-product-llms-txt', 'update-ai-site'])('%s answers 202 with the execution of that business', async (route) => {
    const res = await stack.call('POST', `/api/cron/${route}`, { ...key, body: { business_id: 'alpha' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'running', business_ids: ['alpha'] });
    expect(res.headers.get('deprecation')).toBeNull();
    await stack.workflows.finished(res.body.execution_id);
  });

  test('a new product found through discover-products gets its prompts and file; the deprecated alias says so in its headers', async () => {
    store.admin.addProduct({ handle: 'route-test-grinder', title: 'Route Test Grinder', price: '129.00', product_type: 'Grinders', body_html: '<p>A conical burr grinder with 40 settings.</p>' });
    const res = await stack.call('POST', '/api/cron/discover-products-from-changes', { ...key, body: { business_id: 'alpha' } });
    expect(res.status).toBe(202);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe('</api/cron/discover-products>; rel="successor-version"');
    await stack.workflows.finished(res.body.execution_id);
    const run = (await stack.call('GET', res.body.status_url, key)).body.businesses.runs[0];
    expect(run.steps['1b'].result).toMatchObject({ hash_changed: true, new_products: ['route-test-grinder'], entities_added: 1 });
    expect(run.steps['1b-prompts'].result.products).toBe(1);
    expect(run.steps['1b-files'].result.files_added).toEqual(['/llms/route-test-grinder.txt']);
    expect(run.steps['1b-commit'].result).toMatchObject({ committed: true });
  });

  test('bad bodies are 400s naming the field; an unknown business is 404', async () => {
    expect((await stack.call('POST', '/api/cron/discover-products', { ...key, body: {} })).body.error).toMatch(/business_id/);
    expect((await stack.call('POST', '/api/cron/discover-products', { ...key, body: { business_id: 'alpha', extra: 1 } })).status).toBe(400);
    expect((await stack.call('POST', '/api/cron/detect-changes', { ...key, body: { business_id: 'bad slug!' } })).body.error).toMatch(/business_id/);
    expect((await stack.call('POST', '/api/cron/discover-products', { ...key, body: { business_id: 'nobody' } })).status).toBe(404);
  });
});

describe('heavy routes answer 202 with an execution id that can be read back (D20)', () => {
  test('detect-changes runs the schedule for that business; its progress reads back', async () => {
    const res = await stack.call('POST', '/api/cron/detect-changes', { ...key, body: { business_id: 'alpha' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'running', execution_id: expect.any(String), status_url: `/api/cron/trigger-all/${res.body.execution_id}`, business_ids: ['alpha'] });
    await stack.workflows.finished(res.body.execution_id);
    const status = await stack.call('GET', res.body.status_url, key);
    expect(status.body).toMatchObject({ status: 'succeeded', trigger: 'manual', counts: { succeeded: 1 } });
    expect(status.body.businesses.runs.map((r: any) => r.org_slug)).toEqual(['alpha']);
  });

  test('trigger-all skips businesses without a published site, with the reason', async () => {
    const res = await stack.call('POST', '/api/cron/trigger-all', { ...key, body: { business_ids: ['bravo'] } });
    await stack.workflows.finished(res.body.execution_id);
    const status = await stack.call('GET', res.body.status_url, key);
    expect(status.body.counts).toMatchObject({ skipped: 1 });
    expect(status.body.businesses.runs[0]).toMatchObject({ org_slug: 'bravo', status: 'skipped', reason: expect.stringMatching(/no published AI site/) });
  });

  test('an execution the engine ended without its last task reads as failed, with the engine\'s status', async () => {
    const res = await stack.call('POST', '/api/cron/trigger-all', { ...key, body: { business_ids: ['alpha'] } });
    stack.workflows.abortAll(); // as a stopped process would leave it
    await stack.workflows.finished(res.body.execution_id);
    const status = await stack.call('GET', res.body.status_url, key);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'failed', engine_status: 'ABORTED', reason: 'the workflow engine reports ABORTED' });
  });

  test('an unknown business or execution is 404; a bad execution id is 400', async () => {
    expect((await stack.call('POST', '/api/cron/trigger-all', { ...key, body: { business_ids: ['nobody'] } })).status).toBe(404);
    expect((await stack.call('GET', '/api/cron/trigger-all/00000000-0000-0000-0000-000000000000', key)).status).toBe(404);
    expect((await stack.call('GET', '/api/cron/trigger-all/not%20an%20id', key)).status).toBe(400);
  });
});

describe('issue 21: the analyze-visibility read-back explains a run that checked nothing', () => {
  test('no platform configured: the read-back says skipped with the reason the daily run records, not a bare succeeded', async () => {
    const res = await stack.call('POST', '/api/cron/analyze-visibility', { ...key, body: { business_id: 'alpha' } });
    expect(res.status).toBe(202);
    await stack.workflows.finished(res.body.execution_id);
    const status = await stack.call('GET', res.body.status_url, key);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      execution_id: res.body.execution_id, status: 'skipped', business_id: 'alpha', prompts_sampled: 0, report: null,
      reason: expect.stringMatching(/no AI platform is configured/),
    });

    // The same reason as the daily run's 2b step.
    const daily = await stack.call('POST', '/api/cron/trigger-all', { ...key, body: { business_ids: ['alpha'] } });
    await stack.workflows.finished(daily.body.execution_id);
    const step = (await stack.call('GET', daily.body.status_url, key)).body.businesses.runs[0].steps['2b'];
    expect(step).toMatchObject({ status: 'skipped', reason: status.body.reason });

    // A read of an execution that did not write that skip does not borrow it.
    const other = await stack.call('POST', '/api/cron/analyze-visibility', { ...key, body: { business_id: 'alpha' } });
    expect((await stack.call('GET', `/api/cron/analyze-visibility/00000000-0000-0000-0000-000000000000?business_id=alpha`, key)).status).toBe(404);
    // The one execution-id rule of every read-back (EXECUTION_ID): no id starts with - or _ (400, was 404 here; D176).
    const malformed = await stack.call('GET', '/api/cron/analyze-visibility/-abc?business_id=alpha', key);
    expect([malformed.status, malformed.body.error]).toEqual([400, expect.stringContaining('execution_id')]);
    const malformedDaily = await stack.call('GET', '/api/cron/trigger-all/-abc', key);
    expect([malformedDaily.status, malformedDaily.body.error]).toEqual([400, expect.stringContaining('execution_id')]);
    await stack.workflows.finished(other.body.execution_id);
  });

  test('an impossible run_date is a 400 naming it and starts nothing', async () => {
    const res = await stack.call('POST', '/api/cron/analyze-visibility', { ...key, body: { business_id: 'alpha', run_date: '2026-02-30' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/run_date.*real calendar day/);
  });
});
