/**
 * One invocation of a workflow step at a time (D233, D234, D237, D238). Step Functions delivers a
 * task at least once, so two invocations of one step of one execution can overlap; a step that
 * counts before it adds (a prompt top-up), or calls out before it records (an ACME order, a new
 * distribution), would then do it twice. The invocation claims the step with a conditional
 * write that holds past the task Lambdas' timeout, so it holds while the invocation may run,
 * and expires when Lambda ended it without a release.
 */
import { randomUUID } from 'node:crypto';
import { StepClaimedError } from '../core/errors';
import { TASK_TIMEOUT_SECONDS } from '../core/workflows';
import type { Container } from '../container';
import { createLogger } from '../logger';
import type { StepClaims } from '../ports';

const log = createLogger({ component: 'step-claim' });

const STEP_CLAIM_MS = (TASK_TIMEOUT_SECONDS + 60) * 1000;
/**
 * How long a copy waits for the holder's outcome before it asks to be asked again: well within
 * the shortest task timeout that runs under a claim (CheckVerification, 60 s), and short enough
 * that the invocation which takes the step over is a fresh one with its whole timeout ahead.
 */
const COPY_WAIT_MS = 20_000;
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
 * This invocation's claim on `step`, or what the invocation that holds it recorded (`settled`,
 * read after the claim and then every second): a copy delivered meanwhile does no work. A copy
 * that sees nothing settled within `waitMs` throws StepClaimed, which the state machine retries;
 * the step is only ever taken at the start of an invocation (after the holder failed, or its
 * claim expired), never late in one.
 */
export async function claimOrAwait<T>(
  container: Container, claims: StepClaims, scope: string, executionId: string, step: string, settled: () => Promise<T | null>,
  { waitMs = COPY_WAIT_MS }: { waitMs?: number } = {},
): Promise<{ settled: T } | { release: () => Promise<void> }> {
  const release = await claimStep(container, claims, scope, executionId, step);
  if (release) {
    // Read after the claim: what a holder that finished just before is kept.
    const done = await settled().catch(async (err: unknown) => { await release(); throw err; });
    if (done === null) return { release };
    await release();
    return { settled: done };
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    const done = await settled();
    if (done !== null) return { settled: done };
    if (Date.now() >= deadline) {
      throw new StepClaimedError(`step ${step} of ${scope} is running in another invocation of ${executionId}; asked again until it ends`);
    }
    await sleep(COPY_POLL_MS);
  }
}

/**
 * `work` under this invocation's claim on `step`, the claim released when it ends; or, when the
 * step is settled (by an earlier delivery, or by the holder while this copy waited), that.
 */
export async function runClaimed<T, R>(
  container: Container, claims: StepClaims, scope: string, executionId: string, step: string, settled: () => Promise<T | null>, work: () => Promise<R>,
): Promise<{ settled: T } | { result: R }> {
  const claim = await claimOrAwait(container, claims, scope, executionId, step, settled);
  if ('settled' in claim) return claim;
  try {
    return { result: await work() };
  } finally {
    await claim.release();
  }
}
