/**
 * Step 3a holding its thread (synchronous work, as 3a's catalogue-wide figures are) until the
 * test releases it, then running for real. Loaded by path (a task override), so it runs
 * wherever the local runtime runs tasks. It signals `holding` and waits for `release` in
 * holdingDir(<the business>): a worker thread does not see what a test sets in process.env.
 * Released by nobody within HOLD_MS (on the API's own thread the test cannot run to release
 * it), it gives up, says so in `gave-up` and fails, so the test fails instead of hanging.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handler as generateOnboardingPrompts } from '../../../functions/tasks/generate-onboarding-prompts';

const HOLD_MS = 30_000;

export const holdingDir = (orgSlug: string): string => join(tmpdir(), 'aivis-holding-task', orgSlug);

export async function handler(payload: { org_slug: string; execution_id: string }): Promise<unknown> {
  const dir = holdingDir(payload.org_slug);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'holding'), '');
  const nap = new Int32Array(new SharedArrayBuffer(4));
  // Blocks the thread: no timer and no socket of this thread is served meanwhile.
  const until = Date.now() + HOLD_MS;
  while (!existsSync(join(dir, 'release'))) {
    if (Date.now() > until) {
      writeFileSync(join(dir, 'gave-up'), '');
      throw new Error('nobody released the holding task');
    }
    Atomics.wait(nap, 0, 0, 20);
  }
  return generateOnboardingPrompts(payload);
}
