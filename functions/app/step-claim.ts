/**
 * One invocation of a workflow step at a time (D233, D234, D237). Step Functions delivers a
 * task at least once, so two invocations of one step of one execution can overlap; a step that
 * counts before it adds (a prompt top-up), or calls out before it records (an ACME order, a new
 * distribution), would then do it twice. The invocation claims the step with a conditional
 * write that holds past the task Lambdas' timeout, so it holds while the invocation may run,
 * and expires when Lambda ended it without a release.
 */
import { randomUUID } from 'node:crypto';
import { UpstreamError } from '../core/errors';
import { TASK_TIMEOUT_SECONDS } from '../core/workflows';
import type { Container } from '../container';
import { createLogger } from '../logger';
import type { StepClaims } from '../ports';

const log = createLogger({ component: 'step-claim' });

const STEP_CLAIM_MS = (TASK_TIMEOUT_SECONDS + 60) * 1000;
/** How long a copy waits for the invocation that holds its step, within its own timeout; it looks again every COPY_POLL_MS. */
const COPY_WAIT_MS = (TASK_TIMEOUT_SECONDS - 30) * 1000;
const COPY_POLL_MS = 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Claims `step` of the run for this invocation: the claim's release, or null while another invocation's claim is live. */
export async function claimStep(container: Container, claims: StepClaims, scope: string, executionId: string, step: string): Promise<(() => Promise<void>) | null> {
  const token = randomUUID();
  const now = container.clock.now();
  if (!(await claims.claim(scope, executionId, step, token, new Date(now.getTime() + STEP_CLAIM_MS).toISOString(), now.toISOString()))) return null;
  return () => claims.release(scope, executionId, step, token).catch((err: Error) => {
    log.warn('could not release the step claim', { execution_id: executionId, step, error: { name: err.name, message: err.message } });
  });
}

/**
 * This invocation's claim on `step`, or what the invocation that held it left (`settled`: the
 * step's kept outcome, read after each try): a copy delivered meanwhile waits in its own
 * invocation and does no work. When the holder failed (its claim released, nothing settled)
 * the copy claims the step and runs it; still held after COPY_WAIT_MS, the copy fails with an
 * UpstreamError, which the state machine's Retry asks again.
 */
export async function claimOrAwait<T>(
  container: Container, claims: StepClaims, scope: string, executionId: string, step: string, settled: () => Promise<T | null>,
): Promise<{ settled: T } | { release: () => Promise<void> }> {
  const deadline = Date.now() + COPY_WAIT_MS;
  for (;;) {
    const release = await claimStep(container, claims, scope, executionId, step);
    // Read after the claim: what a holder that finished meanwhile left is kept.
    const done = await settled();
    if (done !== null) {
      await release?.();
      return { settled: done };
    }
    if (release) return { release };
    if (Date.now() >= deadline) throw new UpstreamError(`step ${step} of ${scope} is running in another invocation of ${executionId}; asked again until it ends`);
    await sleep(COPY_POLL_MS);
  }
}
