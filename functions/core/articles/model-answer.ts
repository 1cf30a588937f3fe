/**
 * Articles written by a model (issue 20, D36), the pure part: the bounded fact sheet sent
 * for one question, the parse of the answer, and the check of every sentence against that
 * sheet before anything is published.
 *
 * - The sheet: the question, the subject's facts (its own quoted sentences, its option lines)
 *   and, for a comparison, the counterpart's; for a business question, the store's policy
 *   lines or each product's lines. Nothing else: the model never sees the rest of the store,
 *   so it cannot borrow another product's sentence.
 * - The answer: `{"answer": ["sentence", ...]}`, at most `MAX_SENTENCES` of at most 400
 *   characters; no prices or stock (dropped whatever the model was told).
 * - The check (grounding.ts): a sentence is kept only when the sheet supports it (names,
 *   figures, materials, places, policies, and most of its words); a sentence naming a product
 *   that is not a subject is dropped too. An answer left without a sentence is no answer: the
 *   article is not published, and the reason says so.
 */
import * as z from 'zod/mini';
import { extractJson, type Parsed } from '../generate/model-output';
import { hideName, restoreName, STORE_PLACEHOLDER, type ChatMessage } from '../generate/model-prompts';
import { groundingIndex, checkSentence, type SentenceVerdict } from '../generate/grounding';
import { dedupeKey, splitSentences } from '../generate/text';
import { quotedSentence } from '../text/repair';
import { statesVolatileFact } from './site-sources';
import { sourceOrder, subjectOf } from './answers';
import type { ProductSheet } from './facts';
import type { Question, WrittenAnswer } from './questions-and-answers';

const MAX_SENTENCES = 6;

const answerSchema = z.object({ answer: z.array(z.string().check(z.trim(), z.maxLength(400))).check(z.maxLength(12)) });

/** The facts the model may use, as lines (the same lines the check reads). */
function factSheetLines(question: Question): string[] {
  const lines = question.evidence.map((f) => f.text);
  for (const sheet of question.subjects) {
    lines.push(`${sheet.product.name}: ${sheet.kind}`);
    for (const option of sheet.options) lines.push(`${option.name}: ${option.values.join(', ')}`);
  }
  return [...new Set(lines)];
}

export function articleMessages(question: Question, businessName: string): ChatMessage[] {
  const system = [
    'You answer one shopper question for an online store, from the store\'s FACTS only.',
    'Every sentence must be supported by the FACTS: no invented names, figures, materials, places, policies, awards or claims. If the facts do not answer part of the question, say the store does not say.',
    'Never state a price, a discount or whether something is in stock.',
    `The store is called ${STORE_PLACEHOLDER}.`,
    'Answer with one JSON object: {"answer": ["sentence", ...]}, 2 to 6 plain sentences, no markdown.',
  ].join('\n');
  const user = [
    `QUESTION: ${question.title}`,
    'FACTS:',
    ...factSheetLines(question).map((line) => `- ${hideName(line, businessName)}`),
  ].join('\n');
  return [{ role: 'system', content: system }, { role: 'user', content: user }];
}

export function parseArticleAnswer(content: string, businessName: string): Parsed<string[]> {
  const json = extractJson(content);
  if (!json.ok) return json;
  const r = answerSchema.safeParse(json.value);
  if (!r.success) return { ok: false, error: 'model output failed validation: expected {"answer": [sentences]}' };
  const sentences = r.data.answer.flatMap((s) => splitSentences(restoreName(s, businessName))).filter((s) => s.trim());
  if (!sentences.length) return { ok: false, error: 'model output failed validation: the answer is empty' };
  return { ok: true, value: sentences };
}

/**
 * Product names of the catalogue that are not the question's subjects, nor named by the facts
 * themselves ("3 oz of our Harbor House Blend" is the store's own word): a sentence naming one
 * is about another product.
 */
function strangers(question: Question, sheetLines: readonly string[], catalogue: readonly ProductSheet[]): string[] {
  const own = new Set(question.subjects.map((s) => s.product.productId));
  const sheet = ` ${dedupeKey(sheetLines.join(' '))} `;
  return catalogue
    .filter((s) => !own.has(s.product.productId) && s.product.name.split(' ').length >= 2)
    .map((s) => ` ${dedupeKey(s.product.name)} `)
    .filter((name) => !sheet.includes(name));
}

export interface GroundedAnswer {
  answer: WrittenAnswer | { unanswered: string };
  dropped: SentenceVerdict[];
}

/** The model's sentences checked against the sheet (see the header). */
export function groundedAnswer(question: Question, sentences: readonly string[], businessName: string, catalogue: readonly ProductSheet[]): GroundedAnswer {
  const sheetLines = factSheetLines(question);
  const index = groundingIndex(sheetLines, { names: [businessName] });
  const others = strangers(question, sheetLines, catalogue);
  const kept: string[] = [];
  const dropped: SentenceVerdict[] = [];
  const seen = new Set<string>();
  for (const sentence of sentences.slice(0, MAX_SENTENCES * 2)) {
    const key = dedupeKey(sentence);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    if (statesVolatileFact(sentence)) {
      dropped.push({ sentence, supported: false, missing: ['a price, stock level or offer'] });
      continue;
    }
    const stranger = others.find((name) => ` ${key} `.includes(name));
    if (stranger) {
      dropped.push({ sentence, supported: false, missing: [`another product (${stranger.trim()})`] });
      continue;
    }
    const verdict = checkSentence(sentence, index);
    if (verdict.supported) kept.push(sentence);
    else dropped.push(verdict);
    if (kept.length >= MAX_SENTENCES) break;
  }
  // A store sentence the model quotes away from its neighbour loses its connective and its pronoun, as in the extractive answer.
  const order = sourceOrder(question);
  const subject = subjectOf(question);
  const written = kept.flatMap((sentence, i) => quotedSentence(sentence, i ? kept[i - 1]! : null, order, subject) ?? []);
  if (!written.length) return { answer: { unanswered: `the model's answer was not supported by the store's facts (${dropped.length} sentences dropped)` }, dropped };
  const sources = question.evidence.map((f) => f.source).filter((s, i, all) => s.path && all.findIndex((x) => x.path === s.path) === i);
  return { answer: { blocks: [{ heading: null, sentences: written, items: [] }], uncovered: [], sources, engine: 'model' }, dropped };
}
