/**
 * The quality gate of AI articles (D35), run before an article's slug is claimed. An article
 * is published only when:
 * 1. its title is a grammatical question: it starts with a question word or an auxiliary,
 *    ends with "?", holds no list ("for hot yoga, vinyasa?") and no doubled word;
 * 2. it is not the question of another article of the same subject with only a number or a
 *    year changed (titles compared with every number read as one);
 * 3. it answers its question: the facet's words are stated in the answer (quality.ts);
 * 4. every sentence is about its subject: a quoted fact of another product appears only in a
 *    comparison with it (model-written sentences are grounded against the subjects' facts
 *    before they get here, so they carry no other product's words);
 * 5. it is no near copy: its answer's 5-word shingles stay below Jaccard 0.8 against every
 *    article of the business.
 * A rejection says which rule, in words a merchant can read in the plan's outcome.
 */
import { promptIdentity } from '../prompts/prompt-identity';
import { answersFacet } from './quality';
import { jaccard, NEAR_COPY_JACCARD, shingleHashes } from './shingles';
import type { Fact } from './facts';

const QUESTION_START = /^(What|Which|Where|When|Why|How|Who|Is|Are|Does|Do|Can|Should|Will|Would)\b/;

export interface GateCandidate {
  title: string;
  /** The product the article is about (null: the business); titles are compared within a subject. */
  subject: string | null;
  /** The names the title gives its products: the merchant's words, never judged as grammar. */
  names: readonly string[];
  /** The facet's words (Question.facet). */
  facet: readonly string[];
  /** The answer as text (answers.ts `answerText`). */
  answer: string;
  /** The quoted facts of the answer. */
  facts: readonly Fact[];
  /** Products the article may quote: its subject and a comparison's counterpart. */
  subjects: ReadonlySet<string>;
  /** A business article may quote store facts and any product it lists. */
  business: boolean;
}

export interface PublishedFingerprint {
  title: string;
  subject: string | null;
  path: string;
  shingles: readonly number[];
}

export type GateVerdict = { ok: true; shingles: number[] } | { ok: false; reason: string };

/** Titles compared with every number (a list size, a year) read as one. */
export function titleIdentity(title: string): string {
  return promptIdentity(title.replace(/\d+/g, '#'));
}

/** What is wrong with a title as a question, or null. `names`: product names it holds, left as the merchant wrote them. */
export function titleProblem(title: string, names: readonly string[] = []): string | null {
  if (!QUESTION_START.test(title) || !title.endsWith('?')) return 'the title is not a question';
  const own = names.reduce((t, name) => (name ? t.split(name).join('{name}') : t), title);
  if (/,|;/.test(own)) return 'the title holds a list';
  if (/\b(\w+) \1\b/i.test(own)) return 'the title repeats a word';
  return null;
}

export function gateArticle(candidate: GateCandidate, published: readonly PublishedFingerprint[]): GateVerdict {
  const problem = titleProblem(candidate.title, candidate.names);
  if (problem) return { ok: false, reason: problem };
  // Within one subject: "Meadow Headlamp 2" and "Meadow Headlamp 3" are different products.
  const identity = titleIdentity(candidate.title);
  const same = published.find((p) => p.subject === candidate.subject && titleIdentity(p.title) === identity);
  if (same) return { ok: false, reason: `same question as ${same.path}` };
  if (!answersFacet(candidate.facet, candidate.answer)) return { ok: false, reason: 'the store\'s facts do not answer the question' };
  if (!candidate.business) {
    const stray = candidate.facts.find((f) => f.productId !== null && !candidate.subjects.has(f.productId));
    if (stray) return { ok: false, reason: `a sentence is about another product (${stray.productId})` };
  }
  const shingles = shingleHashes(candidate.answer);
  for (const p of published) {
    if (jaccard(shingles, p.shingles) >= NEAR_COPY_JACCARD) return { ok: false, reason: `near copy of ${p.path}` };
  }
  return { ok: true, shingles };
}
