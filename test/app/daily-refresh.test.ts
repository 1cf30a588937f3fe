/** An unchanged site is republished (check dates moved) only every few weeks or in a new year (D167). */
import { refreshDue, UNCHANGED_REFRESH_DAYS } from '../../functions/app/articles/daily';

const at = (iso: string) => new Date(iso);

test('never published, a new year, or the last refresh UNCHANGED_REFRESH_DAYS ago: due', () => {
  expect(refreshDue(null, at('2026-11-25T14:00:00Z'))).toBe(true);
  expect(refreshDue('2026-12-31T14:00:00Z', at('2027-01-01T14:00:00Z'))).toBe(true);
  const last = '2026-10-01T14:00:00Z';
  expect(refreshDue(last, new Date(Date.parse(last) + UNCHANGED_REFRESH_DAYS * 86_400_000))).toBe(true);
});

test('an unchanged site refreshed recently is not: a steady day writes no object', () => {
  expect(refreshDue('2026-11-24T14:00:00Z', at('2026-11-25T14:00:00Z'))).toBe(false);
  const last = '2026-10-01T14:00:00Z';
  expect(refreshDue(last, new Date(Date.parse(last) + UNCHANGED_REFRESH_DAYS * 86_400_000 - 1))).toBe(false);
});
