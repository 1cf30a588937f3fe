/**
 * The matcher against the labelled set (test/fixtures/visibility-labels.ts): every case's
 * labels, case by case, and the measures the issue asks for (mentioned: precision ≥ 0.99,
 * recall ≥ 0.97). A few cases are beyond a word-level matcher; they are listed in
 * KNOWN_MISSES with the reason and asserted to be still missed, so a fix shows up here.
 */
import { identityOf, measureLabels } from '../../../bench/matcher-labels';
import { matchAnswer } from '../../../functions/core/visibility/mention-matcher';
import { LABELLED_CASES } from '../../fixtures/visibility-labels';

/** Case id → the labels the matcher gets wrong, and why. */
const KNOWN_MISSES: Record<string, { labels: Array<'mentioned' | 'recommended'>; why: string }> = {
  'larkspur/flower-sentence-start': { labels: ['mentioned'], why: 'a rare brand word at the start of a sentence, capitalised, used as the flower' },
  'sukha/unlike-best': { labels: ['recommended'], why: 'a recommend word in the same clause as the store, aimed at the competitor (documented limitation)' },
  'harbor/unlisted-product': { labels: ['mentioned', 'recommended'], why: 'the short name followed by a product not in the catalogue snapshot reads as a longer name' },
};

const verdictOf = (c: (typeof LABELLED_CASES)[number]) => matchAnswer({ text: c.answer, citations: c.citations ?? [] }, identityOf(c.business));

describe('the labelled set', () => {
  test('has at least 300 cases over several businesses, with every kind of label', () => {
    expect(LABELLED_CASES.length).toBeGreaterThanOrEqual(300);
    expect(new Set(LABELLED_CASES.map((c) => c.business.name)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(LABELLED_CASES.map((c) => c.id)).size).toBe(LABELLED_CASES.length);
    expect(LABELLED_CASES.filter((c) => c.expected.recommended).length).toBeGreaterThanOrEqual(100);
    expect(LABELLED_CASES.filter((c) => c.expected.mentioned && !c.expected.recommended).length).toBeGreaterThanOrEqual(60);
    expect(LABELLED_CASES.filter((c) => !c.expected.mentioned).length).toBeGreaterThanOrEqual(60);
    expect(LABELLED_CASES.every((c) => c.expected.mentioned || !c.expected.recommended)).toBe(true);
  });

  test.each(LABELLED_CASES.map((c) => [c.id, c] as const))('%s', (id, c) => {
    const v = verdictOf(c);
    const missed = KNOWN_MISSES[id]?.labels ?? [];
    expect({ mentioned: v.mentioned, recommended: v.recommended }).toEqual({
      mentioned: missed.includes('mentioned') ? !c.expected.mentioned : c.expected.mentioned,
      recommended: missed.includes('recommended') ? !c.expected.recommended : c.expected.recommended,
    });
  });

  test('measures: mentioned precision ≥ 0.99 and recall ≥ 0.97; recommended as measured', () => {
    const r = measureLabels();
    expect(r.mentioned.precision).toBeGreaterThanOrEqual(0.99);
    expect(r.mentioned.recall).toBeGreaterThanOrEqual(0.97);
    expect(r.recommended.precision).toBeGreaterThanOrEqual(0.99);
    expect(r.recommended.recall).toBeGreaterThanOrEqual(0.98);
  });
});

describe('issue 21, point 1: Larkspur & Finch', () => {
  const business = LABELLED_CASES.find((c) => c.id === 'larkspur/longer-prefix')!.business;
  const mentioned = (text: string) => matchAnswer({ text, citations: [] }, identityOf(business)).mentioned;

  test('the identity keeps "Larkspur" (used standalone, not a common word) and drops "Finch" (a common word)', () => {
    expect(identityOf(business).aliases).toEqual(['Larkspur']);
  });

  test('a longer name containing the brand, or a brand word as a noun, is not the store', () => {
    expect(mentioned('Skylarkspur & Finch Trading Co. makes great bags.')).toBe(false);
    expect(mentioned('Finch Trading Co. is a good choice.')).toBe(false);
    expect(mentioned('a finch landed on my pack')).toBe(false);
    expect(mentioned('Larkspur & Finch makes great bags.')).toBe(true);
    expect(mentioned('Larkspur & Finch Co. makes great bags.')).toBe(true);
  });
});
