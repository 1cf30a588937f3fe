/**
 * The middleware stack, written once for every API route (middy, handler last):
 *   request context (request id, logger, metrics, error mapping) → header normalizer →
 *   auth class of the route → shared rate limit → JSON body → zod validation →
 *   org isolation → handler.
 * Auth comes from the route manifest, so a handler cannot disagree with the CDK API.
 */
import { randomUUID } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config as zodConfig, safeParse, type $ZodType, type output } from 'zod/v4/core';
import { en as english } from 'zod/v4/locales';
import { ORG_SLUG_PATTERN, RATE_LIMITS } from '../core/constants';
import { RateLimitedError, ValidationError } from '../core/errors';
import { clientIdentity } from '../core/net/client-address';
import { getContainer, type Container } from '../container';
import { beginInvocation, endInvocation } from '../invocation';
import { createLogger, type Logger } from '../logger';
import { findRoute, getRoute, routeKey, type AuthClass, type AuthClassOf, type RouteDef, type RouteKey } from '../routes';
import { assertSameOrganization, AUTH_KIND, type Authenticator, type AuthContext, type AuthContextOf } from './auth';
import { errorResponse, type ErrorShape } from './error-response';

export interface EndpointOptions<B extends $ZodType, Q extends $ZodType, P extends $ZodType, C extends AuthClass = AuthClass> {
  /** The verifier of the route's auth class (http/auth/*): the only one its bundle carries. */
  authenticator: Authenticator<C>;
  body?: B;
  query?: Q;
  path?: P;
  /** `detail` answers errors as `{detail}` (the ai-website operation). */
  errorShape?: ErrorShape;
  /** The success (2xx) body's contract: a body that breaks it is a server fault (500), never sent. */
  response?: $ZodType;
  /**
   * The body the handler itself validates (`parseBody`) after the organization check, so a
   * token for another organization is refused before its body is judged; published as the
   * route's body.
   */
  bodyCheckedByHandler?: $ZodType;
}

export interface ApiRequest<B = unknown, Q = unknown, P = unknown, A extends AuthContext = AuthContext> {
  body: B;
  query: Q;
  path: P;
  headers: Record<string, string>;
  /** Typed by the route's auth class (a JWT route's handler gets the token's organization). */
  auth: A;
  requestId: string;
  clientIp: string;
  log: Logger;
  container: Container;
  route: RouteDef;
}

export interface ApiResult {
  statusCode?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface State {
  route: RouteDef;
  requestId: string;
  log: Logger;
  startedAt: number;
  auth?: AuthContext;
  body?: unknown;
  errorShape: ErrorShape;
}

/** middy gives the handler the event, not the request: its state is found through the event. */
const stateOfEvent = new WeakMap<APIGatewayProxyEvent, State>();

type Request = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, { state: State }>;
const stateOf = (request: Request) => request.internal.state as State;

// zod/mini keeps bundles small but ships no messages: load English ones so 400s say what is wrong.
zodConfig(english());

type RouteResolver = RouteKey | ((event: APIGatewayProxyEvent) => RouteDef);
/** A static route's auth context; a resolver's routes may differ, so theirs is any class's. */
type AuthOf<R extends RouteResolver> = R extends RouteKey ? AuthContextOf<AuthClassOf<R>> : AuthContext;
type ClassOf<R extends RouteResolver> = R extends RouteKey ? AuthClassOf<R> : AuthClass;

/** Builds the Lambda handler of one route (or, with a resolver, of any route of the manifest). */
export function endpoint<R extends RouteResolver, B extends $ZodType = $ZodType<unknown>, Q extends $ZodType = $ZodType<unknown>, P extends $ZodType = $ZodType<unknown>>(
  routeOrResolver: R,
  options: EndpointOptions<B, Q, P, ClassOf<R>>,
  fn: (req: ApiRequest<output<B>, output<Q>, output<P>, AuthOf<R>>) => Promise<ApiResult>,
): ApiHandler {
  // Resolve a static route at module load, so a typo fails on import (and in tests), not per request.
  const resolve = typeof routeOrResolver === 'string' ? constant(getRoute(routeOrResolver)) : (routeOrResolver as (event: APIGatewayProxyEvent) => RouteDef);
  const errorShape = options.errorShape ?? 'status';

  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, { state: State }>()
    .use(requestContext(resolve, errorShape))
    .use(httpHeaderNormalizer() as MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>)
    .use(authentication(options.authenticator as Authenticator<AuthClass>))
    .use(rateLimit())
    .use(jsonBody())
    .handler(async (event, _context, { signal: _signal }) => {
      const state = stateOfEvent.get(event)!;
      const container = getContainer();
      // Secret values into the config before the handler may use a provider (D104); after auth, so
      // an unauthenticated request never costs a Secrets Manager read.
      await container.ready();
      const body = parse('body', options.body, state.body);
      const query = parse('query', options.query, event.queryStringParameters ?? {});
      const path = parse('path', options.path, event.pathParameters ?? {});
      assertSameOrganization(state.auth!, namedOrganizations(event, state.body));
      const result = await fn({
        body, query, path,
        headers: event.headers as Record<string, string>,
        // The authentication middleware checked that the context is the route's class.
        auth: state.auth as AuthOf<R>,
        requestId: state.requestId,
        clientIp: clientIp(event),
        log: state.log,
        container,
        route: state.route,
      });
      const status = result.statusCode ?? 200;
      // The response schema is the success contract; a handler's own error answers keep the error shape.
      if (options.response && status < 300) assertResponse(options.response, result.body);
      return json(status, result.body, { ...result.headers, 'X-Request-Id': state.requestId });
    });
  // What the route accepts and answers, for the published contract (functions/http/openapi.ts).
  Object.defineProperty(handler, 'contract', {
    value: { body: options.body ?? options.bodyCheckedByHandler, query: options.query, path: options.path, response: options.response, errorShape } satisfies EndpointContract,
  });
  return handler as unknown as ApiHandler;
}

/** A route's schemas as its handler validates them (undefined: not validated). */
export interface EndpointContract {
  body?: $ZodType;
  query?: $ZodType;
  path?: $ZodType;
  response?: $ZodType;
  errorShape: ErrorShape;
}

/** The contract an `endpoint` handler carries; null for a handler built another way. */
export const contractOf = (handler: unknown): EndpointContract | null =>
  ((handler as { contract?: EndpointContract } | null)?.contract ?? null);

const constant = (route: RouteDef) => () => route;

/** The route of an event, from the manifest (used by routes that share one module). */
export const routeOfEvent = (event: APIGatewayProxyEvent): RouteDef => {
  const route = findRoute(event.httpMethod, event.resource);
  if (!route) throw new Error(`no manifest route for ${event.httpMethod} ${event.resource}`);
  return route;
};

function requestContext(resolve: (e: APIGatewayProxyEvent) => RouteDef, errorShape: ErrorShape): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, { state: State }> {
  return {
    before: (request) => {
      const route = resolve(request.event);
      const requestId = request.event.requestContext?.requestId || request.context?.awsRequestId || randomUUID();
      const log = createLogger({ request_id: requestId, route: `${route.method} ${route.path}` });
      const state: State = { route, requestId, log, startedAt: Date.now(), errorShape };
      request.internal.state = state;
      stateOfEvent.set(request.event, state);
      beginInvocation(request.context, { correlationId: requestId, business: businessOfPath(request.event) });
    },
    after: (request) => {
      const state = stateOf(request as Request);
      state.log.info('request', { status: request.response?.statusCode, duration_ms: Date.now() - state.startedAt, org: orgOf(state.auth) });
      endInvocation();
    },
    onError: (request) => {
      const state = (request.internal.state as State | undefined) ?? {
        requestId: randomUUID(), log: createLogger(), startedAt: Date.now(), errorShape,
      } as State;
      const { statusCode, body, headers, logLevel } = errorResponse(request.error, state.errorShape);
      state.log[logLevel]('request failed', {
        status: statusCode, duration_ms: Date.now() - state.startedAt, org: orgOf(state.auth),
        error: logLevel === 'error' ? request.error : { name: request.error?.name, message: request.error?.message },
      });
      request.response = json(statusCode, body, { ...headers, 'X-Request-Id': state.requestId });
      endInvocation();
    },
  };
}

/** The business a route's path names (`{business_id}`, `{org_slug}`, `{org_id}`), for the metrics' metadata; only a well-formed slug. */
const businessOfPath = (event: APIGatewayProxyEvent): string | undefined => {
  const params = event.pathParameters ?? {};
  const named = params.business_id ?? params.org_slug ?? params.org_id;
  return named && ORG_SLUG_PATTERN.test(named) ? named : undefined;
};

const orgOf = (auth?: AuthContext) => (auth?.kind === 'jwt' ? auth.orgId : undefined);

function authentication(authenticator: Authenticator<AuthClass>): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, { state: State }> {
  return {
    before: async (request) => {
      const state = stateOf(request as Request);
      // The one place a handler's verifier and auth context are checked against its route's class.
      if (authenticator.authClass !== state.route.auth) throw new Error(`${state.route.auth} route ${routeKey(state.route)} is verified as ${authenticator.authClass}`);
      const auth = await authenticator.verify(request.event.headers, rawBody(request.event), getContainer());
      if (auth.kind !== AUTH_KIND[state.route.auth]) throw new Error(`${state.route.auth} route ${routeKey(state.route)} authenticated as ${auth.kind}`);
      state.auth = auth;
    },
  };
}

function rateLimit(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, { state: State }> {
  return {
    before: async (request) => {
      const { route } = stateOf(request as Request);
      if (!route.rateLimit) return;
      const { limit, windowSeconds } = RATE_LIMITS[route.rateLimit];
      const decision = await getContainer().rateLimiter.hit(route.rateLimit, clientIp(request.event), limit, windowSeconds);
      if (!decision.allowed) {
        throw new RateLimitedError(`rate limit exceeded: ${limit} requests per ${windowSeconds} s; retry after ${decision.retryAfterSeconds} s`, decision.retryAfterSeconds);
      }
    },
  };
}

/**
 * JSON bodies through @middy/http-json-body-parser, with the service's 400 naming the problem
 * in place of its 415s: no body is no body (the schema says whether one is required), a body
 * must say it is JSON, and a body that does not parse says where. Routes that read their body
 * raw (the webhooks' signatures, the beacon's text/plain) get the text as sent.
 */
function jsonBody(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, { state: State }> {
  const parser = httpJsonBodyParser({ disableContentTypeError: true });
  return {
    before: async (request) => {
      const state = stateOf(request as Request);
      const raw = rawBody(request.event);
      if (state.route.rawBody) {
        state.body = raw;
        return;
      }
      if (raw.trim() === '') return;
      const type = request.event.headers['content-type'];
      if (!type) throw new ValidationError('a body needs Content-Type: application/json');
      // Media types are case-insensitive; the parser's pattern (JSON_TYPE) is not: it sees the lower-case form.
      if (!JSON_TYPE.test(type.toLowerCase())) throw new ValidationError(`unsupported Content-Type ${type}: send application/json`);
      request.event.headers['content-type'] = type.toLowerCase();
      try {
        await parser.before!(request as never);
      } catch (err) {
        const cause = (err as { cause?: { message?: string } }).cause;
        throw new ValidationError(`malformed JSON body: ${cause?.message ?? (err as Error).message}`);
      }
      state.body = request.event.body;
    },
  };
}

/** JSON media types (the parser's own pattern): `application/json`, `application/<x>+json`, with parameters. */
const JSON_TYPE = /^application\/(.+\+)?json($|;.+)/;

function rawBody(event: APIGatewayProxyEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * API Gateway's TCP peer address (the local server puts the first X-Forwarded-For there),
 * canonical and bounded: never more than a few dozen characters, whatever the event holds.
 */
export function clientIp(event: APIGatewayProxyEvent): string {
  return clientIdentity(event.requestContext?.identity?.sourceIp);
}

/** A request body checked inside a handler, as the endpoint would (for a check that must come after the organization's). */
export function parseBody<T extends $ZodType>(schema: T, value: unknown): output<T> {
  return parse('body', schema, value);
}

function parse<T extends $ZodType>(where: string, schema: T | undefined, value: unknown): output<T> {
  if (!schema) return value as output<T>;
  const result = safeParse(schema, value ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length ? issue.path.join('.') : where;
  const message = value === undefined && where === 'body' ? 'a JSON body is required' : issue.message;
  throw new ValidationError(`invalid ${where}: ${field}: ${message}`);
}

function assertResponse(schema: $ZodType, body: unknown): void {
  const result = safeParse(schema, body);
  if (result.success) return;
  const issue = result.error.issues[0];
  throw new Error(`response does not match its schema: ${issue.path.join('.') || 'body'}: ${issue.message}`);
}

/** Every place an organization can be named (D5): path, query and body. */
function namedOrganizations(event: APIGatewayProxyEvent, body: unknown): Array<string | undefined> {
  const p = event.pathParameters ?? {};
  const q = event.queryStringParameters ?? {};
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return [p.org_id, p.org_slug, p.business_id, q.org_id, q.org_slug, q.business_id, str(b.business_id), str(b.org_slug), str(b.org_id)];
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}
