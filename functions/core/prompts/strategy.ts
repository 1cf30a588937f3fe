/**
 * The prompt strategy (spec: "Prompt strategy", Limits; D9): how many prompts an entity
 * gets, and which candidate prompts may be tracked at all. Pure: no I/O.
 *
 * A tracked prompt must never name the business: the visibility check asks whether an AI
 * recommends the business unprompted, so a prompt that already names it proves nothing.
 */
import { ONBOARDING_PROMPTS_MIN_TOTAL, ONBOARDING_PROMPTS_PER_PRODUCT } from '../constants';
import { promptIdentity } from './prompt-identity';
import { figuresOf, validatePrompt } from './prompt-quality';
import { containsBusinessName, replaceNames } from '../text/name-match';

/**
 * Onboarding prompts per product: 5 by default, raised to ceil(50 / n) when fewer than 10
 * products would not reach 50 in total (so the total is always at least 50). 0 products → 0.
 */
export function onboardingProductPromptCounts(productCount: number): number {
  const n = Math.floor(productCount);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.max(ONBOARDING_PROMPTS_PER_PRODUCT, Math.ceil(ONBOARDING_PROMPTS_MIN_TOTAL / n));
}

// ---------------------------------------------------------------------------------------
// Filtering candidates
// ---------------------------------------------------------------------------------------

export const PROMPT_MIN_LENGTH = 12;
export const PROMPT_MAX_LENGTH = 200;

const QUESTION_START = /^(what|what's|whats|where|which|who|whose|how|why|when|is|are|can|could|should|would|do|does|did|will|any|recommend)\b/i;
const QUERY_START = /^(best|top|cheap|cheapest|affordable|good|great|recommended|buy|shop|find|compare|where to|places to|stores? (that|to|with|for|selling))\b/i;

export type RejectReason =
  | 'empty' | 'too short' | 'too long' | 'malformed' | 'names the business' | 'names an excluded brand' | 'not a query'
  | 'contains a link' | 'duplicate' | 'repeats a figure' | 'over the limit';

export interface FilterOptions {
  businessName: string;
  /**
   * Prompts already tracked (or already chosen) for the business, on any entity:
   * candidates with the same `promptIdentity` as one of them are dropped.
   */
  existing?: readonly string[];
  /** At most this many are returned. */
  limit: number;
  /** Other names that must not appear: the store's product lines, a product's brand-specific name. */
  excludeNames?: readonly string[];
  minLength?: number;
  maxLength?: number;
  /**
   * The most prompts (of everything this gate accepts) that may state one numeric figure
   * ("6mm", "$100"); unlimited when absent. See `figureCap`.
   */
  maxPerFigure?: number;
}

export interface FilterResult {
  accepted: string[];
  rejected: Array<{ prompt: string; reason: RejectReason }>;
}

/** Share of a business's prompts one numeric figure may appear in (the issue: 265 of 305 said "6mm"). */
export const FIGURE_SHARE = 0.15;

/** How many prompts of `total` may state one figure: 15%, at least 2. */
export function figureCap(total: number): number {
  return Math.max(2, Math.floor(Math.max(0, total) * FIGURE_SHARE));
}

/** Trims list markers, quotes and spacing a model or a template may leave. */
export function cleanPrompt(candidate: string): string {
  let s = candidate.normalize('NFKC').replace(/\s+/g, ' ').trim();
  s = s.replace(/^(?:[-*•]\s+|\d{1,3}[.)]\s+)/, '');
  s = s.replace(/^["'“‘]+|["'”’]+$/g, '').trim();
  s = s.replace(/\s+([?!.,])/g, '$1');
  if (s && /^[a-z]/.test(s)) s = s.charAt(0).toUpperCase() + s.slice(1);
  return s;
}

/** A question, or a search-style query ("best decaf coffee under $20"); statements are not. */
function asQuery(prompt: string): string | null {
  if (/\?$/.test(prompt)) return prompt;
  if (/[.!:;]$/.test(prompt)) {
    // "What is the best coffee." is a question with the wrong mark; "We roast coffee." is not a query.
    const body = prompt.replace(/[.!:;]+$/, '');
    return QUESTION_START.test(body) ? `${body}?` : null;
  }
  if (QUESTION_START.test(prompt)) return `${prompt}?`;
  const words = prompt.split(' ').length;
  if (QUERY_START.test(prompt) && words >= 3 && words <= 20) return prompt;
  return null;
}

/** The text with each of the names it may say blanked out. */
function withoutNames(prompt: string, names: readonly string[]): string {
  return replaceNames(prompt, names, () => ' ');
}

/**
 * The one gate every candidate prompt of a business passes, whichever engine wrote it
 * (offline templates, a model, a search API). One gate per generation run keeps its
 * state across the business and all the products of that run, so:
 *
 * - a prompt is cleaned, must be a question or a natural search query, 12-200 characters,
 *   and pass `validatePrompt` (whole, grammatical: no cut-off ending, no doubled word, no
 *   unbalanced quotes, 4-28 words);
 * - it names neither the business (any variant) nor an excluded name (product lines,
 *   brand-like vendors, branded product names), nor carries a link;
 * - it is unique within the business by `promptIdentity` (D33): against `existing` (every
 *   prompt tracked for the business, on any entity) and everything the gate accepted
 *   before — a prompt fitting several products is kept once, for the first;
 * - no numeric figure appears in more than `maxPerFigure` accepted prompts.
 */
export class PromptGate {
  private readonly seen: Set<string>;
  private readonly figures = new Map<string, number>();
  constructor(private readonly options: Omit<FilterOptions, 'limit'>) {
    this.seen = new Set((options.existing ?? []).map(promptIdentity));
  }

  /** The cleaned prompt, or why it may not be tracked; nothing is recorded. */
  /**
   * `sayable`: names the prompt may say although an excluded name is part of them (a product's
   * own full name with its product line, D213); an excluded name anywhere else still refuses it.
   */
  check(candidate: unknown, excludeNames: readonly string[] = [], sayable: readonly string[] = []): { prompt: string } | { reason: RejectReason } {
    const minLength = this.options.minLength ?? PROMPT_MIN_LENGTH;
    const maxLength = this.options.maxLength ?? PROMPT_MAX_LENGTH;
    if (typeof candidate !== 'string') return { reason: 'empty' };
    const cleaned = cleanPrompt(candidate);
    if (!cleaned) return { reason: 'empty' };
    const prompt = asQuery(cleaned);
    if (!prompt) return { reason: 'not a query' };
    if (prompt.length < minLength) return { reason: 'too short' };
    if (prompt.length > maxLength) return { reason: 'too long' };
    if (/https?:\/\/|www\.|\b[\w-]+\.(com|net|org|io|co|shop|store|example)\b|@/i.test(prompt)) return { reason: 'contains a link' };
    if (containsBusinessName(prompt, this.options.businessName)) return { reason: 'names the business' };
    const names = [...(this.options.excludeNames ?? []), ...excludeNames];
    const rest = withoutNames(prompt, sayable);
    if (/\{\{|\}\}/.test(prompt) || names.some((n) => containsBusinessName(rest, n))) return { reason: 'names an excluded brand' };
    if (validatePrompt(prompt)) return { reason: 'malformed' };
    if (this.seen.has(promptIdentity(prompt))) return { reason: 'duplicate' };
    const cap = this.options.maxPerFigure;
    // A figure inside a product's own name ("Tidal Camp Mug 4") is part of the name, not a claim repeated across the run.
    if (cap !== undefined && figuresOf(rest).some((f) => (this.figures.get(f) ?? 0) >= cap)) return { reason: 'repeats a figure' };
    return { prompt };
  }

  /** Records an accepted prompt (its identity, and its figures outside the names it may say). */
  accept(prompt: string, sayable: readonly string[] = []): void {
    this.seen.add(promptIdentity(prompt));
    for (const f of figuresOf(withoutNames(prompt, sayable))) this.figures.set(f, (this.figures.get(f) ?? 0) + 1);
  }

  /** Whether a prompt with this identity is tracked or accepted already. */
  has(prompt: string): boolean {
    return this.seen.has(promptIdentity(prompt));
  }

  /** Up to `limit` of the candidates, in input order, with the rejected ones and why. */
  take(candidates: readonly unknown[], limit: number, excludeNames: readonly string[] = [], sayable: readonly string[] = []): FilterResult {
    const accepted: string[] = [];
    const rejected: FilterResult['rejected'] = [];
    const max = Math.max(0, Math.floor(limit));
    for (const candidate of candidates) {
      const r = this.check(candidate, excludeNames, sayable);
      if ('reason' in r) { rejected.push({ prompt: String(candidate), reason: r.reason }); continue; }
      if (accepted.length >= max) { rejected.push({ prompt: String(candidate), reason: 'over the limit' }); continue; }
      this.accept(r.prompt, sayable);
      accepted.push(r.prompt);
    }
    return { accepted, rejected };
  }
}

/** The candidates that may be tracked (a one-off `PromptGate`): see `PromptGate` for the rules. */
export function filterPromptsDetailed(candidates: readonly string[], options: FilterOptions): FilterResult {
  return new PromptGate(options).take(candidates, options.limit);
}

export function filterPrompts(candidates: readonly string[], options: FilterOptions): string[] {
  return filterPromptsDetailed(candidates, options).accepted;
}
