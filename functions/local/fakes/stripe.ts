/**
 * A local, stateful Stripe API subset on node:http (127.0.0.1) for tests and local runs:
 * point STRIPE_API_URL at `apiUrl` and STRIPE_SECRET_KEY at `secretKey`, and the official
 * SDK talks to it. Unlike stripe-mock (stateless), what a test seeds is what it reads back.
 *
 * - Every `/v1/` request needs `Authorization: Bearer <secretKey>` (401 as Stripe answers:
 *   no key, or "Invalid API Key provided: sk_test_****abcd").
 * - `GET /v1/customers/:id`: the customer; a deleted one as `{id, object, deleted: true}`;
 *   unknown: 404 `resource_missing`.
 * - `GET /v1/subscriptions?customer=&status=&limit=&starting_after=`: newest first, Stripe's
 *   list envelope and cursor paging. `status`: one value, `all`, `ended` (canceled +
 *   incomplete_expired), or none (everything but canceled). An unknown customer is a 400
 *   `resource_missing` on `customer`.
 * - `POST /v1/billing_portal/sessions` (form-encoded `customer`, `return_url`): a session
 *   whose `url` is this server's `/p/session/<id>` (a small page linking back to
 *   return_url). Missing customer: 400 `parameter_missing`; unknown or deleted customer:
 *   400 `resource_missing`; a return_url that is not a URL: 400 `url_invalid`. The same
 *   `Idempotency-Key` answers the same session (the SDK retries POSTs with one).
 * - Errors are Stripe's shape `{error: {type, code?, param?, message, doc_url?}}` with a
 *   `Request-Id` header; `failNext` injects them (a 5xx carries `Stripe-Should-Retry`).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer } from '../runtime/close-server';
import { listen } from '../runtime/listen';
import { readBody } from '../runtime/read-body';

export interface StripeFakeOptions {
  port?: number;
  host?: string;
  /** The key requests must carry; default a generated `sk_test_...`. */
  secretKey?: string;
  /** Unix seconds used for `created` when a seed gives none; default: the wall clock. */
  now?: () => number;
}

export interface FakeCustomer {
  id: string;
  email: string | null;
  created: number;
  deleted: boolean;
}

export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  created: number;
  trial_start: number | null;
  trial_end: number | null;
}

export interface FakePortalSession {
  id: string;
  customer: string;
  return_url: string;
  url: string;
  created: number;
}

export interface StripeFakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  /** The `Idempotency-Key` header (the SDK sends one with every POST, the same on its retries). */
  idempotencyKey?: string;
  status: number;
  authorized: boolean;
}

export interface StripeErrorBody {
  type: string;
  code?: string;
  param?: string;
  message: string;
}

export interface StripeFake {
  origin: string;
  port: number;
  /** STRIPE_API_URL. */
  apiUrl: string;
  /** STRIPE_SECRET_KEY (what requests must carry now). */
  readonly secretKey: string;
  /** Rolls the key: requests with the old one get 401 from now on. */
  setSecretKey(key: string): void;
  requests: StripeFakeRequest[];
  portalSessions: FakePortalSession[];
  addCustomer(seed?: Partial<Omit<FakeCustomer, 'deleted'>>): FakeCustomer;
  /** Marks the customer deleted (Stripe keeps answering it with `deleted: true`). */
  deleteCustomer(id: string): void;
  addSubscription(seed: { customer: string } & Partial<Omit<FakeSubscription, 'customer'>>): FakeSubscription;
  /** The next `count` API requests answer this error (default: 500 api_error). */
  failNext(status?: number, error?: Partial<StripeErrorBody>, count?: number): void;
  reset(): void;
  close(): Promise<void>;
}

const DOC = 'https://stripe.com/docs/error-codes';
const MAX_BODY_BYTES = 64 * 1024;

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  let secretKey = options.secretKey ?? `sk_test_fake${randomBytes(12).toString('hex')}`;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const customers = new Map<string, FakeCustomer>();
  const subscriptions = new Map<string, FakeSubscription>();
  const portalSessions: FakePortalSession[] = [];
  const sessionsByIdempotencyKey = new Map<string, FakePortalSession>();
  const requests: StripeFakeRequest[] = [];
  const injected: Array<{ status: number; error: StripeErrorBody }> = [];
  let origin = '';
  let seq = 0;
  const newId = (prefix: string) => `${prefix}_fake${(++seq).toString(36).padStart(4, '0')}${randomBytes(4).toString('hex')}`;

  const send = (res: ServerResponse, record: StripeFakeRequest, status: number, body: unknown, headers: Record<string, string> = {}) => {
    record.status = status;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(7).toString('hex')}`, ...headers })
      .end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, record: StripeFakeRequest, status: number, err: StripeErrorBody, headers?: Record<string, string>) =>
    send(res, record, status, { error: { ...err, ...(err.code ? { doc_url: `${DOC}#${err.code.replace(/_/g, '-')}` } : {}) } }, headers);
  const noSuchCustomer = (id: string, param: string): StripeErrorBody => ({ type: 'invalid_request_error', code: 'resource_missing', param, message: `No such customer: '${id}'` });

  const customerJson = (c: FakeCustomer) => (c.deleted
    ? { id: c.id, object: 'customer', deleted: true }
    : { id: c.id, object: 'customer', created: c.created, email: c.email, livemode: false, metadata: {}, delinquent: false, description: null, name: null });
  const subscriptionJson = (s: FakeSubscription) => ({
    id: s.id, object: 'subscription', customer: s.customer, status: s.status, created: s.created,
    start_date: s.created, trial_start: s.trial_start, trial_end: s.trial_end,
    cancel_at: null, cancel_at_period_end: false,
    canceled_at: s.status === 'canceled' ? s.created : null, ended_at: ['canceled', 'incomplete_expired'].includes(s.status) ? s.created : null,
    items: { object: 'list', data: [], has_more: false, url: `/v1/subscription_items?subscription=${s.id}` },
    livemode: false, metadata: {}, pause_collection: null,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stripe.fake');
    const raw = (await readBody(req, MAX_BODY_BYTES))?.toString('utf8') ?? '';
    const form = req.method === 'POST' ? Object.fromEntries(new URLSearchParams(raw)) : {};
    const record: StripeFakeRequest = {
      method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), form, status: 0, authorized: false,
      ...(typeof req.headers['idempotency-key'] === 'string' ? { idempotencyKey: req.headers['idempotency-key'] } : {}),
    };

    const session = /^\/p\/session\/([A-Za-z0-9_]+)$/.exec(url.pathname);
    if (req.method === 'GET' && session) return portalPage(res, record, portalSessions.find((s) => s.id === session[1]));
    requests.push(record);

    if (!url.pathname.startsWith('/v1/')) {
      return error(res, record, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` });
    }
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) {
      return error(res, record, 401, { type: 'invalid_request_error', message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').' });
    }
    if (bearer !== secretKey) {
      return error(res, record, 401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${maskKey(bearer)}` });
    }
    record.authorized = true;

    const failure = injected.shift();
    if (failure) {
      return error(res, record, failure.status, failure.error, failure.status >= 500 ? { 'stripe-should-retry': 'true' } : {});
    }

    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(url.pathname);
    if (customerPath && req.method === 'GET') {
      const id = decodeURIComponent(customerPath[1]);
      const customer = customers.get(id);
      if (!customer) return error(res, record, 404, noSuchCustomer(id, 'id'));
      return send(res, record, 200, customerJson(customer));
    }

    if (url.pathname === '/v1/subscriptions' && req.method === 'GET') {
      const customer = url.searchParams.get('customer');
      if (customer !== null && !customers.has(customer)) return error(res, record, 400, noSuchCustomer(customer, 'customer'));
      const status = url.searchParams.get('status');
      const limit = Number(url.searchParams.get('limit') ?? 10);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        return error(res, record, 400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', param: 'limit', message: 'Invalid integer: limit must be between 1 and 100' });
      }
      let list = [...subscriptions.values()]
        .filter((s) => customer === null || s.customer === customer)
        .filter((s) => matchesStatus(s.status, status))
        .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
      const after = url.searchParams.get('starting_after');
      if (after) {
        const index = list.findIndex((s) => s.id === after);
        if (index < 0) return error(res, record, 400, { type: 'invalid_request_error', code: 'resource_missing', param: 'starting_after', message: `No such subscription: '${after}'` });
        list = list.slice(index + 1);
      }
      return send(res, record, 200, { object: 'list', url: '/v1/subscriptions', has_more: list.length > limit, data: list.slice(0, limit).map(subscriptionJson) });
    }

    if (url.pathname === '/v1/billing_portal/sessions' && req.method === 'POST') {
      const key = req.headers['idempotency-key'];
      const earlier = typeof key === 'string' ? sessionsByIdempotencyKey.get(key) : undefined;
      if (earlier) return send(res, record, 200, sessionJson(earlier), { 'idempotent-replayed': 'true' });
      const customerId = form.customer;
      if (!customerId) return error(res, record, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'customer', message: 'Missing required param: customer.' });
      const customer = customers.get(customerId);
      if (!customer || customer.deleted) return error(res, record, 400, noSuchCustomer(customerId, 'customer'));
      if (form.return_url !== undefined && !isUrl(form.return_url)) {
        return error(res, record, 400, { type: 'invalid_request_error', code: 'url_invalid', param: 'return_url', message: 'Not a valid URL' });
      }
      const id = newId('bps');
      const created: FakePortalSession = { id, customer: customerId, return_url: form.return_url ?? '', url: `${origin}/p/session/${id}`, created: now() };
      portalSessions.push(created);
      if (typeof key === 'string') sessionsByIdempotencyKey.set(key, created);
      return send(res, record, 200, sessionJson(created));
    }

    return error(res, record, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: `fake failed: ${err.message}` } }));
    });
  });
  const port = await listen(server, options.port, options.host);
  origin = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    origin,
    port,
    apiUrl: origin,
    get secretKey() {
      return secretKey;
    },
    setSecretKey(key) {
      secretKey = key;
    },
    requests,
    portalSessions,
    addCustomer(seed = {}) {
      const customer: FakeCustomer = { id: seed.id ?? newId('cus'), email: seed.email ?? null, created: seed.created ?? now(), deleted: false };
      customers.set(customer.id, customer);
      return customer;
    },
    deleteCustomer(id) {
      const customer = customers.get(id);
      if (!customer) throw new Error(`no customer ${id}`);
      customer.deleted = true;
      for (const s of subscriptions.values()) if (s.customer === id && !['canceled', 'incomplete_expired'].includes(s.status)) s.status = 'canceled';
    },
    addSubscription(seed) {
      if (!customers.has(seed.customer)) throw new Error(`seed the customer ${seed.customer} first`);
      const sub: FakeSubscription = {
        id: seed.id ?? newId('sub'),
        customer: seed.customer,
        status: seed.status ?? 'active',
        created: seed.created ?? now(),
        trial_start: seed.trial_start ?? (seed.trial_end ? seed.created ?? now() : null),
        trial_end: seed.trial_end ?? null,
      };
      subscriptions.set(sub.id, sub);
      return sub;
    },
    failNext(status = 500, err = {}, count = 1) {
      const body: StripeErrorBody = {
        type: err.type ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
        message: err.message ?? `injected failure (HTTP ${status})`,
        ...(err.code ? { code: err.code } : {}),
        ...(err.param ? { param: err.param } : {}),
      };
      for (let i = 0; i < count; i++) injected.push({ status, error: body });
    },
    reset() {
      customers.clear();
      subscriptions.clear();
      portalSessions.length = 0;
      sessionsByIdempotencyKey.clear();
      requests.length = 0;
      injected.length = 0;
    },
    close: () => closeServer(server),
  };
}

/** Stripe's status filter of the subscription list. */
function matchesStatus(status: string, filter: string | null): boolean {
  if (filter === 'all') return true;
  if (filter === 'ended') return status === 'canceled' || status === 'incomplete_expired';
  if (filter === null || filter === '') return status !== 'canceled';
  return status === filter;
}

function sessionJson(s: FakePortalSession) {
  return {
    id: s.id, object: 'billing_portal.session', configuration: 'bpc_fake_default', created: s.created, customer: s.customer,
    flow: null, livemode: false, locale: null, on_behalf_of: null, return_url: s.return_url || null, url: s.url,
  };
}

/** How Stripe quotes a wrong key: its prefix and last four characters. */
function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(live|test)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(4, key.length - prefix.length - 4))}${key.slice(-4)}`;
}

function isUrl(value: string): boolean {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function portalPage(res: ServerResponse, record: StripeFakeRequest, session: FakePortalSession | undefined): void {
  record.status = session ? 200 : 404;
  if (!session) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('no such portal session\n');
    return;
  }
  const back = /^https?:\/\//i.test(session.return_url) ? `<p><a href="${escapeHtml(session.return_url)}">Return</a></p>` : '';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><title>Billing portal (local fake)</title><h1>Billing portal</h1><p>Customer ${escapeHtml(session.customer)}</p>${back}\n`);
}
