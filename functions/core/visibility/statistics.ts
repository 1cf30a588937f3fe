/**
 * Honest measurement beside the spec's score (issue 11, D118): a day's score is a
 * proportion of a few dozen checks, so it comes with its sample size, a 95% Wilson
 * interval and rolling values, and a day-over-day change is flagged only when it is larger
 * than sampling noise. The spec's score itself is untouched (score.ts).
 *
 * PURE: no I/O, no clock.
 */

/** z for a two-sided 95% interval. */
const Z_95 = 1.959964;

export interface Interval {
  /** Percent, 0-100, one decimal. */
  low: number;
  high: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Wilson score interval of `successes` out of `n` (percent). Better than the normal
 * approximation at small n and near 0 or 100: it never leaves [0, 100] and is not
 * zero-width at 0 of n. n = 0 → the whole range.
 */
export function wilsonInterval(successes: number, n: number, z = Z_95): Interval {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: need integers 0 <= successes <= n, got ${successes} of ${n}`);
  }
  if (n === 0) return { low: 0, high: 100 };
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denom = 1 + z2 / n;
  return { low: round1(Math.max(0, ((centre - spread) / denom) * 100)), high: round1(Math.min(1, (centre + spread) / denom) * 100) };
}

/** What one day's checks were: the counts behind a score. */
export interface DayCounts {
  date: string;
  /** Checks that produced a boolean (D30: `null` cells are not checks). */
  n: number;
  trues: number;
}

export interface RollingValue {
  /** Pooled percent over the window, one decimal. */
  score: number;
  n: number;
  days: number;
  interval: Interval;
}

/**
 * Pooled value over the `days` calendar days ending on `endDate` (inclusive): total trues
 * over total checks, so a day with more checks weighs more. null when the window holds no
 * checks. Dates are YYYY-MM-DD; `startDate` is computed by the caller's date arithmetic.
 */
export function rollingValue(counts: readonly DayCounts[], startDate: string, endDate: string, days: number): RollingValue | null {
  let n = 0;
  let trues = 0;
  for (const c of counts) {
    if (c.date < startDate || c.date > endDate) continue;
    n += c.n;
    trues += c.trues;
  }
  if (n === 0) return null;
  return { score: round1((trues / n) * 100), n, days, interval: wilsonInterval(trues, n) };
}

export interface ChangeSignal {
  /** Today's raw percent minus the baseline's, one decimal. */
  delta: number;
  /** The baseline: the pooled checks of the days before today in the window. */
  baseline: { score: number; n: number } | null;
  /** True only when the difference is beyond noise (two-proportion z-test, 95%). */
  significant: boolean;
}

/**
 * Is today's proportion different from the recent baseline beyond sampling noise?
 * Two-proportion z-test with the pooled proportion: |p1 - p0| > z * sqrt(p(1-p)(1/n1 + 1/n0)).
 * No baseline, or no checks today → not significant (nothing to compare).
 */
export function changeSignal(today: { n: number; trues: number }, baseline: { n: number; trues: number } | null, z = Z_95): ChangeSignal {
  if (!baseline || baseline.n === 0 || today.n === 0) {
    return { delta: 0, baseline: baseline && baseline.n > 0 ? { score: round1((baseline.trues / baseline.n) * 100), n: baseline.n } : null, significant: false };
  }
  const p1 = today.trues / today.n;
  const p0 = baseline.trues / baseline.n;
  const pooled = (today.trues + baseline.trues) / (today.n + baseline.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / today.n + 1 / baseline.n));
  // All-true or all-false on both sides: no variance, so any difference is real only if p differs.
  const significant = se === 0 ? p1 !== p0 : Math.abs(p1 - p0) > z * se;
  return { delta: round1((p1 - p0) * 100), baseline: { score: round1(p0 * 100), n: baseline.n }, significant };
}
