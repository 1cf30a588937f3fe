import { buildContainer, getContainer, setContainer } from '../../functions/container';
import { startApiServer } from '../../functions/local/runtime/api-server';
import { startFakeStore, type FakeStore } from '../support/fake-store';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let store: FakeStore;
let headless: FakeStore;
let forbidden: FakeStore;
let ip = 0;
/** Each test speaks from its own client IP, so the shared per-IP limits don't couple tests. */
const from = () => ({ 'X-Forwarded-For': `203.0.113.${++ip}` });

beforeAll(async () => {
  stack = await startTestStack();
  [store, headless, forbidden] = await Promise.all([startFakeStore({ products: 260 }), startFakeStore({ status: 404 }), startFakeStore({ status: 403 })]);
});
afterAll(async () => {
  await Promise.all([store.close(), headless.close(), forbidden.close()]);
  await stack.close();
});

describe('POST /api/validate-store', () => {
  test('200 from /products.json → a store', async () => {
    const res = await stack.call('POST', '/api/validate-store', { body: { url: store.origin }, headers: from() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ is_store: true, message: expect.stringContaining('supported store') });
    expect(store.requests.at(-1)).toMatch(/^\/products\.json/);
  });

  test.each([['404', () => headless], ['403', () => forbidden]])('%s → not a store', async (status, s) => {
    const res = await stack.call('POST', '/api/validate-store', { body: { url: s().origin }, headers: from() });
    expect(res.status).toBe(200);
    expect(res.body.is_store).toBe(false);
    expect(res.body.message).toContain(`HTTP ${status}`);
  });

  test('an unreachable store → a clear message', async () => {
    const res = await stack.call('POST', '/api/validate-store', { body: { url: 'http://127.0.0.1:9' }, headers: from() });
    expect(res.status).toBe(200);
    expect(res.body.is_store).toBe(false);
    expect(res.body.message).toMatch(/Could not check 127\.0\.0\.1:9: could not reach/);
  });

  test('a link-local / metadata address is refused with 400 (D24)', async () => {
    const res = await stack.call('POST', '/api/validate-store', { body: { url: 'http://169.254.169.254' }, headers: from() });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
  });

  test('missing url → 400 naming the field', async () => {
    const res = await stack.call('POST', '/api/validate-store', { body: {}, headers: from() });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/url/);
  });
});

describe('GET /api/product-names (D13)', () => {
  test('follows pagination and returns every name', async () => {
    const res = await stack.call('GET', `/api/product-names?url=${encodeURIComponent(store.origin)}`, { headers: from() });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(260);
    expect(res.body.product_names.slice(0, 2)).toEqual(['Product 1', 'Product 2']);
  });

  test('a non-store → 502 with the reason', async () => {
    const res = await stack.call('GET', `/api/product-names?url=${encodeURIComponent(headless.origin)}`, { headers: from() });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/HTTP 404/);
  });
});

describe('shared rate limit (D14)', () => {
  test('the 6th validate-store request in a minute from one IP is 429 with Retry-After; other IPs are unaffected', async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.7, 10.0.0.1' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await stack.call('POST', '/api/validate-store', { body: { url: store.origin }, headers })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await stack.call('POST', '/api/validate-store', { body: { url: store.origin }, headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body).toEqual({ status: 'error', error: expect.stringContaining('rate limit') });
    expect((await stack.call('POST', '/api/validate-store', { body: { url: store.origin }, headers: from() })).status).toBe(200);
  });

  test('competitor-research allows 10 requests a minute per IP, then 429 with Retry-After', async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.50' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await stack.call('POST', `/api/competitor-research?url=${encodeURIComponent(store.origin)}`, { headers })).status);
    // Without a search API the route answers 503 (it says so); the limit counts every request.
    expect(statuses).toEqual([...Array(10).fill(503), 429]);
    expect((await stack.call('POST', '/api/competitor-research?url=x.example', { headers: { 'X-Forwarded-For': '198.51.100.51' } })).status).not.toBe(429);
  });

  test('a 4 KB X-Forwarded-For is never a 500 and cannot mint new clients: the limit still counts (D14)', async () => {
    const junk = (i: number) => ({ 'X-Forwarded-For': `${i}-${'x'.repeat(4096)}` });
    // Local stand-in for API Gateway: a first entry that is no address falls back to the
    // socket address, so every junk value is the same client (this file sends none other from it).
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await stack.call('POST', '/api/validate-store', { body: { url: store.origin }, headers: junk(i) })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // A valid first entry followed by kilobytes of junk counts under that address.
    const padded = { 'X-Forwarded-For': `198.51.100.77, ${'9'.repeat(4096)}` };
    const named: number[] = [];
    for (let i = 0; i < 6; i++) named.push((await stack.call('GET', `/api/product-names?url=${encodeURIComponent(store.origin)}`, { headers: padded })).status);
    expect(named).toEqual([200, 200, 200, 200, 200, 429]);
    const research = await stack.call('POST', `/api/competitor-research?url=${encodeURIComponent(store.origin)}`, { headers: { 'X-Forwarded-For': '1'.repeat(4096) } });
    expect(research.status).toBe(503); // no search API configured: the route says so, as for any client
  });

  test('the shared limiter bounds whatever client value it is given, and counts IPv6 clients by /64', async () => {
    const { rateLimiter } = getContainer();
    await expect(rateLimiter.hit('validateStore', 'z'.repeat(4096), 5, 60)).resolves.toMatchObject({ allowed: true });
    const decisions = [];
    for (let i = 1; i <= 6; i++) decisions.push((await rateLimiter.hit('validateStore', `2001:db8:77:1::${i}`, 5, 60)).allowed);
    expect(decisions).toEqual([true, true, true, true, true, false]);
    expect((await rateLimiter.hit('validateStore', '2001:db8:77:2::1', 5, 60)).allowed).toBe(true);
  });

  test('the limit holds across instances: two API servers with separate containers share one counter', async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.99' };
    const first = getContainer();
    const second = await startApiServer();
    const hit = async (url: string) => (await fetch(`${url}/api/product-names?url=${encodeURIComponent(store.origin)}`, { headers })).status;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        // Alternate "Lambda instances": each has its own container (own clients), same table.
        setContainer(i % 2 === 0 ? first : buildContainer(first.config));
        statuses.push(await hit(i % 2 === 0 ? stack.api.url : second.url));
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      setContainer(first);
      await second.close();
    }
  });
});
