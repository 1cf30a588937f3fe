/**
 * A workflow step's result as it is stored and handed on (D39): counts and a bounded sample,
 * never a copy of something that grows with the catalogue. A run record (onboarding's, a
 * business's day) is one DynamoDB item (400 KB at most) holding every step's result, and a
 * step's output travels through Step Functions (256 KB per state): a 3a result whose
 * shortfall named each of 20,000 products broke both, and so would a day's 20,000 new
 * products or product files.
 *
 * - A map or a list of more than `RESULT_SAMPLE` entries keeps its first `RESULT_SAMPLE` and
 *   gains a sibling `<name>_total` with how many there were ("shortfall": 50 products,
 *   "shortfall_total": 20000), so the dashboard still says how many, and which first.
 * - A string longer than `MAX_TEXT` is cut with an ellipsis.
 * Deterministic and idempotent: a bounded result bounds to itself.
 */

/** Entries a map or list of a stored result keeps. */
export const RESULT_SAMPLE = 50;
/** Characters a text of a stored result keeps. */
export const MAX_TEXT = 2_000;
/** How deep a result is walked; below, values are kept only when they are scalars. */
const MAX_DEPTH = 6;

function boundValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, RESULT_SAMPLE).map((v) => boundValue(v, depth + 1));
  const map = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(map)) {
    const entries = v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : null;
    const size = Array.isArray(v) ? v.length : entries?.length ?? 0;
    // A list bounds itself below; a map is cut here, where its entries are known.
    out[key] = boundValue(entries && size > RESULT_SAMPLE ? Object.fromEntries(entries.slice(0, RESULT_SAMPLE)) : v, depth + 1);
    if (size > RESULT_SAMPLE && !(`${key}_total` in map)) out[`${key}_total`] = size;
  }
  return out;
}

/** The result with every map and list bounded to a sample and its total (see the header). */
export function boundedResult(result: Record<string, unknown>): Record<string, unknown> {
  return boundValue(result, 0) as Record<string, unknown>;
}
