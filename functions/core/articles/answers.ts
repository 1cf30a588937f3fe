/**
 * The extractive answer of a question (the offline engine, D35/D36): only the facts that
 * answer it, quoted as the store wrote them, and a plain line for what those facts do not
 * cover. No sentence twice in one article; prices and stock never (facts.ts).
 *
 * - A product question: its evidence facts, the most relevant first (a sentence stating the
 *   facet before one that only mentions the product), at most `MAX_FACTS`.
 * - A comparison: each stated difference in a sentence naming both products with both values,
 *   then what they share (compare.ts); a family page: its members (family-answer.ts).
 * - A business question: the policy lines, or one labelled line per product of the kind
 *   ("Cork Yoga Block: Dense natural cork ...": never a bare product name).
 * The model engine (model-answer.ts) writes its answer from the same facts.
 */
import { materialsOf } from '../prompts/product-words';
import { dedupeKey, upperFirst } from '../generate/text';
import { oneLine } from '../site/html';
import { bulletParts, cleanSentence, quotedSentence, repairCharacters, standAlone, withoutConnective, type Subject } from '../text/repair';
import { CARE, ORIGIN, USE } from './facets';
import { writeComparison } from './compare';
import { writeFamily } from './family-answer';
import { sourcesOf, theName, verbFor, type Fact } from './facts';
import type { AnswerBlock, Question, WrittenAnswer } from './questions-and-answers';

const MAX_FACTS = 5;

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

/** The product a quoted sentence's pronoun can stand for: a product question's subject. */
export function subjectOf(question: Question): Subject | null {
  const sheet = question.subjects.length === 1 ? question.subjects[0]! : null;
  return sheet ? { name: upperFirst(theName(sheet.label)), plural: verbFor(sheet.label) === 'are' } : null;
}

/** The text the answer's sentences come from, in the store's order: the subject's facts (a business question: its evidence). */
export function sourceOrder(question: Question): string[] {
  return (question.subjects[0]?.facts ?? question.evidence).map((f) => oneLine(f.text));
}

/**
 * Adds facts to a block, skipping any already said in the article. A sentence reads as the
 * store wrote it only after its own neighbour in `order` (the subject's text); elsewhere it is
 * made to stand alone or left out (core/text/repair.ts), and so is every list item.
 */
function blockOf(heading: string | null, facts: readonly Fact[], said: Set<string>, order: readonly string[], subject: Subject | null, max = MAX_FACTS): AnswerBlock {
  const block: AnswerBlock = { heading, sentences: [], items: [] };
  let previous: string | null = null;
  for (const fact of facts) {
    if (block.sentences.length + block.items.length >= max) break;
    const key = dedupeKey(fact.text);
    if (said.has(key)) continue;
    const text = oneLine(fact.text);
    if (fact.sentence) {
      const quoted = quotedSentence(text, previous, order, subject);
      if (!quoted) continue;
      block.sentences.push(quoted);
      previous = text;
    } else {
      // A list item stands alone ("Also suitable as wall lighting"); "• A • B" is two items.
      const items = bulletParts(repairCharacters(text)).flatMap((item) => standAlone(item, subject) ?? []);
      if (!items.length) continue;
      block.items.push(...items.slice(0, max - block.sentences.length - block.items.length));
    }
    said.add(key);
  }
  return block;
}

/**
 * Questions every engine answers extractively: a comparison's sentences are the store's values
 * side by side and a family page is its members' links and live offers; a model could only
 * paraphrase them, and a paraphrase can drop a value or a link.
 */
export function answeredFromValues(question: Question): boolean {
  return question.intent === 'comparison' || question.intent === 'family';
}

export function writeExtractiveAnswer(question: Question): WrittenAnswer {
  const said = new Set<string>();
  if (question.intent === 'comparison') return writeComparison(question);
  if (question.intent === 'family') return writeFamily(question);
  if (question.intent === 'choice') {
    const items = question.subjects.flatMap((sheet) => {
      // Each product by a sentence of its own not said yet: products sharing one description are left out.
      const fact = sheet.facts.find((f) => !said.has(dedupeKey(f.text)));
      if (!fact) return [];
      said.add(dedupeKey(fact.text));
      // After the product's name a pronoun has its antecedent; a connective still leans on nothing.
      return [`${oneLine(sheet.product.name)}: ${withoutConnective(cleanSentence(oneLine(fact.text)))}`];
    });
    // "Which should I choose?" is answered by two products or more, each by its own words.
    return { blocks: items.length >= 2 ? [{ heading: null, sentences: [], items }] : [], uncovered: [], sources: sourcesOf(question.evidence), engine: 'extractive' };
  }
  // What the lead says is not said again below it ("comes in two colors (Navy and Bone)").
  said.add(dedupeKey(question.lead.text));
  const block = blockOf(null, ranked(question.evidence, question), said, sourceOrder(question), subjectOf(question));
  return { blocks: [block], uncovered: [], sources: sourcesOf(question.evidence), engine: 'extractive' };
}

/** The lead as a sentence, without its live stock (what the description, the gate and the shingles read). */
export function leadSentence(answer: WrittenAnswer): string {
  return answer.lead ? `${answer.lead.text}.` : '';
}

/** The answer as plain text, one line per sentence group or item (what the gate and the shingles read). */
export function answerText(answer: WrittenAnswer): string {
  // A member's offer and the lead's stock are left out: prices change without the page's words changing.
  return [leadSentence(answer), ...answer.blocks.flatMap((b) => [b.heading ?? '', b.sentences.join(' '), ...b.items, ...(b.members ?? []).map((m) => (m.detail ? `${m.label}: ${m.detail}` : m.label))])]
    .concat(answer.uncovered).filter(Boolean).join('\n');
}
