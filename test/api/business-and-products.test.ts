import { request } from 'node:http';
import { getContainer } from '../../functions/container';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack(); });
afterAll(() => stack.close());

describe('POST /api/business (D11)', () => {
  test('creates the business for the token\'s organization, then 409 on a second call', async () => {
    const token = await stack.token('acme');
    const res = await stack.call('POST', '/api/business', { token, body: { name: 'Acme Shop', url: 'www.Acme-Shop.example/collections/all' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 'success',
      business: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Acme Shop', org_slug: 'acme', url: 'https://www.acme-shop.example', favicon_url: null },
    });
    const again = await stack.call('POST', '/api/business', { token, body: { name: 'Acme Shop', url: 'acme-shop.example' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ status: 'error', error: expect.stringContaining('already exists') });
  });

  test.each([
    [{ url: 'x.example' }, /name/],
    [{ name: 'A' }, /url/],
    [{ name: '', url: 'x.example' }, /name/],
    [{ name: 'A', url: 'ftp://x.example' }, /http/],
    [{ name: 'A', url: 'not a domain' }, /url/],
    [{ name: 'A', url: 'x.example', org_id: 'acme', extra: 1 }, /extra|org_id|Unrecognized/],
  ])('invalid body %j → 400 naming the field', async (body, message) => {
    const res = await stack.call('POST', '/api/business', { token: await stack.token('newco'), body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('malformed JSON → 400, and nothing is written', async () => {
    const token = await stack.token('brokenjson');
    const res = await stack.call('POST', '/api/business', { token, rawBody: '{"name": "A", ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/malformed JSON/);
    expect(await getContainer().businesses.get('brokenjson')).toBeNull();
  });

  // JSON bodies go through @middy/http-json-body-parser; its 415s become the service's 400 naming the problem.
  test.each([
    ['a wrong content type', { 'Content-Type': 'text/plain' }, '{"name":"A","url":"a.example"}', /unsupported Content-Type text\/plain: send application\/json/],
    ['malformed JSON, the parser\'s reason', { 'Content-Type': 'application/json' }, '{"name": A}', /malformed JSON body: Unexpected token/],
    ['an empty body', { 'Content-Type': 'application/json' }, '', /a JSON body is required/],
    ['a JSON body that is not an object', { 'Content-Type': 'application/json' }, '"A"', /invalid body/],
  ])('%s → 400 naming it, nothing written', async (_case, headers, rawBody, message) => {
    const token = await stack.token('parsercase');
    const res = await stack.call('POST', '/api/business', { token, rawBody, headers });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: expect.stringMatching(message) });
    expect(await getContainer().businesses.get('parsercase')).toBeNull();
  });

  test('a body with no Content-Type at all → 400 naming it (fetch would add text/plain: a bare request)', async () => {
    const token = await stack.token('notype');
    const body = JSON.stringify({ name: 'No Type', url: 'notype.example' });
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${stack.api.url}/api/business`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (chunk) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect({ status: answer.status, error: JSON.parse(answer.text).error }).toEqual({ status: 400, error: 'a body needs Content-Type: application/json' });
    expect(await getContainer().businesses.get('notype')).toBeNull();
  });

  test('the media type is case-insensitive, with parameters, and +json types are JSON', async () => {
    for (const [org, type] of [['casetype', 'Application/JSON; charset=UTF-8'], ['plusjson', 'application/vnd.api+json']]) {
      const res = await stack.call('POST', '/api/business', { token: await stack.token(org), rawBody: JSON.stringify({ name: org, url: `${org}.example` }), headers: { 'Content-Type': type } });
      expect({ type, status: res.status }).toEqual({ type, status: 201 });
    }
  });

  test('a missing body → 400', async () => {
    const res = await stack.call('POST', '/api/business', { token: await stack.token('nobody') });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/JSON body is required/);
  });
});

describe('GET /api/products/{business_id}', () => {
  test('lists the organization\'s products in the spec\'s shape', async () => {
    const token = await stack.token('shop-two');
    await stack.call('POST', '/api/business', { token, body: { name: 'Shop Two', url: 'shop-two.example' } });
    const now = new Date().toISOString();
    await getContainer().products.addMissing([
      { id: '11111111-1111-4111-8111-111111111111', orgSlug: 'shop-two', productId: 'blue-mug', name: 'Blue Mug', url: 'https://shop-two.example/products/blue-mug', citationCount: 2, articleCount: 0, createdAt: now, updatedAt: now },
      { id: '22222222-2222-4222-8222-222222222222', orgSlug: 'shop-two', productId: 'red-mug', name: 'Red Mug', url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now },
    ]);
    const res = await stack.call('GET', '/api/products/shop-two', { token });
    expect(res.status).toBe(200);
    expect(res.body.business_id).toBe('shop-two');
    expect(res.body.total).toBe(2);
    expect(res.body.products[0]).toEqual({
      id: '11111111-1111-4111-8111-111111111111', product_id: 'blue-mug', name: 'Blue Mug', url: 'https://shop-two.example/products/blue-mug',
      favicon_url: null, citation_count: 2, created_at: now, updated_at: now,
    });
    expect(res.body.products[1].url).toBeUndefined();
  });

  test('another organization\'s products are never readable (403), an unknown business is 404', async () => {
    expect((await stack.call('GET', '/api/products/shop-two', { token: await stack.token('acme') })).status).toBe(403);
    expect((await stack.call('GET', '/api/products/ghost', { token: await stack.token('ghost') })).status).toBe(404);
  });
});

describe('GET /api/ai-website/{org_slug} (D7, D15)', () => {
  test('404 {detail} for an unknown business and for a business without a deployed site', async () => {
    const unknown = await stack.call('GET', '/api/ai-website/nobody-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: expect.stringMatching(/not found/) });
    const noSite = await stack.call('GET', '/api/ai-website/acme');
    expect(noSite.status).toBe(404);
    expect(noSite.body).toEqual({ detail: expect.stringMatching(/No AI website/) });
  });

  test('an invalid slug is a 400 {detail}', async () => {
    const res = await stack.call('GET', '/api/ai-website/bad%20slug');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/org_slug/);
  });
});

describe('product lookup', () => {
  test('by slug or entity id, never across organizations', async () => {
    const repo = getContainer().products;
    const byId = await repo.find('shop-two', '11111111-1111-4111-8111-111111111111');
    expect(byId?.productId).toBe('blue-mug');
    expect((await repo.find('shop-two', 'red-mug'))?.id).toBe('22222222-2222-4222-8222-222222222222');
    expect(await repo.find('acme', '11111111-1111-4111-8111-111111111111')).toBeNull();
    expect(await repo.find('shop-two', 'no-such-mug')).toBeNull();
  });
});
