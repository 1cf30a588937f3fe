/**
 * The contract between the visibility engine (batch 2b) and the 8 AI platforms (spec:
 * "Platform keys"). A platform client asks one prompt the way that platform answers a
 * user (its native search included) and returns the answer as it came; deciding whether
 * the entity was mentioned is the judge's job (judge.ts), never the client's.
 */
import type { PlatformKey } from '../constants';

export interface PlatformAnswer {
  platform: PlatformKey;
  /** The answer text the platform showed (markdown/plain), never empty. */
  text: string;
  /**
   * Cited: the URLs the answer itself cites (its citations, annotations, the numbered sources
   * its text refers to), in the order the platform gave them, absolute, de-duplicated. Only
   * these count as the answer surfacing a site (mention, citation counts, share of voice).
   */
  citations: string[];
  /**
   * Retrieved: what the platform's search step returned that the answer does not cite
   * (search results the model saw), absolute, de-duplicated, none of `citations`. Stored and
   * shown beside the citations, never counted as one. Absent: the platform says nothing.
   */
  retrieved?: string[];
  /**
   * For links that do not show their source (the grounding redirects of platform_3): link →
   * the source's host as the vendor names it, to classify the link by. The link is kept.
   */
  sourceHosts?: Record<string, string>;
  /** Model or version the vendor reported for this answer; null when it reports none. */
  model: string | null;
  /** Wall time of the call that produced the answer (retries included), ms. */
  latencyMs: number;
  /**
   * What the call cost in the vendor's own billing units (tokens in+out, search requests,
   * SERP credits), summed; `costUnit` names the unit.
   */
  costUnits: number;
  costUnit: string;
  /** How the answer was obtained, e.g. `responses API + web_search tool`, `SERP ai_overview`. */
  obtainedVia: string;
}

/** Why a platform produced no answer for a prompt; the check stays `null` with this reason (D30). */
export interface PlatformFailure {
  platform: PlatformKey;
  /** `unconfigured`: no credentials; `failed`: error after retries; `budget`: daily budget spent; `no_answer`: the platform had nothing (e.g. no AI overview for that query). */
  kind: 'unconfigured' | 'failed' | 'budget' | 'no_answer';
  reason: string;
}

export type PlatformOutcome = { ok: true; answer: PlatformAnswer } | { ok: false; failure: PlatformFailure };

export interface PlatformClient {
  readonly platform: PlatformKey;
  /** Human label for logs and responses, vendor-neutral (e.g. "general chat assistant"). */
  readonly kind: string;
  /** Model configured (`PLATFORM_<n>_MODEL`), for responses and logs. */
  readonly model: string | null;
  /** Why the platform cannot be asked (names the missing setting); null when it is configured. */
  readonly unconfigured: string | null;
  /**
   * Asks one prompt. Retries 429/408/5xx/network errors with backoff inside; never throws
   * for a vendor or network error: returns `{ok: false}` with a reason that never carries
   * the key.
   */
  ask(prompt: string): Promise<PlatformOutcome>;
}

/** What the service knows about the entity whose visibility is checked (the judge's and matcher's input). */
export interface EntityIdentity {
  /** Business name as the store writes it. */
  name: string;
  /** Other names it goes by: brand/vendor names, product lines, the product name for a product entity. */
  aliases: string[];
  /** Hosts that belong to the entity: the store's, the custom domain, the AI site host. */
  domains: string[];
  /**
   * The hosts of the AI site we publish for the entity (also listed in `domains`, or not):
   * a citation of one is `ai_site`, of any other entity host `store`.
   */
  aiSiteDomains: string[];
  /** Product names of the business (bounded), so "the X mat from ..." counts. */
  productNames: string[];
  /** Known competitors: names and domains, to label the answer's other brands. */
  competitors: Array<{ name: string; domain: string | null }>;
}

export type CitationKind = 'store' | 'ai_site' | 'competitor' | 'other';

/** The evaluation of one answer for one entity. */
export interface AnswerVerdict {
  /** The entity (name, alias, domain or product) appears in the answer text or citations. */
  mentioned: boolean;
  /** The answer recommends the entity (lists it as an option to buy/use, ranks it). */
  recommended: boolean;
  /** Competitors the answer names, in order of first appearance (names as given in `competitors`, or as written when unknown). */
  competitorsMentioned: string[];
  /** Each cited URL with its kind, in the answer's order. */
  citations: Array<{ url: string; kind: CitationKind }>;
  /** Who decided: the judge model, or the deterministic matcher. */
  by: 'judge' | 'matcher';
}

/** The spec's boolean: "mentioned or recommended". */
export function checkResult(verdict: AnswerVerdict): boolean {
  return verdict.mentioned || verdict.recommended;
}
