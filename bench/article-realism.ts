/**
 * What a shopper would make of a store's articles on a real catalogue (issue 33, D37), as
 * figures that do not trust the generator: families found in the catalogue (core/articles/
 * families.ts), family pages, comparisons and how many of them compare two members of one
 * family, how many state at least two differences with values (a sentence naming both
 * products that carries a word or figure only the first one's store text has and one only the
 * second one's has: "60 HRC" against "56 HRC"), need questions ("good for X?") and how many
 * name a need of the curated vocabulary (core/articles/needs.ts). Pure measures.
 */
import { articleAnswerText } from '../functions/core/articles/quality';
import { productFamilies, sameFamily } from '../functions/core/articles/families';
import { needOfPhrase } from '../functions/core/articles/needs';
import { dedupeKey, markdownToText, splitSentences } from '../functions/core/generate/text';
import type { CatalogProduct } from '../functions/core/site/types';

export interface RealismArticle {
  title: string;
  /** The question's intent ('comparison', 'need', 'family', ...). */
  intent: string;
  /** The products it is about (a comparison: both). */
  subjectIds: string[];
  html: string;
}

export interface ArticleRealism {
  families: number;
  familyMembers: number;
  familyPages: number;
  comparisons: number;
  comparisonsInFamily: number;
  comparisonsWithTwoDifferences: number;
  needQuestions: number;
  needQuestionsInVocabulary: number;
  examples: { inFamily: string[]; withoutDifferences: string[]; outsideVocabulary: string[] };
}

/** "10 x 8" → "10x8", "60 HRC" → "60hrc", "8-inch" → "8inch": a value reads as one token. */
function values(text: string): string {
  return text.toLowerCase()
    .replace(/(\d+(?:\.\d+)?)\s*(?:mm|cm|m|ft|in|")?\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm|cm|m|ft|in|")?(?:\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm|cm|m|ft|in|")?)?/g, (_m, a: string, b: string, c?: string) => ` ${[a, b, c].filter(Boolean).join('x')} `)
    .replace(/(\d+(?:\.\d+)?)\s*-?\s*(mm|cm|m|kg|g|oz|qt|ml|l|hrc|inch|inches|in|hours|w|lbs?|litres?|ft)\b/g, '$1$2');
}

function tokens(text: string): Set<string> {
  return new Set(values(text).split(/[^\p{L}\p{N}.]+/u).map((t) => t.replace(/^\.+|\.+$/g, '')).filter((t) => t.length >= 2 || /\d/.test(t)));
}

/** Every word the store wrote about a product: name, type, description, option values. */
function storeTokens(p: CatalogProduct): Set<string> {
  return tokens([p.name, p.productType, markdownToText(p.description), ...(p.variants ?? []).flatMap((v) => v.options)].join(' '));
}

function withoutName(sentence: string, name: string): string {
  const i = sentence.toLowerCase().indexOf(name.toLowerCase());
  return i < 0 ? sentence : sentence.slice(0, i) + ' ' + sentence.slice(i + name.length);
}

/** A product's name as a title writes it (facts.ts drops brackets, pipes and quotes). */
function titleName(name: string): string {
  return name.replace(/[?{}<>[\]|\\"]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Sentences naming both products with a value only the first has and one only the second has. */
export function differenceSentences(answer: string, a: CatalogProduct, b: CatalogProduct): number {
  const ta = storeTokens(a);
  const tb = storeTokens(b);
  let n = 0;
  for (const sentence of answer.split('\n').flatMap((l) => splitSentences(l))) {
    const lower = sentence.replace(/\s+/g, ' ').toLowerCase();
    const [na, nb] = [titleName(a.name), titleName(b.name)];
    if (!lower.includes(na) || !lower.includes(nb)) continue;
    const rest = tokens(withoutName(withoutName(lower, na), nb));
    const onlyA = [...rest].some((t) => ta.has(t) && !tb.has(t));
    const onlyB = [...rest].some((t) => tb.has(t) && !ta.has(t));
    if (onlyA && onlyB) n++;
  }
  return n;
}

export function measureArticleRealism(articles: readonly RealismArticle[], products: readonly CatalogProduct[]): ArticleRealism {
  const families = productFamilies(products);
  const byId = new Map(products.map((p) => [p.productId, p]));
  const out: ArticleRealism = {
    families: families.families.length, familyMembers: families.of.size, familyPages: 0, comparisons: 0, comparisonsInFamily: 0,
    comparisonsWithTwoDifferences: 0, needQuestions: 0, needQuestionsInVocabulary: 0, examples: { inFamily: [], withoutDifferences: [], outsideVocabulary: [] },
  };
  const seenFamilies = new Set<string>();
  for (const a of articles) {
    if (a.intent === 'family') {
      out.familyPages++;
      seenFamilies.add(dedupeKey(a.title));
    }
    const need = /^(?:Is|Are)\s.+?\sgood for (.+)\?$/.exec(a.title);
    if (need && a.intent !== 'comparison') {
      out.needQuestions++;
      if (needOfPhrase(need[1]!)) out.needQuestionsInVocabulary++;
      else if (out.examples.outsideVocabulary.length < 5) out.examples.outsideVocabulary.push(a.title);
    }
    if (a.intent !== 'comparison') continue;
    out.comparisons++;
    const [x, y] = a.subjectIds.map((id) => byId.get(id));
    if (!x || !y) continue;
    if (sameFamily(families, x.productId, y.productId)) {
      out.comparisonsInFamily++;
      if (out.examples.inFamily.length < 3) out.examples.inFamily.push(a.title);
    }
    if (differenceSentences(articleAnswerText(a.html), x, y) >= 2) out.comparisonsWithTwoDifferences++;
    else if (out.examples.withoutDifferences.length < 3) out.examples.withoutDifferences.push(a.title);
  }
  return out;
}

export function articleRealismLine(r: ArticleRealism): string {
  const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(0)}%` : 'n/a');
  return `families ${r.families} (${r.familyMembers} products), family pages ${r.familyPages}; comparisons ${r.comparisons}, inside a family ${r.comparisonsInFamily}, ` +
    `stating 2+ differences with both values ${pct(r.comparisonsWithTwoDifferences, r.comparisons)}; need questions ${r.needQuestions}, from the vocabulary ${pct(r.needQuestionsInVocabulary, r.needQuestions)}`;
}
