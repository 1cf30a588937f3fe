/**
 * The edge-function rollout's steps (issue 15; state-machines/edge-rollout.asl.json, rules in
 * core/edge/rollout.ts):
 *
 * 1. `planEdgeRollout` (PlanEdgeRollout): compares the code that would be published now with
 *    the stored current version's and publishes a new version only when it differs (a
 *    deployment's first rollout adopts the bootstrap EDGE_FUNCTION_VERSION_ARN when that
 *    version already has the code); then lists every distribution whose recorded version is
 *    not the current one (all businesses, 100 at a time) and stores that list as the plan
 *    (an artifact: 1,000 distributions would crowd the state machine's 256 KB payload).
 * 2. `moveEdgeBatch` (MoveEdgeBatch), once per batch of 10, with a Wait of
 *    `pause_seconds` (EDGE_ROLLOUT_PAUSE_SECONDS, 1 s) between batches: moves the batch's
 *    distributions side by side; each one that moved gets the version recorded on its AI-site
 *    record; one that failed keeps its old version and record, and its error is kept in the
 *    batch's outcome (an artifact). Safe to run again: a distribution already on the version
 *    is not updated again.
 * 3. `finishEdgeRollout` (FinishEdgeRollout): the spec's response from the plan and the
 *    batches, stored for the route (D20), and the lease let go.
 *
 * A failure of a step itself (not of a distribution) ends the execution through
 * `recordEdgeRolloutFailure`: an error response (503 when no CDN is configured) and the lease
 * let go. What moved before it stays moved and recorded, so calling again goes on from there.
 */
import { artifactPath } from '../../core/artifacts';
import {
  batchCount, batchOf, needsMove, needsPublish, rolloutResponse, versionNumberOf,
  type BatchOutcome, type EdgeVersion, type FailedDistribution, type RolloutItem, type RolloutResponse,
} from '../../core/edge/rollout';
import type { EdgeFunctionPublisher, EdgeVersionRepository } from '../../core/edge/types';
import { ProviderNotConfiguredError } from '../../core/errors';
import type { Container } from '../../container';
import { CDN_NOT_CONFIGURED, cdnOf, edgeFunctionVersionArnOf } from '../../engines/cdn';
import { edgeVersionsOf } from '../../engines/edge-versions';
import { createLogger } from '../../logger';
import { EDGE_ROLLOUT_WORKFLOW } from './rollout-run';
import { caughtStatus, saveWorkflowResult, workflowErrorText } from '../workflow-results';

/** What the state machine carries between the steps (small: the plan itself is an artifact). */
export interface RolloutState {
  execution_id: string;
  edge_function_arn: string;
  published: boolean;
  total: number;
  /** The next batch to move (0-based). */
  batch: number;
  batch_count: number;
  pause_seconds: number;
}

export interface RolloutPlan {
  edge_function_arn: string;
  published: boolean;
  total: number;
  planned_at: string;
  items: RolloutItem[];
}

/** Businesses read per page while listing the distributions. */
const LISTING_PAGE = 100;

export const rolloutPlanKey = (executionId: string): string => artifactPath(`edge-rollout/${executionId}/plan`);
export const rolloutBatchKey = (executionId: string, batch: number): string => artifactPath(`edge-rollout/${executionId}/batch-${batch}`);

const errorText = (err: unknown): string => {
  const e = err as { name?: string; message?: string };
  const message = e?.message || String(err);
  return e?.name && e.name !== 'Error' && !message.startsWith(e.name) ? `${e.name}: ${message}` : message;
};

/** Step 1: the current version (published when the code changed) and the distributions to move. */
export async function planEdgeRollout(container: Container, executionId: string): Promise<RolloutState> {
  const cdn = cdnOf(container);
  if (cdn.kind === 'unconfigured') throw new ProviderNotConfiguredError(CDN_NOT_CONFIGURED);
  // A repeated delivery follows the plan the first one stored (D196): the same version, the
  // same distributions, even once batches have moved some of them.
  const planned = await container.artifacts.get<RolloutPlan>(rolloutPlanKey(executionId));
  if (planned) return firstBatchOf(container, executionId, planned);
  const versions = edgeVersionsOf(container);
  const { version, published } = await currentVersion(container, cdn.publisher, versions, executionId);
  const items = await distributionsToMove(container, versions, version.versionArn);
  const plan: RolloutPlan = { edge_function_arn: version.versionArn, published, total: items.length, planned_at: container.clock.now().toISOString(), items };
  await container.artifacts.put(rolloutPlanKey(executionId), plan);
  createLogger({ task: 'plan-edge-rollout', execution_id: executionId }).info('edge rollout planned', {
    edge_function_arn: version.versionArn, published, distributions: items.length,
  });
  return firstBatchOf(container, executionId, plan);
}

function firstBatchOf(container: Container, executionId: string, plan: RolloutPlan): RolloutState {
  return {
    execution_id: executionId,
    edge_function_arn: plan.edge_function_arn,
    published: plan.published,
    total: plan.total,
    batch: 0,
    batch_count: batchCount(plan.total),
    pause_seconds: container.config.cdn.rolloutPauseSeconds,
  };
}

/**
 * The version to roll out: the stored one while the code is unchanged, else a newly published
 * one, stored as current. Without a stored version, the bootstrap setting is adopted when its
 * code is the code of now. `published`: this call made a new version current.
 */
export async function currentVersion(container: Container, publisher: EdgeFunctionPublisher, versions: EdgeVersionRepository, executionId: string): Promise<{ version: EdgeVersion; published: boolean }> {
  const now = () => container.clock.now().toISOString();
  const latest = await publisher.latestCodeSha256();
  const stored = await versions.current();
  // Published by this execution already (a repeated delivery that stopped before its plan was stored): still its publish.
  if (stored && !needsPublish(stored, latest)) return { version: stored, published: stored.publishedBy === executionId };
  if (!stored) {
    const bootstrap = edgeFunctionVersionArnOf(container.config);
    const bootstrapCode = bootstrap ? await publisher.versionCodeSha256(bootstrap) : null;
    if (bootstrap && bootstrapCode && !needsPublish({ codeSha256: bootstrapCode }, latest)) {
      const adopted: EdgeVersion = { versionArn: bootstrap, codeSha256: bootstrapCode, version: versionNumberOf(bootstrap) ?? '', publishedAt: now(), publishedBy: null };
      return { version: await versions.saveCurrent(adopted, null), published: false };
    }
  }
  const made = await publisher.publish(latest, `ai-visibility edge rollout ${executionId}`);
  const next: EdgeVersion = { versionArn: made.versionArn, codeSha256: made.codeSha256, version: made.version, publishedAt: now(), publishedBy: executionId };
  const saved = await versions.saveCurrent(next, stored?.versionArn ?? null);
  return { version: saved, published: saved.versionArn !== stored?.versionArn };
}

/** Every distribution whose recorded version is not `versionArn`, by organization slug. */
async function distributionsToMove(container: Container, versions: EdgeVersionRepository, versionArn: string): Promise<RolloutItem[]> {
  const items: RolloutItem[] = [];
  let cursor: string | null = null;
  do {
    const page = await container.businessListing.list({ cursor, limit: LISTING_PAGE });
    const states = await versions.distributionsOf(page.businesses.map((b) => b.orgSlug));
    for (const s of states) {
      if (needsMove(s.versionArn, versionArn)) items.push({ org_slug: s.orgSlug, distribution_id: s.distributionId, from: s.versionArn });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

async function readPlan(container: Container, executionId: string): Promise<RolloutPlan> {
  const plan = await container.artifacts.get<RolloutPlan>(rolloutPlanKey(executionId));
  if (!plan) throw new Error(`no plan stored for edge rollout ${executionId}`);
  return plan;
}

/** Step 2: one batch; every distribution of it is tried, each failure is kept with its reason. */
export async function moveEdgeBatch(container: Container, executionId: string, batch: number): Promise<{ batch: number; moved: number; failed: number }> {
  // A repeated delivery of a batch that recorded its outcome moves nothing again (D196).
  const done = await container.artifacts.get<BatchOutcome>(rolloutBatchKey(executionId, batch));
  if (done) return { batch, moved: done.moved.length, failed: done.failed.length };
  const plan = await readPlan(container, executionId);
  const items = batchOf(plan.items, batch);
  const { gateway } = cdnOf(container);
  const versions = edgeVersionsOf(container);
  const log = createLogger({ task: 'move-edge-batch', execution_id: executionId, batch });
  const startedAt = container.clock.now().toISOString();
  const results = await Promise.all(items.map(async (item): Promise<{ moved: string } | { failed: FailedDistribution }> => {
    const fail = (error: string) => ({ failed: { distribution_id: item.distribution_id, status: 'error' as const, error } });
    try {
      await gateway.setEdgeFunction(item.distribution_id, plan.edge_function_arn);
    } catch (err) {
      log.warn('distribution not moved', { org: item.org_slug, distribution_id: item.distribution_id, error: errorText(err) });
      return fail(errorText(err));
    }
    try {
      const recorded = await versions.recordAttached(item.org_slug, item.distribution_id, plan.edge_function_arn, container.clock.now().toISOString());
      if (!recorded) return fail(`moved, but the AI-site record of ${item.org_slug} no longer names this distribution`);
    } catch (err) {
      // The distribution serves the new version; the next call finds the record behind and records it.
      return fail(`moved, but the version could not be recorded: ${errorText(err)}`);
    }
    return { moved: item.distribution_id };
  }));
  const outcome: BatchOutcome = {
    batch,
    started_at: startedAt,
    finished_at: container.clock.now().toISOString(),
    moved: results.flatMap((r) => ('moved' in r ? [r.moved] : [])),
    failed: results.flatMap((r) => ('failed' in r ? [r.failed] : [])),
  };
  await container.artifacts.put(rolloutBatchKey(executionId, batch), outcome);
  log.info('edge batch moved', { moved: outcome.moved.length, failed: outcome.failed.length });
  return { batch, moved: outcome.moved.length, failed: outcome.failed.length };
}

/** Step 3: the response from the plan and every batch, stored for the route; the lease let go. */
export async function finishEdgeRollout(container: Container, executionId: string): Promise<RolloutResponse> {
  const plan = await readPlan(container, executionId);
  const count = batchCount(plan.items.length);
  const batches = await Promise.all(Array.from({ length: count }, async (_, i) => {
    const outcome = await container.artifacts.get<BatchOutcome>(rolloutBatchKey(executionId, i));
    if (!outcome) throw new Error(`edge rollout ${executionId}: batch ${i} has no recorded outcome`);
    return outcome;
  }));
  const response = rolloutResponse(plan, batches);
  await saveWorkflowResult(container, EDGE_ROLLOUT_WORKFLOW, executionId, 200, response);
  await edgeVersionsOf(container).releaseLease(executionId);
  return response;
}

/** The Catch: an error response for the route and the read-back; the lease let go. */
export async function recordEdgeRolloutFailure(container: Container, executionId: string, error?: { Error?: string; Cause?: string }): Promise<{ http_status: number }> {
  const status = error?.Error === 'ProviderNotConfiguredError' ? 503 : caughtStatus(error);
  await saveWorkflowResult(container, EDGE_ROLLOUT_WORKFLOW, executionId, status, { status: 'error', error: `the edge-function rollout failed: ${workflowErrorText(error)}` });
  await edgeVersionsOf(container).releaseLease(executionId);
  return { http_status: status };
}
