/**
 * The local runtime in a process of its own, to be killed with SIGKILL by a test
 * (test/e2e/daily-crash.test.ts): the stack on DATA_DIR, with one task replaced by the module
 * HANG_MODULE (HANG_TASK names it). Prints one JSON line `{"api": <url>}` once it serves.
 */
import { startLocalStack } from '../../functions/local/runtime';

async function main(): Promise<void> {
  const env = process.env;
  const stack = await startLocalStack({
    dataDir: env.DATA_DIR!,
    env: { ...env, ALLOW_PRIVATE_NETWORK: '1', LOG_LEVEL: 'error', CRAWLER_ADDRESS_LISTS_URL: 'http://127.0.0.1:9/' },
    workflows: { retryWithoutDelay: true, taskOverrides: env.HANG_TASK ? { [env.HANG_TASK]: env.HANG_MODULE! } : {} },
  });
  process.stdout.write(`${JSON.stringify({ api: stack.api.url })}\n`);
}

void main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
