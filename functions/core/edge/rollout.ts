/**
 * Edge-function rollout (issue 15; spec `update-edge-function`, Limits, Errors, Versioning):
 * the rules, without I/O.
 *
 * - The current edge-function version is stored data (`EDGE#CURRENT`: version ARN, the code's
 *   SHA-256, when and by which execution it was published), not a fixed setting. The
 *   `EDGE_FUNCTION_VERSION_ARN` setting is only the bootstrap: the version a deployment starts
 *   with until the first rollout stores one.
 * - A rollout publishes a new version only when the code changed (`needsPublish`): the code
 *   of the function's `$LATEST` (on AWS; the edge-function source locally) against the stored
 *   current version's code. The spec's "each call publishes a new version" and "calling
 *   again retries [the failed distributions]" cannot both hold; calling again must retry, so
 *   an unchanged code publishes nothing and the call moves only the distributions whose
 *   recorded version is not the current one (`needsMove`): after a partial failure that is
 *   exactly the failed ones; after a full success it is none.
 * - Distributions move in batches of `EDGE_UPDATE_BATCH_SIZE` (10) with
 *   `EDGE_UPDATE_BATCH_PAUSE_SECONDS` (1 s) between batches (not before the first, not after
 *   the last). A distribution that fails keeps its old version and is listed in
 *   `failed_details`; the response `status` stays `success` (spec, Errors).
 */
import { EDGE_UPDATE_BATCH_SIZE } from '../constants';

/** The edge function's current version, as stored. */
export interface EdgeVersion {
  /** The numbered version CloudFront associates (`arn:aws:lambda:us-east-1:<acct>:function:<name>:<n>`; `local:edge-function:<n>` locally). */
  versionArn: string;
  /** SHA-256 of the version's code (base64 as Lambda reports it; hex locally); null when not known (a bootstrap setting not yet looked at). */
  codeSha256: string | null;
  /** The version number. */
  version: string;
  publishedAt: string;
  /** The rollout execution that published (or adopted) it; null for a bootstrap version. */
  publishedBy: string | null;
}

/** One distribution to move, as planned. */
export interface RolloutItem {
  org_slug: string;
  distribution_id: string;
  /** The version recorded on the AI-site record before the move (null: none recorded). */
  from: string | null;
}

/** The spec's `failed_details` item. */
export interface FailedDistribution {
  distribution_id: string;
  status: 'error';
  error: string;
}

/** The outcome of one batch (stored per batch by the move task). */
export interface BatchOutcome {
  batch: number;
  started_at: string;
  finished_at: string;
  /** Distribution ids moved (or found already on the version). */
  moved: string[];
  failed: FailedDistribution[];
}

/** The spec's update-edge-function response, plus what this call did. */
export interface RolloutResponse {
  status: 'success';
  edge_function_arn: string;
  /** True when this call published a new version (the code changed). */
  published: boolean;
  distributions: {
    total: number;
    successful: number;
    failed: number;
    failed_details: FailedDistribution[] | null;
  };
  /** Batches of 10 the distributions were moved in. */
  batches: number;
}

/** A numbered Lambda version in us-east-1 (what Lambda@Edge accepts). */
export const LAMBDA_VERSION_ARN = /^(arn:aws[a-z-]*:lambda:us-east-1:\d{12}:function:[A-Za-z0-9_-]+):(\d+)$/;
/** A version of the local stand-in. */
const LOCAL_VERSION_ARN = /^local:edge-function:(\d+)$/;

export const localVersionArn = (version: number): string => `local:edge-function:${version}`;

/** The function ARN without its version (`…:function:<name>`), or null when `versionArn` is not a numbered us-east-1 version. */
export function unversionedFunctionArn(versionArn: string): string | null {
  return LAMBDA_VERSION_ARN.exec(versionArn.trim())?.[1] ?? null;
}

/** The version number of a Lambda or local version ARN, or null. */
export function versionNumberOf(versionArn: string): string | null {
  const arn = versionArn.trim();
  return LAMBDA_VERSION_ARN.exec(arn)?.[2] ?? LOCAL_VERSION_ARN.exec(arn)?.[1] ?? null;
}

/** Whether the code of `$LATEST` differs from the current version's (no current version, or its code unknown: publish). */
export function needsPublish(current: Pick<EdgeVersion, 'codeSha256'> | null, latestCodeSha256: string): boolean {
  return !current || !current.codeSha256 || current.codeSha256 !== latestCodeSha256;
}

/** Whether a distribution recorded on `recorded` must move to `current`. */
export const needsMove = (recorded: string | null | undefined, current: string): boolean => (recorded ?? null) !== current;

/** How many batches `total` distributions take. */
export const batchCount = (total: number, size = EDGE_UPDATE_BATCH_SIZE): number => Math.ceil(Math.max(0, total) / size);

/** The items of batch `index` (0-based). */
export function batchOf<T>(items: readonly T[], index: number, size = EDGE_UPDATE_BATCH_SIZE): T[] {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`batch index must be a whole number of 0 or more, got ${index}`);
  return items.slice(index * size, index * size + size);
}

/** The response of a finished rollout from its plan and its batches (in any order; each counted once). */
export function rolloutResponse(plan: { edge_function_arn: string; published: boolean; total: number }, batches: readonly BatchOutcome[]): RolloutResponse {
  const byIndex = new Map<number, BatchOutcome>();
  for (const b of batches) byIndex.set(b.batch, b);
  const ordered = [...byIndex.values()].sort((a, b) => a.batch - b.batch);
  const successful = ordered.reduce((n, b) => n + b.moved.length, 0);
  const failedDetails = ordered.flatMap((b) => b.failed);
  return {
    status: 'success',
    edge_function_arn: plan.edge_function_arn,
    published: plan.published,
    distributions: {
      total: plan.total,
      successful,
      failed: failedDetails.length,
      failed_details: failedDetails.length ? failedDetails : null,
    },
    batches: ordered.length,
  };
}
