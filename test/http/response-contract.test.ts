/**
 * The success contract (D173): `endpoint()` checks a route's `response` schema only on answers
 * below 300. A 2xx body that breaks it is a server fault (500, never sent); a handler's own
 * error answer keeps its status and body. Unit: a tiny handler, a hand-made event, no stack.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { loadConfig } from '../../functions/config';
import { buildContainer, setContainer } from '../../functions/container';
import { endpoint, type ApiResult } from '../../functions/http/endpoint';
import { publicAuth } from '../../functions/http/auth';
import { setLogSink } from '../../functions/logger';

// Nothing here reaches the database: GET /health is PUBLIC and has no rate limit.
let logged: string[];
let previousSink: ReturnType<typeof setLogSink>;
beforeAll(() => setContainer(buildContainer(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', LOG_LEVEL: 'error' }))));
afterAll(() => setContainer(undefined));
beforeEach(() => { logged = []; previousSink = setLogSink((line) => { logged.push(line); }); });
afterEach(() => { setLogSink(previousSink); });

function healthEvent(): APIGatewayProxyEvent {
  return {
    resource: '/health', path: '/health', httpMethod: 'GET',
    headers: { Host: 'localhost' }, multiValueHeaders: { Host: ['localhost'] },
    queryStringParameters: null, multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null,
    body: null, isBase64Encoded: false,
    requestContext: {
      requestId: 'req-contract-1', httpMethod: 'GET', path: '/local/health', resourcePath: '/health', stage: 'local',
      identity: { sourceIp: '203.0.113.7' },
    },
  } as unknown as APIGatewayProxyEvent;
}

const healthWith = (answer: ApiResult) =>
  endpoint('GET /health', { authenticator: publicAuth, response: z.object({ ok: z.literal(true) }) }, async () => answer);

test('a 2xx body that breaks the route\'s response schema is a 500, never sent (D173)', async () => {
  const result = await healthWith({ statusCode: 200, body: { ok: false } })(healthEvent(), {} as Context);
  expect(result.statusCode).toBe(500);
  expect(result.body).not.toContain('"ok":false');
  expect(logged.join('\n')).toContain('response does not match its schema: ok');
});

test('a handler\'s own error answer (status 300 or more) is not held to the success schema (D173)', async () => {
  const result = await healthWith({ statusCode: 404, body: { status: 'error', error: 'nope' } })(healthEvent(), {} as Context);
  expect(result.statusCode).toBe(404);
  expect(JSON.parse(result.body)).toEqual({ status: 'error', error: 'nope' });
});

test('a 2xx body that keeps the schema is sent as it is', async () => {
  const result = await healthWith({ body: { ok: true } })(healthEvent(), {} as Context);
  expect(result.statusCode).toBe(200);
  expect(JSON.parse(result.body)).toEqual({ ok: true });
});

test('a route given another class\'s verifier is a server fault before any verification', async () => {
  const { keyAuth } = await import('../../functions/http/auth/key');
  // The manifest's types refuse this at compile time; the middleware refuses it at run time too.
  const wrong = endpoint('GET /health', { authenticator: keyAuth as never, response: z.object({ ok: z.literal(true) }) }, async () => ({ body: { ok: true } }));
  const result = await wrong(healthEvent(), {} as Context);
  expect(result.statusCode).toBe(500);
  expect(logged.join('\n')).toContain('PUBLIC route GET /health is verified as KEY');
});
