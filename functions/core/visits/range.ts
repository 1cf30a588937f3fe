/**
 * The date range of `GET /api/ai-recommendations/{business_id}?from=&to=`: ISO dates
 * (YYYY-MM-DD, UTC days, both inclusive). Defaults: `to` today, `from` 29 days before `to`
 * (the last 30 days). At most 365 days from `from` to `to`; `from` after `to` is refused.
 */
import { ValidationError } from '../errors';

export const VISIT_RANGE_DEFAULT_DAYS = 30;
export const VISIT_RANGE_MAX_DAYS = 365;

const DAY_MS = 86_400_000;

export interface DateRange {
  from: string;
  to: string;
}

/** A real calendar date in the form YYYY-MM-DD, as epoch ms at 00:00 UTC; ValidationError naming the field otherwise. */
export function parseIsoDate(field: string, value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw new ValidationError(`invalid query: ${field}: must be a date in the form YYYY-MM-DD, got ${JSON.stringify(value).slice(0, 40)}`);
  }
  return ms;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function visitDateRange(query: { from?: string | null; to?: string | null }, today: string): DateRange {
  const to = query.to ? parseIsoDate('to', query.to) : parseIsoDate('today', today);
  const from = query.from ? parseIsoDate('from', query.from) : to - (VISIT_RANGE_DEFAULT_DAYS - 1) * DAY_MS;
  if (from > to) throw new ValidationError('invalid query: from: must not be after to');
  if ((to - from) / DAY_MS > VISIT_RANGE_MAX_DAYS) {
    throw new ValidationError(`invalid query: from: the range is at most ${VISIT_RANGE_MAX_DAYS} days (from ${isoDay(from)} to ${isoDay(to)} is ${(to - from) / DAY_MS})`);
  }
  return { from: isoDay(from), to: isoDay(to) };
}
