/** Starts the real local stack (embedded database, dev IdP, API server) for a test file. */
import { startLocalStack, DEV_API_KEY, type LocalStack, type LocalStackOptions } from '../../functions/local/runtime';
import { setLogSink } from '../../functions/logger';
import { assertMatchesContract } from './contract';

export { DEV_API_KEY };

export interface TestStack extends LocalStack {
  call(method: string, path: string, init?: { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string; apiKey?: string }): Promise<{ status: number; body: any; headers: Headers }>;
  token(orgId?: string | null, options?: { expiresInSeconds?: number }): Promise<string>;
  logs: string[];
}

/**
 * At-least-once delivery (D196), for any workflow suite: TEST_TASK_DELIVERY=twice runs every
 * task of the stack's workflows twice; TEST_TASK_DELIVERY=fail-after runs every task and then
 * loses its response once, so the state's Retry runs it again:
 * `TEST_TASK_DELIVERY=twice npx jest test/e2e/...`.
 */
/** How many times each task is delivered in this run (1, or 2 under TEST_TASK_DELIVERY): for tests that count a task's invocations or a vendor's calls. */
export const taskDeliveries = process.env.TEST_TASK_DELIVERY ? 2 : 1;

function deliveryFromEnv(options: Omit<LocalStackOptions, 'env'>): Omit<LocalStackOptions, 'env'> {
  const mode = process.env.TEST_TASK_DELIVERY;
  if (!mode) return options;
  if (mode !== 'twice' && mode !== 'fail-after') throw new Error(`TEST_TASK_DELIVERY is twice or fail-after, not ${JSON.stringify(mode)}`);
  const delivery = mode === 'twice' ? { twice: true } : { failAfter: 'every-task' as const };
  // Every task retried once: without the states' retry intervals, or a suite's timeouts would measure them.
  const retry = mode === 'fail-after' ? { retryWithoutDelay: true } : {};
  return { ...options, workflows: { ...options.workflows, ...retry, delivery: { ...options.workflows?.delivery, ...delivery } } };
}

export async function startTestStack(env: Record<string, string | undefined> = {}, given: Omit<LocalStackOptions, 'env'> = {}): Promise<TestStack> {
  const options = deliveryFromEnv(given);
  const logs: string[] = [];
  setLogSink((line) => logs.push(line));
  // The crawler vendors' address lists come from a closed local port unless a test serves a
  // mirror: a daily run in a test never reaches the vendors (D193), with or without internet.
  const stack = await startLocalStack({ ...options, env: { ALLOW_PRIVATE_NETWORK: '1', LOG_LEVEL: 'debug', CRAWLER_ADDRESS_LISTS_URL: 'http://127.0.0.1:9/', ...env } });
  return {
    ...stack,
    logs,
    token: (orgId = 'acme', options = {}) => stack.idp.mint({ orgId, ...options }),
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.Authorization = `Bearer ${init.token}`;
      if (init.apiKey) headers['X-API-Key'] = init.apiKey;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(`${stack.api.url}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      // Every answer must match the published contract (docs/openapi.json).
      if (res.headers.get('content-type')?.includes('json')) assertMatchesContract(method, path, res.status, parsed);
      return { status: res.status, body: parsed, headers: res.headers };
    },
  };
}

/** The stack with one business registered through the API (`POST /api/business` as the org's user). */
export async function startTestStackWithBusiness(org: string, business: { name: string; url: string }, env: Record<string, string | undefined> = { LOG_LEVEL: 'warn' }): Promise<TestStack> {
  const stack = await startTestStack(env);
  const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: business });
  if (res.status !== 201) throw new Error(`registering ${org}: ${res.status} ${JSON.stringify(res.body)}`);
  return stack;
}
