/**
 * One visibility check: one sampled prompt asked on one platform on one day, with the
 * answer, its citations and labels kept, so every score can be traced to the answers
 * behind it (issue 11 item 7; retention: CHECK_RETENTION_DAYS).
 */
import type { PlatformKey } from '../constants';
import type { AnswerVerdict, PlatformAnswer, PlatformFailure } from './platform-answer';

/** Per-check records (answers and labels) are kept this long, then expire (D119). */
export const CHECK_RETENTION_DAYS = 90;

/** The day's sample (D31): 10 prompts of the business, any of its entities. */
export interface SampledPrompt {
  prompt_id: string;
  prompt: string;
  entity_id: string;
  /** Product slug; null for the business entity. */
  product_id: string | null;
  /** Whether the prompt had never been tested when it was sampled. */
  was_untested: boolean;
}

export interface VisibilitySample {
  org_slug: string;
  run_date: string;
  prompts: SampledPrompt[];
  created_at: string;
}

/**
 * `queued`: kept for the platform's vendor batch of the day (issue 47), not sent yet;
 * `submitted`: in a vendor batch whose results are not in yet. Neither has a result, and a
 * day with either has no score yet.
 */
export type CheckStatus = 'checked' | PlatformFailure['kind'] | 'queued' | 'submitted';

/** A check waiting for its vendor batch. */
export const isBatchPending = (check: Pick<VisibilityCheck, 'status'>): boolean => check.status === 'queued' || check.status === 'submitted';

export interface CheckAnswer {
  text: string;
  /** Cited: the URLs the answer itself cites (PlatformAnswer.citations); the only ones counted. */
  citations: string[];
  /**
   * Retrieved: what the platform's search step returned that the answer does not cite,
   * shown beside the citations, never counted. Absent on records written before it was kept.
   */
  retrieved?: string[];
  /** Link → source host for links that do not show their source (PlatformAnswer.sourceHosts). */
  source_hosts?: Record<string, string>;
  model: string | null;
  latency_ms: number;
  cost_units: number;
  cost_unit: string;
  obtained_via: string;
}

export interface CheckVerdict {
  mentioned: boolean;
  recommended: boolean;
  competitors_mentioned: string[];
  citations: AnswerVerdict['citations'];
  by: AnswerVerdict['by'];
}

export interface VisibilityCheck {
  org_slug: string;
  run_date: string;
  prompt_id: string;
  prompt: string;
  entity_id: string;
  product_id: string | null;
  platform: PlatformKey;
  /** The spec's cell: mentioned or recommended; null when the platform gave no answer (D30). */
  result: boolean | null;
  status: CheckStatus;
  /** Why there is no result (unconfigured, failed after retries, budget, no answer). */
  reason: string | null;
  answer: CheckAnswer | null;
  verdict: CheckVerdict | null;
  /** With a judge: whether the deterministic matcher reached the same boolean; null without a judge. */
  matcher_agrees: boolean | null;
  /** The judge failed for this answer and the matcher decided. */
  judge_error: string | null;
  checked_at: string;
  /** A check asked through a vendor batch: the batch job and the id the vendor returns it under. */
  batch?: { job_id: string; custom_id: string };
}

/** The stored answer of a check: what the platform answered, cited and retrieved apart. */
export function checkAnswerOf(answer: PlatformAnswer): CheckAnswer {
  return {
    text: answer.text,
    citations: answer.citations,
    retrieved: answer.retrieved ?? [],
    ...(answer.sourceHosts && Object.keys(answer.sourceHosts).length ? { source_hosts: answer.sourceHosts } : {}),
    model: answer.model,
    latency_ms: answer.latencyMs,
    cost_units: answer.costUnits,
    cost_unit: answer.costUnit,
    obtained_via: answer.obtainedVia,
  };
}
