/**
 * The matcher's precision and recall on the labelled set (test/fixtures/visibility-labels.ts),
 * for "mentioned" and for "recommended": printed in the `visibility` section of
 * `npm run bench`, asserted by test/core/visibility/labelled-set.test.ts. The identity of each
 * case is built as the service builds it (core/visibility/brand-aliases.ts over the business
 * name's words and the names the store uses standalone, with the common-word list).
 */
import { isCommonWord } from '../functions/app/visibility/common-words';
import { brandAliases } from '../functions/core/visibility/brand-aliases';
import { matchAnswer } from '../functions/core/visibility/mention-matcher';
import type { EntityIdentity } from '../functions/core/visibility/platform-answer';
import { distinctiveTokens } from '../functions/core/text/name-match';
import { LABELLED_CASES, type LabelledBusiness, type LabelledCase } from '../test/fixtures/visibility-labels';

export interface Measure {
  precision: number;
  recall: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface LabelsReport {
  cases: number;
  mentioned: Measure;
  recommended: Measure;
  /** Case ids the matcher gets wrong, with what it said. */
  wrong: Array<{ id: string; label: 'mentioned' | 'recommended'; expected: boolean }>;
}

export type Verdict = { mentioned: boolean; recommended: boolean };

/** The identity the service would build for a labelled business. */
export function identityOf(business: LabelledBusiness, isOrdinaryWord: (w: string) => boolean = isCommonWord): EntityIdentity {
  const standalone = business.aliases ?? [];
  return {
    name: business.name,
    aliases: brandAliases({
      businessName: business.name,
      candidates: [...distinctiveTokens(business.name), ...standalone],
      vendors: standalone,
      texts: [],
      domains: business.domains,
    }, isOrdinaryWord),
    domains: business.domains,
    aiSiteDomains: [],
    productNames: business.productNames ?? [],
    competitors: business.competitors ?? [],
  };
}

function measure(pairs: Array<[expected: boolean, got: boolean]>): Measure {
  const tp = pairs.filter(([e, g]) => e && g).length;
  const fp = pairs.filter(([e, g]) => !e && g).length;
  const fn = pairs.filter(([e, g]) => e && !g).length;
  return { precision: tp + fp ? tp / (tp + fp) : 1, recall: tp + fn ? tp / (tp + fn) : 1, truePositives: tp, falsePositives: fp, falseNegatives: fn };
}

/** Precision and recall of `judge` (default: today's matcher) on the labelled set. */
export function measureLabels(
  judge: (c: LabelledCase) => Verdict = (c) => matchAnswer({ text: c.answer, citations: c.citations ?? [] }, identityOf(c.business)),
  cases: readonly LabelledCase[] = LABELLED_CASES,
): LabelsReport {
  const got = cases.map((c) => ({ c, v: judge(c) }));
  const wrong: LabelsReport['wrong'] = [];
  for (const { c, v } of got) {
    if (v.mentioned !== c.expected.mentioned) wrong.push({ id: c.id, label: 'mentioned', expected: c.expected.mentioned });
    if (v.recommended !== c.expected.recommended) wrong.push({ id: c.id, label: 'recommended', expected: c.expected.recommended });
  }
  return {
    cases: cases.length,
    mentioned: measure(got.map(({ c, v }) => [c.expected.mentioned, v.mentioned])),
    recommended: measure(got.map(({ c, v }) => [c.expected.recommended, v.recommended])),
    wrong,
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** One line per label, for the bench report. */
export function labelsLines(r: LabelsReport): string[] {
  return [
    `matcher on ${r.cases} labelled answers: mentioned precision ${pct(r.mentioned.precision)} recall ${pct(r.mentioned.recall)}; ` +
      `recommended precision ${pct(r.recommended.precision)} recall ${pct(r.recommended.recall)}`,
  ];
}
