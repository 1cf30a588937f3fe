/**
 * Contracts of the edge-function rollout (issue 15): where the current version and the
 * distributions' attached versions are stored, and what publishes a version.
 * Implementations: adapters/dynamodb/edge-version-repo.ts, adapters/aws/lambda-edge-publisher.ts
 * (Lambda in us-east-1) and adapters/local/local-edge-publisher.ts (the edge-function source).
 */
import type { EdgeVersion } from './rollout';

/** A distribution and the version its AI-site record says is attached. */
export interface DistributionEdgeState {
  orgSlug: string;
  distributionId: string;
  /** Null: none recorded (created before versions were recorded). */
  versionArn: string | null;
}

/** The one-at-a-time lease of rollouts. */
export interface RolloutLease {
  executionId: string;
  acquiredAt: string;
  /** ISO; after it the lease may be taken over whatever its execution's state. */
  expiresAt: string;
}

export interface EdgeVersionRepository {
  current(): Promise<EdgeVersion | null>;
  /**
   * Stores `next` as the current version, unless another writer changed it since `previousArn`
   * was read (null: there was none); returns the version that is current afterwards.
   */
  saveCurrent(next: EdgeVersion, previousArn: string | null): Promise<EdgeVersion>;
  /** The distributions (with their recorded versions) of these organizations; organizations without one are left out. */
  distributionsOf(orgSlugs: readonly string[]): Promise<DistributionEdgeState[]>;
  /**
   * Records `versionArn` as attached to the organization's distribution (its AI-site record),
   * unless the record names another distribution by now; false then.
   */
  recordAttached(orgSlug: string, distributionId: string, versionArn: string | null, at: string): Promise<boolean>;
  /** Local stand-in only: the next local version number (1, 2, ...), counted in the table. */
  nextLocalVersion(): Promise<number>;
  lease(): Promise<RolloutLease | null>;
  /**
   * Takes the lease for `executionId` when it is free (none, or expired), or when it is
   * held by `takeOverFrom` (a holder whose execution is known to have ended). False when
   * another holder has it.
   */
  acquireLease(executionId: string, now: Date, expiresAt: Date, takeOverFrom?: string): Promise<boolean>;
  /** Lets go of the lease if `executionId` holds it (idempotent). */
  releaseLease(executionId: string): Promise<void>;
}

/** The code of the edge function and its published versions. */
export interface EdgeFunctionPublisher {
  /** The code of what would be published now (`$LATEST` on AWS; the edge-function source locally). */
  latestCodeSha256(): Promise<string>;
  /** The code of a published version; null when it cannot be told (locally: versions keep no code). */
  versionCodeSha256(versionArn: string): Promise<string | null>;
  /**
   * Publishes the code whose hash is `codeSha256` as a new numbered version (on AWS the publish
   * fails when `$LATEST` changed since it was looked at). `description` names the rollout.
   */
  publish(codeSha256: string, description: string): Promise<{ versionArn: string; version: string; codeSha256: string }>;
}
