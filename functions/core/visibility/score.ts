/**
 * Visibility score calculation for `POST /api/cron/store-visibility-score` and batch 2b
 * (spec: store-visibility-score, rules 1, 2, 4, 5; DECISIONS D16, D22, D30, D31; D117).
 *
 * PURE: no I/O, no environment, no clock. The caller passes `today` (UTC) and the
 * stored history, and persists what comes back.
 */
import {
  HISTORY_RETENTION_DAYS,
  PLATFORM_KEYS,
  SCORE_MAX,
  SCORE_MIN,
  SEEDED_HISTORY,
} from '../constants';
import { ValidationError } from '../errors';
import { changeSignal, rollingValue, wilsonInterval, type ChangeSignal, type DayCounts, type Interval, type RollingValue } from './statistics';

/** `null`: the platform produced no boolean that day (unconfigured or failed, D30). */
export type PlatformScores = Record<`platform_${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}_score`, number | null>;

export interface HistoryEntry {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** Integer 0-100: the spec's score, floor rule applied. */
  score: number;
  /** Per-platform scores of that day; `{}` for the seeded entries. */
  platforms: Partial<PlatformScores>;
  /** One of the spec's two seeded days (no checks behind it); absent on measured days and on seeds written before D216. */
  seeded?: true;
  /**
   * Beside the spec's fields (D118), absent on seeded entries and on entries written
   * before they existed: the checks behind the score and how noisy it is.
   */
  n?: number;
  true_count?: number;
  /** Unfloored percent, one decimal. */
  raw_score?: number;
  /** 95% Wilson interval of the raw score. */
  interval?: Interval;
  rolling_7?: RollingValue | null;
  rolling_28?: RollingValue | null;
  /** Today against the 7 days before: flagged only beyond noise. */
  change?: ChangeSignal;
}

/** One prompt's results: a boolean per platform that answered, `null` where none did (D30). */
export type CheckResult = { prompt: string } & Record<(typeof PLATFORM_KEYS)[number], boolean | null>;

export interface ScoreUpdateInput {
  /** Stored history, oldest first. `null` or `[]` = the entity was never scored. */
  history: HistoryEntry[] | null;
  results: CheckResult[];
  /** Date of the new entry: the request's `backdate_to`, or `today`. */
  entryDate: string;
  /** Current date, YYYY-MM-DD, UTC. */
  today: string;
}

export interface ScoreUpdate {
  /** Final integer score 0-100 (after rounding and the floor rule). */
  overallScore: number;
  /** Unrounded `total_true / checks_done * 100` (`prompts * 8` when every platform answered). */
  rawScore: number;
  totalTrue: number;
  /** Booleans among the results: the denominator (D30). */
  checksDone: number;
  promptsAnalyzed: number;
  platformScores: PlatformScores;
  /** True when the floor rule triggered (rounded score <= min_historical). */
  floorApplied: boolean;
  /** True when this was the first calculation and the two seed entries were added. */
  seeded: boolean;
  /** The complete new history: oldest first, pruned to the retention window. */
  history: HistoryEntry[];
  /** Value for `recent_score` (see computeScoreUpdate). */
  recentScore: number;
  /** The entry written (also in `history`). */
  entry: HistoryEntry;
  /** True when an entry of the same date was replaced (a re-run, D31). */
  replaced: boolean;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const MS_PER_DAY = 86_400_000;

/** Milliseconds since the epoch of a real YYYY-MM-DD calendar date (UTC), or null. */
export function parseIsoDate(date: unknown): number | null {
  if (typeof date !== 'string') return null;
  const m = DATE_RE.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear keeps the literal year.
  back.setUTCFullYear(y);
  const fixed = back.getTime();
  const check = new Date(fixed);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    return null; // e.g. 2026-02-30 or 2026-13-01
  }
  return fixed;
}

export function formatIsoDate(ms: number): string {
  const d = new Date(ms);
  const y = String(d.getUTCFullYear()).padStart(4, '0');
  const mo = String(d.getUTCMonth() + 1).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, '0');
  return `${y}-${mo}-${day}`;
}

/**
 * YYYY-MM-DD arithmetic in UTC (no DST, no local time zone).
 * Throws RangeError on a malformed date or a non-integer day count: both are
 * programming errors, not user input.
 */
export function addDays(date: string, days: number): string {
  const ms = parseIsoDate(date);
  if (ms === null) throw new RangeError(`addDays: not a YYYY-MM-DD calendar date: ${String(date)}`);
  if (!Number.isInteger(days)) throw new RangeError(`addDays: days must be an integer, got ${days}`);
  return formatIsoDate(ms + days * MS_PER_DAY);
}

function validate(input: ScoreUpdateInput): void {
  const { results, entryDate, today } = input;
  if (parseIsoDate(today) === null) {
    // `today` comes from the server clock, never from the request.
    throw new RangeError(`today must be a YYYY-MM-DD calendar date, got ${String(today)}`);
  }
  if (!Array.isArray(results) || results.length === 0) {
    throw new ValidationError('results must contain at least one item');
  }
  results.forEach((r, i) => {
    if (r === null || typeof r !== 'object') {
      throw new ValidationError(`results[${i}] must be an object`);
    }
    if (typeof r.prompt !== 'string') {
      throw new ValidationError(`results[${i}].prompt must be a string`);
    }
    for (const key of PLATFORM_KEYS) {
      if (typeof r[key] !== 'boolean' && r[key] !== null) {
        throw new ValidationError(`results[${i}].${key} must be true, false or null`);
      }
    }
  });
  if (!results.some((r) => PLATFORM_KEYS.some((k) => typeof r[k] === 'boolean'))) {
    throw new ValidationError('results hold no check: every platform is null (unconfigured is not false, D30), so no score can be stored');
  }
  if (parseIsoDate(entryDate) === null) {
    throw new ValidationError('backdate_to must be a valid calendar date in the form YYYY-MM-DD');
  }
  // Plain string comparison is chronological for valid YYYY-MM-DD dates.
  if (entryDate > today) {
    throw new ValidationError('backdate_to must not be in the future');
  }
  if (entryDate <= retentionCutoff(today)) {
    throw new ValidationError(
      `backdate_to is older than the ${HISTORY_RETENTION_DAYS}-day history retention`,
    );
  }
}

/**
 * Entries dated on or before this day are dropped: the history keeps the 365 days
 * ending today (today-364 .. today).
 */
function retentionCutoff(today: string): string {
  return addDays(today, -HISTORY_RETENTION_DAYS);
}

function clampScore(n: number): number {
  return Math.min(SCORE_MAX, Math.max(SCORE_MIN, n));
}

/** Insert keeping date order (the history holds no entry of that date any more). */
function insertByDate(history: HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  let at = history.length;
  while (at > 0 && history[at - 1]!.date > entry.date) at--;
  return [...history.slice(0, at), entry, ...history.slice(at)];
}

const byDate = (a: HistoryEntry, b: HistoryEntry) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/** The counts of the entries that carry them (seeded and older entries do not). */
function dayCounts(history: readonly HistoryEntry[]): DayCounts[] {
  return history.filter((e) => typeof e.n === 'number' && typeof e.true_count === 'number').map((e) => ({ date: e.date, n: e.n!, trues: e.true_count! }));
}

/**
 * Rules (spec store-visibility-score; D16, D30, D31):
 * - Only booleans are checks (D30): raw = total_true / checks_done * 100, computed as
 *   (total_true * 100) / checks_done so that exact halves (e.g. 12.5) stay exact before
 *   rounding; checks_done = prompts * 8 when every platform answered.
 * - The raw score is rounded to an integer first (Math.round, halves up); the floor
 *   rule is applied to the rounded value.
 * - One entry per entity per date (D31): an entry of the same date is replaced, and the
 *   floor ignores it (a re-run is not floored against its own earlier result).
 * - Floor: min_historical = minimum non-zero score in the history *before* this entry
 *   (seeded entries included, entries outside the retention window included since they
 *   are only pruned when this result is written). If it exists and
 *   rounded <= min_historical, final = min(min_historical + 1, 100). Else final = rounded.
 * - First calculation (history null/[]): seed entryDate-2 → 0 and entryDate-1 → 35,
 *   then apply the floor against them (first raw 20 → 36; 80 → 80).
 * - platform_k_score = round(100 * trues_k / booleans_k); null when platform k has no
 *   boolean in the results.
 * - Beside the spec's fields (D118): n, true_count, raw_score, a 95% Wilson interval, the
 *   pooled 7- and 28-day values ending on the entry's date, and the change against the
 *   7 days before, flagged only beyond noise.
 * - Only entries with date > today - 365 days are kept.
 * - recentScore is the score of the NEWEST-DATED entry after insertion, not necessarily
 *   the entry just written: a backdated entry does not overwrite a newer `recent_score`.
 */
const isSeed = (entry: HistoryEntry): boolean => entry.seeded === true;

/** The spec's seeded history: day -2 scored 0 and day -1 scored 35, before `date`. */
function seedsBefore(date: string): HistoryEntry[] {
  return SEEDED_HISTORY.map((s) => ({ date: addDays(date, -s.daysBefore), score: s.score, platforms: {}, seeded: true as const }));
}

export function computeScoreUpdate(input: ScoreUpdateInput): ScoreUpdate {
  validate(input);
  const { results, entryDate, today } = input;

  const promptsAnalyzed = results.length;
  const trues = PLATFORM_KEYS.map((key) => results.filter((r) => r[key] === true).length);
  const answered = PLATFORM_KEYS.map((key) => results.filter((r) => typeof r[key] === 'boolean').length);
  const totalTrue = trues.reduce((a, b) => a + b, 0);
  const checksDone = answered.reduce((a, b) => a + b, 0);
  const rawScore = (totalTrue * 100) / checksDone;
  const rounded = clampScore(Math.round(rawScore));

  const platformScores = {} as PlatformScores;
  PLATFORM_KEYS.forEach((key, i) => {
    platformScores[`${key}_score`] = answered[i] ? clampScore(Math.round((100 * trues[i]!) / answered[i]!)) : null;
  });

  const stored = [...(input.history ?? [])].sort(byDate); // stable: tolerates unsorted stored history
  const replaced = stored.some((e) => e.date === entryDate && !isSeed(e));
  const others = stored.filter((e) => e.date !== entryDate);
  const seeded = stored.length === 0;
  // The seeds stand for the days before the first measured day, whichever score commits first:
  // a score for an earlier day (concurrent first scores, a backdate) moves them before it (D216).
  const measured = others.filter((e) => !isSeed(e));
  const firstDay = [entryDate, ...measured.map((e) => e.date)].sort()[0]!;
  const base: HistoryEntry[] = seeded || others.some(isSeed) ? [...seedsBefore(firstDay), ...measured].sort(byDate) : others;

  const nonZero = base.map((e) => e.score).filter((s) => typeof s === 'number' && s !== 0);
  const minHistorical = nonZero.length > 0 ? Math.min(...nonZero) : null;
  const floorApplied = minHistorical !== null && rounded <= minHistorical;
  const overallScore = clampScore(floorApplied ? Math.min(minHistorical! + 1, SCORE_MAX) : rounded);

  const counts = [...dayCounts(base), { date: entryDate, n: checksDone, trues: totalTrue }];
  const before = dayCounts(base).filter((c) => c.date >= addDays(entryDate, -7) && c.date < entryDate);
  const baseline = before.length ? { n: before.reduce((a, c) => a + c.n, 0), trues: before.reduce((a, c) => a + c.trues, 0) } : null;
  const entry: HistoryEntry = {
    date: entryDate,
    score: overallScore,
    platforms: platformScores,
    n: checksDone,
    true_count: totalTrue,
    raw_score: Math.round(rawScore * 10) / 10,
    interval: wilsonInterval(totalTrue, checksDone),
    rolling_7: rollingValue(counts, addDays(entryDate, -6), entryDate, 7),
    rolling_28: rollingValue(counts, addDays(entryDate, -27), entryDate, 28),
    change: changeSignal({ n: checksDone, trues: totalTrue }, baseline),
  };
  const cutoff = retentionCutoff(today);
  const history = insertByDate(base, entry).filter((e) => e.date > cutoff);

  // The new entry is always kept (validate() rejects dates outside the window), so the
  // history is never empty here.
  const recentScore = history[history.length - 1]!.score;

  return { overallScore, rawScore, totalTrue, checksDone, promptsAnalyzed, platformScores, floorApplied, seeded, history, recentScore, entry, replaced };
}
