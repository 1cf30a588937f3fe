/**
 * Every manifest route enforces its auth class before anything else, and routes not
 * built yet answer 501 only after auth passes.
 */
import { generateKeyPair, SignJWT } from 'jose';
import { Webhook } from 'svix';
import { ROUTES, type RouteDef } from '../../functions/routes';
import { DEV_WEBHOOK_SECRET } from '../../functions/local/runtime';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack(); });
afterAll(() => stack.close());

const ORG = 'acme';
const concrete = (r: RouteDef, org = ORG) =>
  r.path.replace(/\{(org_id|org_slug|business_id)\}/, org).replace(/\{[a-z_]+\}/g, '00000000-0000-4000-8000-000000000000');
const byAuth = (auth: RouteDef['auth']) => ROUTES.filter((r) => r.auth === auth).map((r) => [`${r.method} ${r.path}`, r] as const);

describe('JWT routes', () => {
  const routes = byAuth('JWT');

  test.each(routes)('%s: no token → 401', async (_n, r) => {
    const res = await stack.call(r.method, concrete(r));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/Authorization/) });
  });

  test.each(routes)('%s: token signed by another key → 401', async (_n, r) => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ org_id: ORG }).setProtectedHeader({ alg: 'RS256', kid: stack.idp.jwks.keys[0].kid })
      .setIssuer(stack.idp.issuer).setAudience(stack.idp.audience).setExpirationTime('1h').sign(privateKey);
    expect((await stack.call(r.method, concrete(r), { token: forged })).status).toBe(401);
  });

  test.each(routes)('%s: expired token → 401', async (_n, r) => {
    const expired = await stack.token(ORG, { expiresInSeconds: -60 });
    const res = await stack.call(r.method, concrete(r), { token: expired });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/expired/);
  });

  const orgInPath = routes.filter(([, r]) => /\{(org_id|org_slug|business_id)\}/.test(r.path));
  test.each(orgInPath)('%s: another organization → 403', async (_n, r) => {
    const res = await stack.call(r.method, concrete(r, 'globex'), { token: await stack.token(ORG) });
    expect(res.status).toBe(403);
    expect(res.body.status).toBe('error');
  });

  // Every JWT route, whatever its path: another organization named in the query (org_id,
  // org_slug, business_id) is refused before the handler runs (issue 22: subscription-status
  // answered the caller's own status for ?org_id=<another org>).
  const queryParams = ['org_id', 'org_slug', 'business_id'];
  // (GET routes: a POST's body is validated first, and its own test names the org in the body.)
  test.each(routes.filter(([, r]) => r.method === 'GET').flatMap(([n, r]) => queryParams.map((q) => [n, q, r] as const)))('%s: ?%s=<another organization> → 403', async (_n, param, r) => {
    const path = `${concrete(r)}${concrete(r).includes('?') ? '&' : '?'}${param}=globex`;
    const res = await stack.call(r.method, path, { token: await stack.token(ORG) });
    expect(res.status).toBe(403);
  });

  test('a token without org_id, with alg none, or HS256 is refused with 401', async () => {
    const noOrg = await stack.token(null);
    expect((await stack.call('GET', '/api/products/acme', { token: noOrg })).status).toBe(401);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ org_id: ORG, iss: stack.idp.issuer, aud: stack.idp.audience, exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url');
    expect((await stack.call('GET', '/api/products/acme', { token: `${header}.${payload}.` })).status).toBe(401);
    const hs = await new SignJWT({ org_id: ORG }).setProtectedHeader({ alg: 'HS256' }).setIssuer(stack.idp.issuer)
      .setAudience(stack.idp.audience).setExpirationTime('1h').sign(new TextEncoder().encode('x'.repeat(32)));
    expect((await stack.call('GET', '/api/products/acme', { token: hs })).status).toBe(401);
    const wrongIssuer = await stack.idp.mint({ orgId: ORG, issuer: 'https://evil.example' });
    expect((await stack.call('GET', '/api/products/acme', { token: wrongIssuer })).status).toBe(401);
  });

  test('an organization named in the body must also be the token\'s (D5)', async () => {
    const res = await stack.call('POST', '/api/cron/store-visibility-score', { apiKey: DEV_API_KEY, body: { business_id: 'x', results: [] } });
    expect(res.status).toBe(400); // KEY routes are internal: no org restriction, validation runs
    const jwt = await stack.call('POST', '/api/explore/add-competitor', { token: await stack.token(ORG), body: { business_id: 'globex', url: 'https://x.example' } });
    expect(jwt.status).toBe(403);
  });
});

describe('KEY routes', () => {
  const routes = byAuth('KEY');
  test.each(routes)('%s: missing key → 401, wrong key → 403', async (_n, r) => {
    const missing = await stack.call(r.method, concrete(r));
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatch(/X-API-Key/);
    const wrong = await stack.call(r.method, concrete(r), { apiKey: `${DEV_API_KEY}x` });
    expect(wrong.status).toBe(403);
  });

  test('a bearer token is not a key', async () => {
    const res = await stack.call('POST', '/api/domain/update-edge-function', { token: await stack.token(ORG) });
    expect(res.status).toBe(401);
  });
});

describe('signed webhook routes', () => {
  const payload = JSON.stringify({ type: 'organization.created', data: { id: 'org_1', slug: ORG } });
  const signed = (body: string, secret = DEV_WEBHOOK_SECRET) => {
    const id = `msg_${Math.random().toString(36).slice(2)}`;
    const now = new Date();
    return { 'hook-id': id, 'hook-timestamp': String(Math.floor(now.getTime() / 1000)), 'hook-signature': new Webhook(secret).sign(id, now, body) };
  };

  test.each(byAuth('WEBHOOK'))('%s: missing signature headers → 400, bad signature → 401', async (_n, r) => {
    const missing = await stack.call(r.method, r.path, { rawBody: payload, headers: { 'Content-Type': 'application/json' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/hook-id/);
    const bad = await stack.call(r.method, r.path, { rawBody: payload, headers: { 'Content-Type': 'application/json', ...signed(payload, 'whsec_' + Buffer.from('another-secret-entirely').toString('base64')) } });
    expect(bad.status).toBe(401);
    const tampered = await stack.call(r.method, r.path, { rawBody: payload.replace('org_1', 'org_2'), headers: signed(payload) });
    expect(tampered.status).toBe(401);
  });

  test('svix-* headers are accepted like hook-* (D27)', async () => {
    const h = signed(payload);
    const res = await stack.call('POST', '/webhooks/idp', { rawBody: payload, headers: { 'svix-id': h['hook-id'], 'svix-timestamp': h['hook-timestamp'], 'svix-signature': h['hook-signature'] } });
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(400);
  });

  test('a correctly signed body that is not JSON → 400 naming the problem; the signature is still checked first', async () => {
    for (const body of ['not json at all', '{"type":', '']) {
      const res = await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: signed(body) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/JSON/) });
    }
    const forged = await stack.call('POST', '/webhooks/idp', { rawBody: 'not json at all', headers: signed('something else') });
    expect(forged.status).toBe(401);
    // A signed JSON body passes auth and reaches the handler, which needs the provider's API
    // (no IDP_API_URL in this stack: 503 naming the settings).
    const reached = await stack.call('POST', '/webhooks/idp', { rawBody: payload, headers: signed(payload) });
    expect(reached.status).toBe(503);
    expect(reached.body.error).toMatch(/IDP_API_URL/);
  });
});

describe('every response', () => {
  test('carries a request id, also on errors', async () => {
    const ok = await stack.call('GET', '/health');
    const err = await stack.call('GET', '/api/products/acme');
    expect(ok.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    expect(err.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
  });

  test('unknown paths are 404 and wrong methods 405', async () => {
    expect((await stack.call('GET', '/api/nope')).status).toBe(404);
    const wrong = await stack.call('DELETE', '/api/business');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  test('logs are structured JSON with the request id and never carry tokens or keys', async () => {
    const token = await stack.token(ORG);
    stack.logs.length = 0;
    const res = await stack.call('GET', '/api/products/globex', { token });
    await stack.call('GET', '/api/cron/entities', { apiKey: DEV_API_KEY });
    await stack.call('GET', '/api/cron/entities', { apiKey: 'wrong-key-123' });
    const lines = stack.logs.map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.request_id === res.headers.get('x-request-id'))).toBe(true);
    const all = stack.logs.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.split('.')[2]);
    expect(all).not.toContain(DEV_API_KEY);
    expect(all).not.toContain('wrong-key-123');
  });
});
