/**
 * Readiness (LOCAL_RUNTIME.md): `GET /health` answers 200 only once every part is ready, no
 * request is answered before, and nothing off Lambda ever falls back to a default container
 * (which would point the AWS SDK at real DynamoDB).
 */
import { createServer } from 'node:net';
import { loadConfig } from '../../functions/config';
import { buildContainer, getContainer, setContainer } from '../../functions/container';
import { startApiServer } from '../../functions/local/runtime/api-server';
import { startLocalStack } from '../../functions/local/runtime';

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

test('the API server answers nothing, /health included, until the stack is ready', async () => {
  let open!: () => void;
  const ready = new Promise<void>((resolve) => { open = resolve; });
  const api = await startApiServer({ ready });
  try {
    let answered = false;
    const health = fetch(`${api.url}/health`).then((res) => { answered = true; return res; });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    // What the runtime does once every part is up: install the container, then open.
    setContainer(buildContainer(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' })));
    open();
    expect((await health).status).toBe(200);
    setContainer(undefined);
  } finally {
    await api.close();
  }
});

test('a failed start-up answers 503 naming it, never a half-built 500', async () => {
  let fail!: (err: Error) => void;
  const ready = new Promise<void>((_resolve, reject) => { fail = reject; });
  ready.catch(() => undefined);
  const api = await startApiServer({ ready });
  try {
    const pending = fetch(`${api.url}/health`);
    fail(new Error('table could not be created'));
    const res = await pending;
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'error', error: 'the local stack failed to start: table could not be created' });
  } finally {
    await api.close();
  }
});

test('off Lambda, no container is ever built from defaults', () => {
  setContainer(undefined);
  const saved = { fn: process.env.AWS_LAMBDA_FUNCTION_NAME, db: process.env.DYNAMODB_ENDPOINT };
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  delete process.env.DYNAMODB_ENDPOINT;
  try {
    expect(() => getContainer()).toThrow(/no container is installed/);
  } finally {
    if (saved.fn !== undefined) process.env.AWS_LAMBDA_FUNCTION_NAME = saved.fn;
    if (saved.db !== undefined) process.env.DYNAMODB_ENDPOINT = saved.db;
  }
});

test('requests sent while the stack starts all wait for it: none fails', async () => {
  const port = await freePort();
  const starting = startLocalStack({ port, env: { ALLOW_PRIVATE_NETWORK: '1', LOG_LEVEL: 'error' } });
  const statuses: number[] = [];
  let stop = false;
  const poll = (async () => {
    while (!stop) {
      const res = await fetch(`http://127.0.0.1:${port}/api/cron/ai-articles-quota?org_slug=nobody`, { headers: { 'X-API-Key': 'dev-api-key-change-me' } }).catch(() => null);
      if (res) statuses.push(res.status);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const stack = await starting;
  try {
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop = true;
    await poll;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  } finally {
    await stack.close();
  }
});
