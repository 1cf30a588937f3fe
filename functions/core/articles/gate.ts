/**
 * The quality gate of AI articles (D35), run before an article's slug is claimed. An article
 * is published only when:
 * 1. its title is a grammatical question: it starts with a question word or an auxiliary,
 *    ends with "?", holds no list ("for hot yoga, vinyasa?") and no doubled word;
 * 2. it is not the question of another article about the same products with only a number or
 *    a year changed (titles compared with every number read as one), nor the mirror of a
 *    comparison ("B compared with A" after "A compared with B");
 * 3. it answers its question: the facet's words are stated in the answer (quality.ts);
 * 4. every sentence is about its subject: a quoted fact of another product appears only in a
 *    comparison with it (model-written sentences are grounded against the subjects' facts
 *    before they get here, so they carry no other product's words);
 * 5. it is no near copy: its answer's 5-word shingles, with its products' names masked, stay
 *    below Jaccard 0.8 against every article of the business.
 * A rejection says which rule, in words a merchant can read in the plan's outcome.
 */
import { promptIdentity } from '../prompts/prompt-identity';
import { replaceNames } from '../text/name-match';
import { answersFacet } from './quality';
import { decodeShingles, jaccard, NEAR_COPY_JACCARD, shingleHashes } from './shingles';
import type { ArticleRecord } from './record';
import type { Fact } from './facts';

const QUESTION_START = /^(What|Which|Where|When|Why|How|Who|Is|Are|Does|Do|Can|Should|Will|Would)\b/;

export interface GateCandidate {
  title: string;
  /** What the article is about (`aboutKey`): titles are compared within one subject. */
  about: string;
  /** Its intent (`Question.intent`): two comparisons of one pair are one question. */
  intent: string;
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
  about: string;
  intent: string;
  path: string;
  shingles: readonly number[];
}

export type GateVerdict = { ok: true; shingles: number[] } | { ok: false; reason: string };

/** The products an article is about, in one order ("a+b" for a comparison of a and b, "" for the business). */
export function aboutKey(productIds: readonly string[]): string {
  return [...new Set(productIds)].sort().join('+');
}

/** The fingerprint of a stored article (older records: their product alone). */
export function recordFingerprint(record: ArticleRecord): PublishedFingerprint {
  const about = record.faq_category === 'business_article' ? '' : aboutKey(record.subjects ?? (record.product_id ? [record.product_id] : []));
  return { title: record.title, path: record.article_path, shingles: decodeShingles(record.shingles), about, intent: record.question_key?.split(':')[0] ?? '' };
}

/** Titles compared with every number (a list size, a year) read as one. */
function titleIdentity(title: string): string {
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
  const twin = sameQuestion({ title: candidate.title, about: candidate.about, intent: candidate.intent }, published);
  if (twin) return { ok: false, reason: `same question as ${twin.path}` };
  if (!answersFacet(candidate.facet, candidate.answer)) return { ok: false, reason: 'the store\'s facts do not answer the question' };
  if (!candidate.business) {
    const stray = candidate.facts.find((f) => f.productId !== null && !candidate.subjects.has(f.productId));
    if (stray) return { ok: false, reason: `a sentence is about another product (${stray.productId})` };
  }
  const shingles = shingleHashes(withoutNames(candidate.answer, candidate.names));
  const copy = nearCopy(shingles, published);
  if (copy) return { ok: false, reason: `near copy of ${copy.path}` };
  return { ok: true, shingles };
}

/**
 * Rule 2: the published article asking the same question about the same products. Within one
 * subject: "Meadow Headlamp 2" and "Meadow Headlamp 3" are different products, and "A compared
 * with B" is the question "B compared with A".
 */
function sameQuestion(candidate: Pick<PublishedFingerprint, 'title' | 'about' | 'intent'>, published: readonly PublishedFingerprint[]): PublishedFingerprint | undefined {
  const identity = titleIdentity(candidate.title);
  return published.find((p) => p.about === candidate.about && (titleIdentity(p.title) === identity || (candidate.intent === 'comparison' && p.intent === 'comparison')));
}

/**
 * The answer as rule 5 compares it: its products' names read as one word, so two answers that
 * differ only by the product they name ("The X comes in 12 oz, 2 lb and 5 lb.") are one text.
 */
export function withoutNames(answer: string, names: readonly string[]): string {
  return replaceNames(answer, names, () => 'product');
}

/** Rule 5: the published article whose answer this one nearly copies. */
function nearCopy(shingles: readonly number[], published: readonly PublishedFingerprint[]): PublishedFingerprint | undefined {
  return published.find((p) => jaccard(shingles, p.shingles) >= NEAR_COPY_JACCARD);
}

/**
 * Rules 2 and 5 again, after a claim, against articles other batches wrote at the same time
 * (the gate could not see them): the reason this article gives way, or null. Of two twins
 * claimed at once, the later claim (then the greater slug) gives way, so exactly one stays.
 */
export function concurrentTwin(article: PublishedFingerprint & { slug: string; createdAt: string }, others: readonly ArticleRecord[]): string | null {
  const earlier = others.filter((o) => o.slug !== article.slug && (o.created_at < article.createdAt || (o.created_at === article.createdAt && o.slug < article.slug)));
  const fingerprints = earlier.map(recordFingerprint);
  const twin = sameQuestion(article, fingerprints);
  if (twin) return `same question as ${twin.path} (written at the same time)`;
  const copy = nearCopy(article.shingles, fingerprints);
  return copy ? `near copy of ${copy.path} (written at the same time)` : null;
}
