/**
 * The date range of `GET /api/ai-recommendations/{business_id}?from=&to=`: ISO dates
 * (YYYY-MM-DD, UTC days, both inclusive). Defaults: `to` today, `from` 29 days before `to`
 * (the last 30 days). At most 365 days from `from` to `to`; `from` after `to` is refused.
 */
import { ValidationError } from '../errors';
import { formatIsoDate, MS_PER_DAY, parseIsoDate } from '../visibility/score';

export const VISIT_RANGE_DEFAULT_DAYS = 30;
export const VISIT_RANGE_MAX_DAYS = 365;

export interface DateRange {
  from: string;
  to: string;
}

/** A real calendar date in the form YYYY-MM-DD, as epoch ms at 00:00 UTC; ValidationError naming the field otherwise. */
function queryDate(field: string, value: string): number {
  const ms = parseIsoDate(value);
  if (ms === null) throw new ValidationError(`invalid query: ${field}: must be a date in the form YYYY-MM-DD, got ${JSON.stringify(value).slice(0, 40)}`);
  return ms;
}

export function visitDateRange(query: { from?: string | null; to?: string | null }, today: string, defaultDays = VISIT_RANGE_DEFAULT_DAYS): DateRange {
  const to = query.to ? queryDate('to', query.to) : queryDate('today', today);
  const from = query.from ? queryDate('from', query.from) : to - (defaultDays - 1) * MS_PER_DAY;
  if (from > to) throw new ValidationError('invalid query: from: must not be after to');
  if ((to - from) / MS_PER_DAY > VISIT_RANGE_MAX_DAYS) {
    throw new ValidationError(`invalid query: from: the range is at most ${VISIT_RANGE_MAX_DAYS} days (from ${formatIsoDate(from)} to ${formatIsoDate(to)} is ${(to - from) / MS_PER_DAY})`);
  }
  return { from: formatIsoDate(from), to: formatIsoDate(to) };
}
