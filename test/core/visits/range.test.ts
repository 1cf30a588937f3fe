import { ValidationError } from '../../../functions/core/errors';
import { visitDateRange } from '../../../functions/core/visits/range';

const TODAY = '2025-06-30';

describe('visitDateRange', () => {
  it('defaults to the last 30 days, today included', () => {
    expect(visitDateRange({}, TODAY)).toEqual({ from: '2025-06-01', to: '2025-06-30' });
    expect(visitDateRange({ to: '2025-03-01' }, TODAY)).toEqual({ from: '2025-01-31', to: '2025-03-01' });
    expect(visitDateRange({ from: '2025-06-20' }, TODAY)).toEqual({ from: '2025-06-20', to: '2025-06-30' });
  });

  it('accepts 365 days apart, refuses 366', () => {
    expect(visitDateRange({ from: '2024-06-30', to: '2025-06-30' }, TODAY)).toEqual({ from: '2024-06-30', to: '2025-06-30' });
    expect(() => visitDateRange({ from: '2024-06-29', to: '2025-06-30' }, TODAY)).toThrow(/at most 365 days/);
    expect(() => visitDateRange({ from: '2024-01-01' }, TODAY)).toThrow(ValidationError);
  });

  it.each([
    [{ from: '2025-6-1' }, /from: must be a date/],
    [{ from: '2025-02-30' }, /from: must be a date/],
    [{ to: '2025-13-01' }, /to: must be a date/],
    [{ to: 'yesterday' }, /to: must be a date/],
    [{ from: '2025-06-30T00:00:00Z' }, /from: must be a date/],
    [{ from: '2025-06-10', to: '2025-06-01' }, /from: must not be after to/],
  ])('%j → 400 naming the field', (query, message) => {
    expect(() => visitDateRange(query, TODAY)).toThrow(message);
  });

  it('a single day is a range', () => {
    expect(visitDateRange({ from: '2025-06-30', to: '2025-06-30' }, TODAY)).toEqual({ from: '2025-06-30', to: '2025-06-30' });
  });
});
