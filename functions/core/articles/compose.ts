/**
 * From a question to an article that passes the gate (D35), engine-independent: the planned
 * questions of an entity not asked yet, each answered by a writer (the extractive one, or a
 * model's grounded answer) and judged by the gate before anything is claimed or saved.
 * Rejections keep their reason, so the plan's shortfall says why per question.
 */
import { answerText, writeExtractiveAnswer } from './answers';
import { articleCatalogue, type ArticleCatalogue } from './catalogue';
import { storePolicyFacts } from './facts';
import { aboutKey, gateArticle, type PublishedFingerprint } from './gate';
import { businessQuestions, productQuestions } from './questions';
import type { Question, WrittenAnswer } from './questions-and-answers';
import type { ArticleSources } from './site-sources';

/** A writer: the answer to a question, or why it could not write one (a model answer left empty by the grounding check). */
export type AnswerWriter = (question: Question) => Promise<WrittenAnswer | { unanswered: string }>;

export const extractiveWriter: AnswerWriter = async (question) => writeExtractiveAnswer(question);

/** What a model spent on one batch, and what its check removed (the batch outcome shows it). */
export interface ArticleModelUsage {
  model: string;
  /** Questions sent to the model (each with its own retries). */
  calls: number;
  /** Tokens the API reported. */
  cost_units: number;
  cost_unit: 'tokens';
  /** Model sentences the grounding check removed (D36). */
  dropped_sentences: number;
  /** Questions answered by the extractive engine instead (no fleet slot, or the call failed). */
  fallbacks: number;
  fallback_reasons: string[];
}

/** A configured article model (adapters/external/model/article-writer.ts): a writer per business batch. */
export interface ArticleModel {
  forBusiness(businessName: string, catalogue: ArticleCatalogue): { write: AnswerWriter; usage(): ArticleModelUsage };
}

export { articleCatalogue, type ArticleCatalogue };

/** The questions of one entity: a product's, or (null) the business's. */
export function entityQuestions(catalogue: ArticleCatalogue, productId: string | null, context: { businessName: string; industry: string; sources: ArticleSources }): Question[] {
  if (productId === null) return businessQuestions({ industry: context.industry, policies: storePolicyFacts(context.sources), catalogue: catalogue.sheets, businessName: context.businessName });
  const sheet = catalogue.byId.get(productId);
  return sheet ? productQuestions(sheet, catalogue, context.businessName) : [];
}

export type Reviewed =
  | { ok: true; question: Question; answer: WrittenAnswer; shingles: number[] }
  | { ok: false; question: Question; reason: string };

/** What a question is about (gate.ts `aboutKey`): its products, or '' for a business question (a choice between products included). */
function aboutOf(question: Question): string {
  return question.intent === 'choice' ? '' : aboutKey(question.about ?? question.subjects.map((s) => s.product.productId));
}

/** The fingerprint a published answer leaves for the gate's later checks. */
export function fingerprintOf(question: Question, path: string, shingles: number[]): PublishedFingerprint {
  return { title: question.title, path, shingles, about: aboutOf(question), intent: question.intent };
}

/** One question written and gated against every published article of the business. */
export async function reviewQuestion(question: Question, write: AnswerWriter, published: readonly PublishedFingerprint[]): Promise<Reviewed> {
  const written = await write(question);
  if ('unanswered' in written) return { ok: false, question, reason: written.unanswered };
  // A writer with nothing to say (a comparison short of differences, a choice of one product) wrote no block: the lead alone is no article.
  if (!written.blocks.length) return { ok: false, question, reason: 'the store\'s facts do not answer the question' };
  // Every answer opens with the question's verdict and fact, whichever engine wrote the rest.
  const answer: WrittenAnswer = { ...written, lead: question.lead };
  const text = answerText(answer);
  const verdict = gateArticle({
    title: question.title,
    about: aboutOf(question),
    intent: question.intent,
    names: question.subjects.map((s) => s.label),
    facet: question.facet,
    answer: text,
    facts: answer.engine === 'extractive' ? question.evidence.filter((f) => text.includes(f.text.trim())) : [],
    subjects: new Set(question.subjects.map((s) => s.product.productId)),
    business: question.subjects.length === 0 || question.intent === 'choice',
  }, published);
  return verdict.ok ? { ok: true, question, answer, shingles: verdict.shingles } : { ok: false, question, reason: verdict.reason };
}
