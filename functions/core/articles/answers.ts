/**
 * The extractive answer of a question (the offline engine, D35/D36): only the facts that
 * answer it, quoted as the store wrote them, and a plain line for what those facts do not
 * cover. No sentence twice in one article; prices and stock never (facts.ts).
 *
 * - A product question: its evidence facts, the most relevant first (a sentence stating the
 *   facet before one that only mentions the product), at most `MAX_FACTS`.
 * - A comparison: one block per product with its own facts (the sentences naming what the
 *   other states too first), the sentences the store wrote for both, the options both have
 *   with the values only one comes in (options.ts), and a line for each kind of fact only
 *   one of them states ("The store does not say what the Y is made of."). Published only
 *   with a difference to tell: own facts on both sides, or an option value of one only.
 * - A business question: the policy lines, or one labelled line per product of the kind
 *   ("Cork Yoga Block: Dense natural cork ...": never a bare product name).
 * The model engine (model-answer.ts) writes its answer from the same facts.
 */
import { materialsOf } from '../prompts/product-words';
import { dedupeKey } from '../generate/text';
import { oneLine } from '../site/html';
import { CARE, ORIGIN, USE } from './facets';
import { theName, type Fact, type ProductSheet } from './facts';
import { optionDifferences } from './options';
import type { Question } from './questions';
import type { Source } from './site-sources';

const MAX_FACTS = 5;

export interface AnswerBlock {
  /** A heading for the block (a comparison's product); null: the answer itself. */
  heading: string | null;
  /** Whole sentences, in order. */
  sentences: string[];
  /** List items: fragments of a description, option lines, labelled product lines. */
  items: string[];
}

export interface WrittenAnswer {
  blocks: AnswerBlock[];
  /** What the store's facts do not cover, one sentence each. */
  uncovered: string[];
  /** The AI-site pages quoted. */
  sources: Source[];
  /** Which engine wrote it. */
  engine: 'extractive' | 'model';
}

/** Relevance of a fact to a question: the facet's words it states, then its intent's wording. */
function relevance(fact: Fact, question: Question): number {
  const text = fact.text.toLowerCase();
  let score = question.facet.filter((w) => text.includes(w.slice(0, Math.max(4, w.length - 2)))).length * 2;
  if (question.intent === 'use' && USE.test(fact.text)) score += 2;
  if (question.intent === 'care' && CARE.test(fact.text)) score += 2;
  if (question.intent === 'origin' && ORIGIN.test(fact.text)) score += 2;
  if (question.intent === 'materials' && materialsOf(fact.text).length) score += 2;
  return score;
}

function ranked(facts: readonly Fact[], question: Question): Fact[] {
  return facts.map((f, i) => ({ f, i, s: relevance(f, question) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.f);
}

/** Adds facts to a block, skipping any already said in the article. */
function blockOf(heading: string | null, facts: readonly Fact[], said: Set<string>, max = MAX_FACTS): AnswerBlock {
  const block: AnswerBlock = { heading, sentences: [], items: [] };
  for (const fact of facts) {
    if (block.sentences.length + block.items.length >= max) break;
    const key = dedupeKey(fact.text);
    if (said.has(key)) continue;
    said.add(key);
    (fact.sentence ? block.sentences : block.items).push(oneLine(fact.text));
  }
  return block;
}

function sourcesOf(facts: readonly Fact[]): Source[] {
  const out: Source[] = [];
  for (const f of facts) if (f.source.path && !out.some((s) => s.path === f.source.path)) out.push(f.source);
  return out;
}

/** The kinds of fact a comparison looks for on both sides. */
const COMPARED: Array<{ what: string; test: (text: string) => boolean }> = [
  { what: 'what {it} is made of', test: (t) => materialsOf(t).length > 0 },
  { what: 'how to care for {it}', test: (t) => CARE.test(t) },
  { what: 'where {it} comes from', test: (t) => ORIGIN.test(t) },
];

function comparison(question: Question, said: Set<string>): WrittenAnswer {
  const [a, b] = question.subjects as [ProductSheet, ProductSheet];
  // Sentences the store wrote for both (siblings sold under one description) are said once, as what they share.
  const onB = new Set(b.facts.map((f) => dedupeKey(f.text)));
  const shared = blockOf(`What ${theName(a.label)} and ${theName(b.label)} share`, a.facts.filter((f) => onB.has(dedupeKey(f.text))), said, 3);
  const own = [a, b].map((sheet) => {
    const other = sheet === a ? b : a;
    // Facts on a dimension the other product also states come first: they compare.
    const order = sheet.facts.map((f, i) => ({ f, i, s: COMPARED.filter((c) => c.test(f.text) && other.facts.some((o) => c.test(o.text))).length }))
      .sort((x, y) => y.s - x.s || x.i - y.i).map((x) => x.f);
    return blockOf(oneLine(sheet.product.name), order, said, 3);
  });
  const options = optionDifferences(a, b);
  // A comparison needs a difference: each side something of its own to say, or an option
  // value only one of them comes in. Otherwise the store's facts compare nothing: no answer,
  // so the gate turns the question down as one the store cannot answer.
  const hasOwn = (block: AnswerBlock) => block.sentences.length + block.items.length > 0;
  if (!(own.every(hasOwn) || options.differ)) return { blocks: [], uncovered: [], sources: [], engine: 'extractive' };
  const optionBlock: AnswerBlock = { heading: 'Options', sentences: options.sentences, items: [] };
  const uncovered: string[] = [];
  for (const c of COMPARED) {
    const onA = a.facts.some((f) => c.test(f.text));
    const onB = b.facts.some((f) => c.test(f.text));
    if (onA !== onB) {
      const missing = onA ? b : a;
      uncovered.push(`The store does not say ${c.what.replace('{it}', theName(missing.label))}.`);
    }
  }
  const blocks = [...own, shared, optionBlock].filter(hasOwn);
  return { blocks, uncovered, sources: sourcesOf([...a.facts, ...b.facts]), engine: 'extractive' };
}

/** "The store's product information says nothing more about beginners." */
function judgementGap(question: Question): string[] {
  const value = question.key.split(':').slice(1).join(':');
  if (question.intent === 'audience') return [`The store's information does not say more about ${value} than this.`];
  if (question.intent === 'problem') return [`The store's information does not say more about ${value} than this.`];
  return [];
}

export function writeExtractiveAnswer(question: Question): WrittenAnswer {
  const said = new Set<string>();
  if (question.intent === 'comparison') return comparison(question, said);
  if (question.intent === 'choice') {
    const items = question.subjects.flatMap((sheet) => {
      // Each product by a sentence of its own not said yet: products sharing one description are left out.
      const fact = sheet.facts.find((f) => !said.has(dedupeKey(f.text)));
      if (!fact) return [];
      said.add(dedupeKey(fact.text));
      return [`${oneLine(sheet.product.name)}: ${oneLine(fact.text)}`];
    });
    // "Which should I choose?" is answered by two products or more, each by its own words.
    return { blocks: items.length >= 2 ? [{ heading: null, sentences: [], items }] : [], uncovered: [], sources: sourcesOf(question.evidence), engine: 'extractive' };
  }
  const block = blockOf(null, ranked(question.evidence, question), said);
  return { blocks: [block], uncovered: judgementGap(question), sources: sourcesOf(question.evidence), engine: 'extractive' };
}

/** The answer as plain text, one line per sentence group or item (what the gate and the shingles read). */
export function answerText(answer: WrittenAnswer): string {
  return answer.blocks.flatMap((b) => [b.heading ?? '', b.sentences.join(' '), ...b.items]).concat(answer.uncovered).filter(Boolean).join('\n');
}
