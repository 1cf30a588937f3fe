/**
 * A comparison that compares (D37): the attributes two products' store texts both state
 * (attributes.ts), each difference said in one sentence naming both products with both values,
 * then what they share, then which suits whom where the store's own words say so. Published
 * only with at least `MIN_DIFFERENCES` stated differences: two descriptions side by side, or
 * two prints of one mat, compare nothing.
 *
 *   "The Kiso 210 mm Gyuto is hardened to 60 HRC, while the Brenner 8-inch Chef's Knife is
 *    hardened to 56 HRC."   "Both are made of stainless steel."
 *   "The store suggests the Brenner 6-inch Chef's Knife for small hands; it says nothing of the kind about ..."
 */
import { upperFirst } from '../generate/text';
import { differ, says, type Attribute, type AttributeKey } from '../products/attributes';
import { audiencesIn } from './facets';
import { attributesOfSheet, sourcesOf, theName, verbFor, type ProductSheet } from './facts';
import { optionDifferences } from './options';
import { MIN_DIFFERENCES, type AnswerBlock, type MemberLine, type Question, type WrittenAnswer } from './questions-and-answers';
import { offerText } from '../site/offer-slots';

export interface ComparedAttributes {
  differences: Array<{ key: AttributeKey; a: Attribute; b: Attribute }>;
  shared: Attribute[];
}

/**
 * The order a comparison states its differences in: the specs a shopper chooses by (power,
 * brightness, protection, size, capacity, battery) before the material, care and the rest.
 */
const DIFFERENCE_ORDER: readonly AttributeKey[] = ['power', 'brightness', 'rating', 'capacity', 'dimensions', 'battery', 'cold', 'hot', 'weight', 'thickness', 'length', 'hardness', 'material', 'warranty', 'care', 'origin', 'parts'];
const rank = (key: AttributeKey) => DIFFERENCE_ORDER.indexOf(key);

/** The attributes both products state, split into those whose values differ (the ones that matter first) and those they share. */
export function comparedAttributes(a: ProductSheet, b: ProductSheet): ComparedAttributes {
  const out: ComparedAttributes = { differences: [], shared: [] };
  const ofB = attributesOfSheet(b);
  for (const [key, x] of attributesOfSheet(a)) {
    const y = ofB.get(key);
    if (!y) continue;
    if (x.norm === y.norm) out.shared.push(x);
    else if (differ(x, y)) out.differences.push({ key, a: x, b: y });
  }
  out.differences.sort((x, y) => rank(x.key) - rank(y.key));
  return out;
}

const plural = (sheet: ProductSheet) => verbFor(sheet.label) === 'are';

/** "The A is hardened to 60 HRC, while the B is hardened to 56 HRC." */
function differenceSentence(a: ProductSheet, b: ProductSheet, d: ComparedAttributes['differences'][number]): string {
  return `${upperFirst(theName(a.label))} ${says(d.a, plural(a))}, while ${theName(b.label)} ${says(d.b, plural(b))}.`;
}

/** Who the store says each one is for, where it says so of one and not the other. */
function suitsWhom(a: ProductSheet, b: ProductSheet): string[] {
  const of = (s: ProductSheet) => [...new Set(s.facts.flatMap((f) => audiencesIn(f.text)))];
  const [forA, forB] = [of(a), of(b)];
  const onlyA = forA.filter((x) => !forB.includes(x));
  const onlyB = forB.filter((x) => !forA.includes(x));
  if (onlyA.length && onlyB.length) return [`The store suggests ${theName(a.label)} for ${onlyA[0]} and ${theName(b.label)} for ${onlyB[0]}.`];
  const [who, sheet, other] = onlyA.length ? [onlyA[0], a, b] : onlyB.length ? [onlyB[0], b, a] : [null, a, b];
  return who ? [`The store suggests ${theName(sheet.label)} for ${who}; it says nothing of the kind about ${theName(other.label)}.`] : [];
}


/** A compared product with its live price and stock (every publish refreshes them: core/site/offer-slots.ts, D36). */
function offerLine(sheet: ProductSheet): MemberLine {
  return { productId: sheet.product.productId, label: sheet.label, path: sheet.page?.path ?? null, url: sheet.product.url, detail: '', offer: offerText(sheet.product) };
}

/** The extractive answer of a comparison (see the header); no blocks when it has too few differences. */
export function writeComparison(question: Question): WrittenAnswer {
  const [a, b] = question.subjects as [ProductSheet, ProductSheet];
  const compared = comparedAttributes(a, b);
  if (compared.differences.length < MIN_DIFFERENCES) return { blocks: [], uncovered: [], sources: [], engine: 'extractive' };
  const options = optionDifferences(a, b);
  const blocks: AnswerBlock[] = [
    { heading: 'How they differ', sentences: compared.differences.map((d) => differenceSentence(a, b, d)), items: [] },
    // Both prices and both stocks (issue 45): what a shopper choosing between two weighs first.
    { heading: 'Price and stock', sentences: [], items: [], members: [offerLine(a), offerLine(b)] },
    { heading: 'What they share', sentences: compared.shared.map((s) => `Both ${says(s, true)}.`), items: [] },
    { heading: 'Options', sentences: options.differ ? options.sentences : [], items: [] },
    { heading: 'Which suits whom', sentences: suitsWhom(a, b), items: [] },
  ].filter((block) => block.sentences.length || block.members?.length);
  return { blocks, uncovered: [], sources: sourcesOf([...a.facts, ...b.facts]), engine: 'extractive' };
}
