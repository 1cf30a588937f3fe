/**
 * The API as an OpenAPI 3.1 document, generated from the route manifest (functions/routes.ts)
 * and each route's zod schemas as its handler validates them (`contractOf`), never written by
 * hand: path, query and body schemas as the route accepts them (zod's JSON Schema export, input
 * side), the response schema where the handler asserts one (output side), the D20 202 of the
 * routes that start a workflow, and the error shape of every status the middleware can answer.
 */
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { routeKey, type AuthClass, type RouteDef, type RouteKey } from '../routes';
import { ROUTE_SUMMARIES } from '../route-summaries';
import type { EndpointContract } from './endpoint';
import { errorBody, type ErrorShape } from './error-response';

type JsonSchema = Record<string, unknown>;

const OPENAPI_VERSION = '3.1.0';

const SECURITY: Record<Exclude<AuthClass, 'PUBLIC'>, { name: string; scheme: JsonSchema }> = {
  JWT: { name: 'bearerJwt', scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The identity provider\'s token; its `org_id` must be the organization the request names (D5).' } },
  KEY: { name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The service key of the scheduler and operators (D6).' } },
  WEBHOOK: { name: 'webhookSignature', scheme: { type: 'apiKey', in: 'header', name: 'webhook-signature', description: 'Standard Webhooks signature over `webhook-id.webhook-timestamp.body` (D7), with the `webhook-id` and `webhook-timestamp` headers.' } },
};

/** Every status the middleware or a handler may answer with the error shape, and when (401 only where credentials are asked). */
const ERRORS: Array<{ status: number; when: string; example: string; applies: (route: RouteDef) => boolean }> = [
  { status: 400, when: 'the request is malformed; the message names the field', example: 'invalid body: url: must be an http(s) URL', applies: () => true },
  { status: 401, when: 'no or bad credentials', example: 'missing bearer token', applies: (r) => r.auth !== 'PUBLIC' },
  { status: 403, when: 'the credentials may not do this (a token for another organization, a business not yours)', example: 'forbidden: the token is not for organization acme', applies: () => true },
  { status: 404, when: 'the business, product or execution does not exist', example: 'business acme not found', applies: () => true },
  { status: 409, when: 'the request conflicts with the current state (a run in progress, a taken name)', example: 'onboarding is already running', applies: () => true },
  { status: 413, when: 'the body is too large', example: 'request body too large', applies: (r) => r.method !== 'GET' },
  { status: 429, when: 'rate limited across instances; Retry-After says when', example: 'rate limit exceeded: retry after 42 s', applies: () => true },
  { status: 500, when: 'a server fault; the body reveals nothing', example: 'internal error', applies: () => true },
  { status: 502, when: 'a provider or the store answered with an error', example: 'IndexNow: 422 URLs not on the key\'s host', applies: () => true },
  { status: 503, when: 'a provider is not configured; the message says which setting', example: 'AI-site storage is not configured (SITES_BUCKET on AWS, SITES_DIR locally)', applies: () => true },
  { status: 504, when: 'a workflow step timed out', example: 'the step timed out', applies: (r) => Boolean(r.startsWorkflow || r.readsWorkflow) },
];

/**
 * A zod schema's JSON Schema (input side: a plain z.object lets unlisted properties through,
 * and so does its JSON form then). Schemas named with zod metadata (`z.meta({ id })`) come out
 * of zod under `$defs`; they are moved into `components` (one entry per name, the same
 * wherever used) and referenced from there, so a client generator gets one type per name.
 */
type SchemaOf = (schema: $ZodType) => JsonSchema;
function componentsCollector(components: Record<string, JsonSchema>): SchemaOf {
  const repointed = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
  return (schema) => {
    const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      // zod names a def itself only to break a cycle: such a schema wants a name of its own.
      if (id.startsWith('__schema')) throw new Error(`a recursive schema needs a name (z.meta({ id })): ${JSON.stringify(def).slice(0, 120)}`);
      const body = repointed(def);
      if (components[id] && JSON.stringify(components[id]) !== JSON.stringify(body)) throw new Error(`two different schemas are named ${id}`);
      components[id] = body;
    }
    return repointed(rest);
  };
}

/** Path or query parameters from an object schema's properties. */
function parameters(schemaOf: SchemaOf, schema: $ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name, in: where, required: where === 'path' || required.has(name), schema: property,
  }));
}

const pathParameterNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** The tag of a route: its area (`/api/visibility/...` → `visibility`, `/webhooks/...` → `webhooks`). */
const tagOf = (path: string): string => {
  const [first, second] = path.split('/').filter(Boolean);
  return first === 'api' ? (second ?? 'api') : first;
};

const errorResponseName = (shape: ErrorShape | undefined, status: number) => `${shape === 'detail' ? 'ErrorDetail' : 'Error'}${status}`;

/** The shared error responses: every status of ERRORS in both shapes, with what it means and an example. */
function errorResponses(): Record<string, JsonSchema> {
  return Object.fromEntries((['status', 'detail'] as const).flatMap((shape) => ERRORS.map((error) => [errorResponseName(shape, error.status), {
    description: error.when,
    content: { 'application/json': { schema: { $ref: shape === 'detail' ? '#/components/schemas/ErrorDetail' : '#/components/schemas/Error' }, example: errorBody(shape, error.example) } },
  }])));
}

export function buildOpenApi(routes: readonly RouteDef[], contractFor: (route: RouteDef) => EndpointContract | null, info: { title: string; version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const named: Record<string, JsonSchema> = {};
  const schemaOf = componentsCollector(named);
  for (const route of routes) {
    const contract = contractFor(route);
    const declared = parameters(schemaOf, contract?.path, 'path');
    // Every `{name}` of the path is a parameter, validated or not.
    const pathParams = pathParameterNames(route.path).map((name) => declared.find((p) => p.name === name) ?? { name, in: 'path', required: true, schema: { type: 'string' } });
    const success = contract?.response
      ? { description: 'success', content: { 'application/json': { schema: schemaOf(contract.response) } } }
      : { description: 'success', content: { 'application/json': { schema: { type: 'object' } } } };
    // Any 2xx (200, 201 for a creation); a route that starts a workflow answers 202 (D20), or
    // 200 when the work finished in time (D149).
    const responses: Record<string, JsonSchema> = { '2XX': success };
    if (route.startsWorkflow) {
      // A D20 route's answer includes its running form: that is its 202. A route whose answer
      // is the start itself (POST /api/onboarding/generate-all, D12) answers 202 with that.
      const answersRunning = JSON.stringify(success).includes('"#/components/schemas/WorkflowRunning"');
      responses['202'] = answersRunning ? { $ref: '#/components/responses/WorkflowRunning' } : { ...success, description: 'accepted: the work runs as a workflow' };
    }
    // Each error status is one shared response per error shape (components.responses).
    for (const error of ERRORS.filter((e) => e.applies(route))) responses[String(error.status)] = { $ref: `#/components/responses/${errorResponseName(contract?.errorShape, error.status)}` };
    const operation: JsonSchema = {
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`,
      summary: ROUTE_SUMMARIES[routeKey(route) as RouteKey],
      tags: [tagOf(route.path)],
      ...(route.auth === 'PUBLIC' ? { security: [] } : { security: [{ [SECURITY[route.auth].name]: [] }] }),
      parameters: [...pathParams, ...parameters(schemaOf, contract?.query, 'query')],
      ...(contract?.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(contract.body) } } } } : {}),
      responses,
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: OPENAPI_VERSION,
    info: { ...info, description: 'Generated from the route manifest and the zod schemas each route validates (functions/http/openapi.ts); never edited by hand.' },
    paths,
    components: {
      securitySchemes: Object.fromEntries(Object.values(SECURITY).map(({ name, scheme }) => [name, scheme])),
      responses: {
        WorkflowRunning: { description: 'accepted: the work runs as a workflow (D20); poll the status URL', content: { 'application/json': { schema: { $ref: '#/components/schemas/WorkflowRunning' } } } },
        ...errorResponses(),
      },
      schemas: {
        // `{status:'error', error}` everywhere; POST /api/competitor-research answers its own
        // failures as `{success:false, error}` (D15). Two whole shapes, so a generated client gets a union.
        Error: {
          anyOf: [
            { type: 'object', required: ['status', 'error'], properties: { status: { const: 'error' }, error: { type: 'string', description: 'what is wrong, naming the field or setting' } } },
            { type: 'object', required: ['success', 'error'], properties: { success: { const: false }, error: { type: 'string', description: 'what is wrong' } } },
          ],
        },
        ErrorDetail: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
        ...Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b))),
      },
    },
  };
}
