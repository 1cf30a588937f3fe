import { changeSignal, rollingValue, wilsonInterval } from '../../../functions/core/visibility/statistics';

describe('wilsonInterval (95%)', () => {
  // Reference values: Wilson score interval, z = 1.96 (e.g. Newcombe 1998, table I; any
  // statistics package's binom.confint(method="wilson")).
  it.each([
    [40, 80, 39.3, 60.7],
    [5, 10, 23.7, 76.3],
    [0, 10, 0, 27.8],
    [10, 10, 72.2, 100],
    [1, 80, 0.2, 6.7], // (0.0365 ± 0.0342) / 1.048
  ])('%i of %i → [%f, %f]', (s, n, low, high) => {
    expect(wilsonInterval(s, n)).toEqual({ low, high });
  });

  it('no checks: the whole range', () => expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 100 }));
  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
  });
});

describe('rollingValue', () => {
  const counts = [
    { date: '2026-11-01', n: 80, trues: 8 },
    { date: '2026-11-20', n: 80, trues: 40 },
    { date: '2026-11-21', n: 40, trues: 10 }, // a day with platforms missing weighs less
    { date: '2026-11-23', n: 80, trues: 20 },
  ];
  it('pools trues over checks inside the window (inclusive)', () => {
    // 40 + 10 + 20 = 70 of 80 + 40 + 80 = 200 → 35.0
    expect(rollingValue(counts, '2026-11-17', '2026-11-23', 7)).toMatchObject({ score: 35, n: 200, days: 7 });
    // 28 days also take in 11-01: 78 of 280 → 27.857 → 27.9
    expect(rollingValue(counts, '2026-10-27', '2026-11-23', 28)).toMatchObject({ score: 27.9, n: 280 });
  });
  it('no checks in the window: null', () => expect(rollingValue(counts, '2026-11-02', '2026-11-19', 7)).toBeNull());
});

describe('changeSignal (two-proportion z-test)', () => {
  it('a 10-point move on 80 checks against 560 is noise', () => {
    // p1 = 0.45, p0 = 0.35, pooled 0.3625; se = sqrt(.3625*.6375*(1/80+1/560)) = 0.0575; 1.96*se = 0.113 > 0.10
    const s = changeSignal({ n: 80, trues: 36 }, { n: 560, trues: 196 });
    expect(s).toEqual({ delta: 10, baseline: { score: 35, n: 560 }, significant: false });
  });
  it('a 20-point move on the same sample sizes is flagged', () => {
    // p1 = 0.55, p0 = 0.35: 0.20 > 1.96 * 0.0585
    expect(changeSignal({ n: 80, trues: 44 }, { n: 560, trues: 196 })).toMatchObject({ delta: 20, significant: true });
  });
  it('no baseline or no checks: nothing to compare', () => {
    expect(changeSignal({ n: 80, trues: 40 }, null)).toEqual({ delta: 0, baseline: null, significant: false });
    expect(changeSignal({ n: 0, trues: 0 }, { n: 80, trues: 8 })).toMatchObject({ significant: false, baseline: { score: 10, n: 80 } });
  });
  it('no variance on either side: any difference is real', () => {
    expect(changeSignal({ n: 80, trues: 0 }, { n: 80, trues: 0 }).significant).toBe(false);
  });
});
