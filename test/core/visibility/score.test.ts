import {
  addDays,
  CheckResult,
  computeScoreUpdate,
  HistoryEntry,
  PlatformScores,
  ScoreUpdateInput,
} from '../../../functions/core/visibility/score';
import { PLATFORM_KEYS } from '../../../functions/core/constants';
import { ValidationError } from '../../../functions/core/errors';

const TODAY = '2026-03-15';

/** `prompts` results with exactly `trues[k]` true values for platform k+1 (first prompts true). */
function resultsByPlatform(prompts: number, trues: number[]): CheckResult[] {
  return Array.from({ length: prompts }, (_, i) => {
    const r: Record<string, unknown> = { prompt: `prompt ${i}` };
    PLATFORM_KEYS.forEach((key, k) => {
      r[key] = i < (trues[k] ?? 0);
    });
    return r as unknown as CheckResult;
  });
}

/** `prompts` results with `totalTrue` true checks spread over all prompts and platforms. */
function resultsWithTotal(prompts: number, totalTrue: number): CheckResult[] {
  const results = resultsByPlatform(prompts, []);
  for (let t = 0; t < totalTrue; t++) {
    const prompt = Math.floor(t / 8);
    const key = PLATFORM_KEYS[t % 8]!;
    (results[prompt] as unknown as Record<string, boolean>)[key] = true;
  }
  return results;
}

function entry(date: string, score: number): HistoryEntry {
  return { date, score, platforms: {} };
}

function run(partial: Partial<ScoreUpdateInput> & Pick<ScoreUpdateInput, 'results'>) {
  return computeScoreUpdate({ history: null, entryDate: TODAY, today: TODAY, ...partial });
}

function expectValidation(fn: () => unknown, message: string | RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  expect((caught as ValidationError).name).toBe('ValidationError');
  expect((caught as ValidationError).status).toBe(400);
  if (typeof message === 'string') expect((caught as Error).message).toBe(message);
  else expect((caught as Error).message).toMatch(message);
}

describe('addDays', () => {
  it.each([
    ['2026-03-15', 0, '2026-03-15'],
    ['2026-03-15', 1, '2026-03-16'],
    ['2026-03-15', -1, '2026-03-14'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2100-02-28', 1, '2100-03-01'],
    ['2000-02-28', 1, '2000-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -2, '2026-12-30'],
    ['2026-03-15', -365, '2025-03-15'],
    ['2026-03-15', -364, '2025-03-16'],
    ['2024-03-15', -365, '2023-03-16'],
    ['2026-03-29', 1, '2026-03-30'], // DST change in Europe: irrelevant in UTC
    ['2026-10-25', 1, '2026-10-26'],
    ['1970-01-01', -1, '1969-12-31'],
  ])('%s plus %i days → %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it.each(['2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '2026-1-1', '20260101', '', 'today'])(
    'rejects malformed date %p',
    (date) => {
      expect(() => addDays(date, 1)).toThrow(RangeError);
    },
  );

  it.each([0.5, NaN, Infinity])('rejects non-integer day count %p', (days) => {
    expect(() => addDays('2026-03-15', days)).toThrow(RangeError);
  });
});

describe('computeScoreUpdate: raw score and rounding', () => {
  it.each([
    // prompts, totalTrue, raw
    [10, 40, 50], // spec example: 40 of 80
    [10, 80, 100],
    [10, 0, 0],
    [1, 1, 12.5],
    [1, 8, 100],
    [3, 1, 100 / 24],
    [125, 504, 50.4],
  ])('%i prompts, %i true → raw %d', (prompts, totalTrue, raw) => {
    const out = run({ results: resultsWithTotal(prompts, totalTrue), history: [entry('2026-03-01', 0)] });
    expect(out.rawScore).toBeCloseTo(raw, 10);
    expect(out.totalTrue).toBe(totalTrue);
    expect(out.promptsAnalyzed).toBe(prompts);
  });

  // History with only a zero score: no floor, so the final score is the rounded raw.
  it.each([
    [1, 1, 13], // 12.5 rounds half up
    [25, 101, 51], // 50.5
    [125, 504, 50], // 50.4
    [125, 496, 50], // 49.6
    [3, 1, 4], // 4.1666
    [10, 0, 0],
    [10, 80, 100],
  ])('%i prompts, %i true → final %i without a floor', (prompts, totalTrue, expected) => {
    const out = run({ results: resultsWithTotal(prompts, totalTrue), history: [entry('2026-03-01', 0)] });
    expect(out.overallScore).toBe(expected);
    expect(out.floorApplied).toBe(false);
    expect(out.seeded).toBe(false);
    expect(Number.isInteger(out.overallScore)).toBe(true);
  });
});

describe('computeScoreUpdate: floor rule (round first, then floor)', () => {
  it.each([
    // description, history scores, prompts, totalTrue, expected final, floorApplied
    ['above the minimum', [50], 10, 48, 60, false],
    ['exactly equal to the minimum', [50], 10, 40, 51, true],
    ['below the minimum', [50], 10, 8, 51, true],
    ['zero raw', [50], 10, 0, 51, true],
    ['rounded 50.4 → 50 equals min', [50], 125, 504, 51, true],
    ['rounded 49.6 → 50 equals min', [50], 125, 496, 51, true],
    ['rounded 50.5 → 51 above min', [50], 25, 101, 51, false],
    ['minimum of several non-zero', [70, 40, 90], 10, 32, 41, true],
    ['zeros ignored for the minimum', [0, 60, 0], 10, 40, 61, true],
    ['only zeros: no floor', [0, 0], 10, 8, 10, false],
    ['min 99, raw 99 → 100', [99], 100, 792, 100, true],
    ['min 99, raw 100 → 100 (not floored)', [99, 100], 10, 80, 100, false],
    ['min 100, raw 100 → capped 100', [100], 10, 80, 100, true],
    ['min 100, raw 50 → capped 100', [100, 100], 10, 40, 100, true],
    ['min 1, raw 0 → 2', [1], 10, 0, 2, true],
    ['min 1, raw 1 → 2', [1], 100, 8, 2, true],
    ['min 1, raw 2 → 2', [1], 50, 8, 2, false],
  ])('%s', (_desc, scores, prompts, totalTrue, expected, floorApplied) => {
    const history = (scores as number[]).map((s, i) => entry(addDays('2026-03-01', i), s));
    const out = run({ results: resultsWithTotal(prompts as number, totalTrue as number), history });
    expect(out.overallScore).toBe(expected);
    expect(out.floorApplied).toBe(floorApplied);
    expect(out.seeded).toBe(false);
  });

  it('floor uses the stored history only, never the new entry', () => {
    const out = run({ results: resultsWithTotal(10, 16), history: [entry('2026-03-14', 0)] });
    expect(out.overallScore).toBe(20);
  });
});

describe('computeScoreUpdate: first calculation seeds two days', () => {
  it.each([
    // history, raw (10 prompts: totalTrue), final
    [null, 16, 36], // raw 20 → 36 (floor against seeded 35)
    [[], 16, 36],
    [null, 0, 36], // zero raw with seeded history
    [null, 28, 36], // raw 35 exactly → 36
    [null, 29, 36], // raw 36.25 → 36, above 35
    [null, 64, 80], // raw 80 stays
    [null, 80, 100],
  ])('history %p, %i true of 80 → %i', (history, totalTrue, expected) => {
    const out = run({ results: resultsWithTotal(10, totalTrue), history: history as HistoryEntry[] | null });
    expect(out.seeded).toBe(true);
    expect(out.overallScore).toBe(expected);
    expect(out.history.map((e) => [e.date, e.score])).toEqual([
      ['2026-03-13', 0],
      ['2026-03-14', 35],
      ['2026-03-15', expected],
    ]);
    expect(out.history[0]!.platforms).toEqual({});
    expect(out.history[1]!.platforms).toEqual({});
    expect(out.recentScore).toBe(expected);
  });

  it('floorApplied reports whether the seeded floor triggered', () => {
    expect(run({ results: resultsWithTotal(10, 28), history: null }).floorApplied).toBe(true); // 35
    expect(run({ results: resultsWithTotal(10, 29), history: null }).floorApplied).toBe(false); // 36
  });

  it.each([
    ['2026-01-10', '2026-01-08', '2026-01-09'],
    ['2026-01-01', '2025-12-30', '2025-12-31'],
    ['2026-03-01', '2026-02-27', '2026-02-28'],
  ])('seeds are relative to the entry date %s (D16)', (entryDate, d2, d1) => {
    const out = run({ results: resultsWithTotal(10, 40), entryDate });
    expect(out.history.map((e) => e.date)).toEqual([d2, d1, entryDate]);
  });

  it('seeds that fall outside retention are pruned, but still floored against', () => {
    const entryDate = addDays(TODAY, -364);
    const out = run({ results: resultsWithTotal(10, 16), entryDate });
    expect(out.overallScore).toBe(36);
    expect(out.history).toEqual([out.entry]);
    expect(out.entry).toMatchObject({ date: entryDate, score: 36, platforms: out.platformScores });
  });

  it('seeds on entryDate-1 survive when entryDate is today-363', () => {
    const entryDate = addDays(TODAY, -363);
    const out = run({ results: resultsWithTotal(10, 40), entryDate });
    expect(out.history.map((e) => [e.date, e.score])).toEqual([
      [addDays(TODAY, -364), 35],
      [entryDate, 50],
    ]);
  });

  it('a non-empty history is never re-seeded, even with only zeros', () => {
    const out = run({ results: resultsWithTotal(10, 16), history: [entry('2026-03-10', 0)] });
    expect(out.seeded).toBe(false);
    expect(out.history.map((e) => e.date)).toEqual(['2026-03-10', TODAY]);
  });
});

describe('computeScoreUpdate: per-platform scores (D16)', () => {
  const keys = PLATFORM_KEYS.map((k) => `${k}_score` as keyof PlatformScores);

  it.each([
    // prompts, trues per platform, expected per platform
    [3, [1, 2, 0, 3, 1, 2, 0, 3], [33, 67, 0, 100, 33, 67, 0, 100]],
    [1, [1, 0, 1, 0, 1, 0, 1, 0], [100, 0, 100, 0, 100, 0, 100, 0]],
    [8, [1, 3, 5, 7, 0, 8, 4, 2], [13, 38, 63, 88, 0, 100, 50, 25]], // halves round up
    [10, [1, 2, 3, 4, 5, 6, 7, 8], [10, 20, 30, 40, 50, 60, 70, 80]],
    [7, [1, 2, 3, 4, 5, 6, 7, 0], [14, 29, 43, 57, 71, 86, 100, 0]],
    [200, [1, 199, 0, 200, 100, 3, 197, 101], [1, 100, 0, 100, 50, 2, 99, 51]],
  ])('%i prompts, trues %p → %p', (prompts, trues, expected) => {
    const out = run({ results: resultsByPlatform(prompts, trues), history: [entry('2026-03-01', 0)] });
    expect(keys.map((k) => out.platformScores[k])).toEqual(expected);
    expect(Object.keys(out.platformScores).sort()).toEqual([...keys].sort());
    expect(out.totalTrue).toBe(trues.reduce((a, b) => a + b, 0));
    expect(out.history[out.history.length - 1]!.platforms).toEqual(out.platformScores);
  });

  it('platform scores are not floored (only the overall score is)', () => {
    const out = run({ results: resultsByPlatform(10, [0, 0, 0, 0, 0, 0, 0, 0]), history: [entry('2026-03-01', 80)] });
    expect(out.overallScore).toBe(81);
    expect(Object.values(out.platformScores)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('computeScoreUpdate: insertion order and recent score', () => {
  const history = [entry('2026-03-10', 40), entry('2026-03-12', 60), entry('2026-03-14', 70)];

  it('appends today after older entries', () => {
    const out = run({ results: resultsWithTotal(10, 64), history });
    expect(out.history.map((e) => [e.date, e.score])).toEqual([
      ['2026-03-10', 40],
      ['2026-03-12', 60],
      ['2026-03-14', 70],
      ['2026-03-15', 80],
    ]);
    expect(out.recentScore).toBe(80);
  });

  it('a backdated entry goes in date order and does not replace the newer recent score', () => {
    const out = run({ results: resultsWithTotal(10, 64), history, entryDate: '2026-03-11' });
    expect(out.history.map((e) => [e.date, e.score])).toEqual([
      ['2026-03-10', 40],
      ['2026-03-11', 80],
      ['2026-03-12', 60],
      ['2026-03-14', 70],
    ]);
    expect(out.recentScore).toBe(70);
  });

  it('a backdated entry before the oldest entry goes first', () => {
    const out = run({ results: resultsWithTotal(10, 64), history, entryDate: '2026-01-01' });
    expect(out.history.map((e) => e.date)).toEqual(['2026-01-01', '2026-03-10', '2026-03-12', '2026-03-14']);
    expect(out.recentScore).toBe(70);
  });

  it('one entry per date (D31): a re-run replaces the entry of its date, wherever it is', () => {
    const history = [entry('2026-03-12', 50), entry('2026-03-14', 70)];
    const out = run({ results: resultsWithTotal(10, 64), history, entryDate: '2026-03-12' });
    expect(out.history.map((e) => [e.date, e.score])).toEqual([
      ['2026-03-12', 80],
      ['2026-03-14', 70],
    ]);
    expect(out.replaced).toBe(true);
    expect(out.recentScore).toBe(70);
  });

  it('older histories with several entries on one date collapse to the new one', () => {
    const sameDay = [entry(TODAY, 50), entry(TODAY, 55)];
    const out = run({ results: resultsWithTotal(10, 64), history: sameDay });
    expect(out.history.map((e) => e.score)).toEqual([80]);
    expect(out.recentScore).toBe(80);
  });

  it('a second run on the same day replaces the first, and is not floored against it', () => {
    const first = run({ results: resultsWithTotal(10, 64), history: null });
    expect(first.overallScore).toBe(80);
    // Re-run lower: the floor looks at the seeds (35), not at the replaced 80.
    const second = run({ results: resultsWithTotal(10, 40), history: first.history });
    expect(second.history.map((e) => [e.date, e.score])).toEqual([
      ['2026-03-13', 0],
      ['2026-03-14', 35],
      [TODAY, 50],
    ]);
    expect(second).toMatchObject({ replaced: true, seeded: false, floorApplied: false, recentScore: 50 });
  });

  it('tolerates unsorted stored history (stable by date)', () => {
    const unsorted = [entry('2026-03-14', 70), entry('2026-03-10', 40), entry('2026-03-12', 60)];
    const out = run({ results: resultsWithTotal(10, 64), history: unsorted });
    expect(out.history.map((e) => e.date)).toEqual(['2026-03-10', '2026-03-12', '2026-03-14', TODAY]);
  });

  it('does not mutate the input history', () => {
    const input = [entry('2026-03-14', 70), entry('2026-03-10', 40)];
    const snapshot = JSON.parse(JSON.stringify(input));
    run({ results: resultsWithTotal(10, 64), history: input });
    expect(input).toEqual(snapshot);
  });
});

describe('computeScoreUpdate: 365-day retention', () => {
  it.each([
    // offset from today, kept?
    [-366, false],
    [-365, false],
    [-364, true],
    [-200, true],
    [-1, true],
    [0, true],
  ])('an entry at today offset %i is kept: %p', (offset, kept) => {
    const date = addDays(TODAY, offset);
    const out = run({ results: resultsWithTotal(10, 64), history: [entry(date, 10)], entryDate: offset === 0 ? addDays(TODAY, -1) : TODAY });
    expect(out.history.some((e) => e.date === date && e.score === 10)).toBe(kept);
  });

  it('drops every old entry and keeps the rest in order', () => {
    const history = [
      entry('2024-01-01', 20),
      entry('2025-03-14', 30),
      entry('2025-03-15', 40),
      entry('2025-03-16', 45),
      entry('2026-03-14', 50),
    ];
    const out = run({ results: resultsWithTotal(10, 64), history });
    expect(out.history.map((e) => e.date)).toEqual(['2025-03-16', '2026-03-14', TODAY]);
  });

  it('the floor still considers an entry being pruned by this call (history is floored before pruning)', () => {
    const out = run({ results: resultsWithTotal(10, 40), history: [entry(addDays(TODAY, -365), 60)] });
    expect(out.overallScore).toBe(61);
    expect(out.history.map((e) => e.date)).toEqual([TODAY]);
  });

  it('retention is relative to today, not to the backdated entry', () => {
    const history = [entry(addDays(TODAY, -300), 10)];
    const out = run({ results: resultsWithTotal(10, 64), history, entryDate: addDays(TODAY, -364) });
    expect(out.history.map((e) => e.date)).toEqual([addDays(TODAY, -364), addDays(TODAY, -300)]);
    expect(out.recentScore).toBe(10);
  });

  it('a full year of daily entries stays at 365 entries', () => {
    const history = Array.from({ length: 365 }, (_, i) => entry(addDays(TODAY, -365 + i), 50));
    const out = run({ results: resultsWithTotal(10, 64), history });
    expect(out.history).toHaveLength(365);
    expect(out.history[0]!.date).toBe(addDays(TODAY, -364));
    expect(out.history[364]!.date).toBe(TODAY);
  });
});

describe('computeScoreUpdate: validation', () => {
  it('rejects empty results', () => {
    expectValidation(() => run({ results: [] }), 'results must contain at least one item');
  });

  it.each([
    [{ prompt: 'p', platform_1: 'yes' }, /results\[0\]\.platform_1/],
    [{ prompt: 'p', platform_1: true, platform_2: true, platform_3: true, platform_4: true, platform_5: true, platform_6: true, platform_7: true }, /results\[0\]\.platform_8/],
    [{ platform_1: true }, /results\[0\]\.prompt/],
    [null, /results\[0\]/],
  ])('rejects malformed result %p', (bad, message) => {
    expectValidation(() => run({ results: [bad as unknown as CheckResult] }), message);
  });

  it('names the index of a malformed later result', () => {
    const results = resultsWithTotal(3, 5);
    (results[2] as unknown as Record<string, unknown>).platform_4 = 'yes';
    expectValidation(() => run({ results }), 'results[2].platform_4 must be true, false or null');
  });

  it.each(['2026-02-30', '2025-02-29', '2026-13-01', '2026-00-01', '2026-03-32', '2026-3-1', '2026/03/01', '15-03-2026', '', 'yesterday', '2026-03-01T00:00:00Z'])(
    'rejects backdate_to %p that is not a calendar date',
    (entryDate) => {
      expectValidation(() => run({ results: resultsWithTotal(1, 1), entryDate }), /^backdate_to /);
    },
  );

  it('accepts a leap day', () => {
    const out = run({ results: resultsWithTotal(1, 1), entryDate: '2024-02-29', today: '2024-03-01' });
    expect(out.history.map((e) => e.date)).toEqual(['2024-02-27', '2024-02-28', '2024-02-29']);
  });

  it.each([
    [1, 'backdate_to must not be in the future'],
    [400, 'backdate_to must not be in the future'],
    [-365, 'backdate_to is older than the 365-day history retention'],
    [-366, 'backdate_to is older than the 365-day history retention'],
    [-1000, 'backdate_to is older than the 365-day history retention'],
  ])('rejects backdate_to at today offset %i', (offset, message) => {
    expectValidation(
      () => run({ results: resultsWithTotal(1, 1), entryDate: addDays(TODAY, offset) }),
      message,
    );
  });

  it.each([0, -1, -364])('accepts backdate_to at today offset %i', (offset) => {
    const entryDate = addDays(TODAY, offset);
    const out = run({ results: resultsWithTotal(1, 1), entryDate });
    expect(out.history.some((e) => e.date === entryDate)).toBe(true);
  });

  it('rejects a malformed today as a programming error', () => {
    expect(() => run({ results: resultsWithTotal(1, 1), today: '2026-02-30' })).toThrow(RangeError);
  });
});

describe('computeScoreUpdate: unconfigured is not false (D30)', () => {
  /** 10 prompts; platforms 6-8 null (unconfigured), platforms 1-5 with `trues[k]` trues. */
  const fivePlatforms = (trues: number[]) => resultsByPlatform(10, trues).map((r) => ({ ...r, platform_6: null, platform_7: null, platform_8: null }));

  it('null cells leave the denominator: 20 trues of 50 checks is 40, not 25', () => {
    const out = run({ results: fivePlatforms([4, 4, 4, 4, 4]), history: [entry('2026-03-01', 10)] });
    expect(out).toMatchObject({ checksDone: 50, totalTrue: 20, rawScore: 40, overallScore: 40 });
    expect(out.platformScores).toEqual({
      platform_1_score: 40, platform_2_score: 40, platform_3_score: 40, platform_4_score: 40, platform_5_score: 40,
      platform_6_score: null, platform_7_score: null, platform_8_score: null,
    });
  });

  it('a platform that answered some prompts is scored on those only', () => {
    const results = resultsByPlatform(10, [10]);
    results.slice(5).forEach((r) => { (r as Record<string, unknown>).platform_1 = null; });
    const out = run({ results, history: [entry('2026-03-01', 10)] });
    expect(out.platformScores.platform_1_score).toBe(100); // 5 of 5
    expect(out.checksDone).toBe(75);
  });

  it('results without a single boolean are refused: no score is invented', () => {
    const none = resultsByPlatform(2, []).map((r) => Object.fromEntries(Object.keys(r).map((k) => [k, k === 'prompt' ? r.prompt : null])) as unknown as CheckResult);
    expectValidation(() => run({ results: none }), /no check: every platform is null/);
  });
});

describe('computeScoreUpdate: measurement beside the score (D118)', () => {
  it('records n, the raw score and its 95% Wilson interval; seeded entries carry none', () => {
    const out = run({ results: resultsWithTotal(10, 40) });
    expect(out.entry).toMatchObject({ n: 80, true_count: 40, raw_score: 50, interval: { low: 39.3, high: 60.7 } });
    expect(out.history[0]).toEqual({ date: '2026-03-13', score: 0, platforms: {}, seeded: true });
  });

  it('rolling 7- and 28-day values pool the checks of the days that have them', () => {
    const history: HistoryEntry[] = [
      { ...entry('2026-02-20', 20), n: 80, true_count: 16 }, // in 28 days, not in 7
      { ...entry('2026-03-10', 30), n: 80, true_count: 24 },
      { ...entry('2026-03-14', 35), n: 40, true_count: 12 },
    ];
    const out = run({ results: resultsWithTotal(10, 40), history });
    // 7 days (03-09..03-15): 24 + 12 + 40 = 76 of 200 → 38.0
    expect(out.entry.rolling_7).toMatchObject({ score: 38, n: 200, days: 7 });
    // 28 days (02-16..03-15): + 16 of 80 → 92 of 280 → 32.9
    expect(out.entry.rolling_28).toMatchObject({ score: 32.9, n: 280, days: 28 });
  });

  it('a change is flagged only beyond noise', () => {
    const week = Array.from({ length: 7 }, (_, i) => ({ ...entry(addDays(TODAY, -7 + i), 35), n: 80, true_count: 28 }));
    const small = run({ results: resultsWithTotal(10, 36), history: week }); // 45% vs 35% on 560
    expect(small.entry.change).toMatchObject({ delta: 10, significant: false, baseline: { score: 35, n: 560 } });
    const large = run({ results: resultsWithTotal(10, 44), history: week }); // 55% vs 35%
    expect(large.entry.change).toMatchObject({ delta: 20, significant: true });
  });
});
