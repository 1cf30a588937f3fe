/**
 * The published contract (issue 26): docs/openapi.json is generated from the route manifest and
 * the schemas each route validates, valid OpenAPI 3.1, complete, served by the local API, up to
 * date, and it refuses answers that break it (test/support/contract.ts checks every answer the
 * tests' stack receives).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiDocument, openApiText } from '../../functions/local/runtime/openapi-document';
import { ROUTES, routeKey, type RouteKey } from '../../functions/routes';
import { ROUTE_SUMMARIES } from '../../functions/route-summaries';
import { assertMatchesContract } from '../support/contract';
import { startTestStack, type TestStack } from '../support/stack';

type Operation = { summary: string; security: Array<Record<string, string[]>>; parameters: Array<{ name: string; in: string }>; requestBody?: unknown; responses: Record<string, unknown> };
const generated = openApiDocument() as { openapi: string; paths: Record<string, Record<string, Operation>> };

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack({ LOG_LEVEL: 'error' }); }, 60_000);
afterAll(() => stack.close());

test('docs/openapi.json is the document the code generates (run npm run openapi after changing a route or a schema)', () => {
  expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText(generated));
});

/** @seriousme/openapi-schema-validator (ESM only: run in its own Node process) on a document file. */
function validateOpenApi(file: string): { valid: boolean; version: string; errors?: unknown } {
  const script = `import { Validator } from '@seriousme/openapi-schema-validator';
    const v = new Validator(); const r = await v.validate(${JSON.stringify(file)});
    console.log(JSON.stringify({ valid: r.valid, version: v.version, errors: r.errors }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

test('it validates as OpenAPI 3.1 with a maintained validator', () => {
  expect(validateOpenApi(OPENAPI_FILE)).toEqual({ valid: true, version: '3.1' });
  expect(generated.openapi).toBe('3.1.0');
});

test('every route of the manifest is in it, with its auth scheme, its path parameters and the error shape', () => {
  const scheme = { JWT: 'bearerJwt', KEY: 'apiKey', WEBHOOK: 'webhookSignature' } as const;
  for (const route of ROUTES) {
    const op = generated.paths[route.path]?.[route.method.toLowerCase()];
    expect([route.method, route.path, Boolean(op)]).toEqual([route.method, route.path, true]);
    expect(op.summary).toBe(ROUTE_SUMMARIES[routeKey(route) as RouteKey]);
    expect(op.security).toEqual(route.auth === 'PUBLIC' ? [] : [{ [scheme[route.auth]]: [] }]);
    for (const name of [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'path' }));
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['2XX', '400', '429', '500']));
    if (route.auth !== 'PUBLIC') expect(op.responses).toHaveProperty('401');
    if (route.startsWorkflow) expect(op.responses).toHaveProperty('202');
  }
  expect(Object.values(generated.paths).reduce((n, ops) => n + Object.keys(ops).length, 0)).toBe(ROUTES.length);
});

test('the zod schemas become parameters and bodies: a query parameter and a request body', () => {
  const products = generated.paths['/api/visibility/{business_id}/products'].get;
  expect(products.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:business_id', 'query:from', 'query:to', 'query:sort', 'query:limit', 'query:cursor']);
  expect(generated.paths['/api/business'].post.requestBody).toMatchObject({ required: true, content: { 'application/json': { schema: { type: 'object' } } } });
});

test('the local API serves it at GET /openapi.json', async () => {
  const res = await fetch(`${stack.api.url}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(await res.text()).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
});

test('an answer that breaks the contract is refused: a wrong shape, an error without its message, an unlisted status', () => {
  const status = '/api/cron/trigger-all/0b4a8c4e-1111-4222-8333-944445555666';
  expect(() => assertMatchesContract('GET', status, 200, { execution_id: 'x', status: 42, started_at: null, finished_at: null, businesses: { runs: [], next_cursor: null } })).toThrow(/refuses: data\/status must be /);
  expect(() => assertMatchesContract('GET', status, 404, { status: 'error' })).toThrow(/must have required property 'error'/);
  expect(() => assertMatchesContract('GET', '/api/products/acme', 302, {})).toThrow(/302, a status docs\/openapi.json does not list/);
  expect(() => assertMatchesContract('GET', '/api/products/acme', 404, { status: 'error', error: 'business acme not found' })).not.toThrow();
});
