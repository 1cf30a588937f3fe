/**
 * One invocation of a workflow step at a time (D233, D234). Step Functions delivers a task at
 * least once, so two invocations of one step of one run can overlap; a step that counts before
 * it adds (a prompt top-up) would then add twice. The invocation claims the step with a
 * conditional write that holds past the task Lambdas' timeout, so it holds while the
 * invocation may run, and expires when Lambda ended it without a release.
 */
import { randomUUID } from 'node:crypto';
import { TASK_TIMEOUT_SECONDS } from '../core/workflows';
import type { Container } from '../container';
import { createLogger } from '../logger';
import type { StepClaims } from '../ports';

const log = createLogger({ component: 'step-claim' });

export const STEP_CLAIM_MS = (TASK_TIMEOUT_SECONDS + 60) * 1000;

/** Claims `step` of the run for this invocation: the claim's release, or null while another invocation's claim is live. */
export async function claimStep(container: Container, claims: StepClaims, orgSlug: string, executionId: string, step: string): Promise<(() => Promise<void>) | null> {
  const token = randomUUID();
  const now = container.clock.now();
  if (!(await claims.claim(orgSlug, executionId, step, token, new Date(now.getTime() + STEP_CLAIM_MS).toISOString(), now.toISOString()))) return null;
  return () => claims.release(orgSlug, executionId, step, token).catch((err: Error) => {
    log.warn('could not release the step claim', { execution_id: executionId, step, error: { name: err.name, message: err.message } });
  });
}
