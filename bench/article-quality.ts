/**
 * What the AI articles of a store are worth to their readers (issue 20, D35), as figures:
 * the articles a first daily run publishes for a store, measured as a merchant, a search
 * engine and an AI assistant would judge them. Pure measures over the article pages and the
 * store's own catalogue; `measureArticleQuality` never asserts (tests assert on its figures).
 *
 *   published        articles written (the quota is a ceiling, D35)
 *   answering        share whose answer addresses the facet of their title (quality.ts)
 *   offTopic         sentences of a product article taken from another product's description
 *                    (a comparison's counterpart excepted), and the articles holding one
 *   nearCopies       pairs of articles whose answers' 5-word shingles reach Jaccard 0.8,
 *                    articles with such a twin, and the median similarity of two articles
 *                    of the same product; and the pairs that reach it once every product
 *                    name of the catalogue reads as one word (answers alike but for the
 *                    product they name: template pages)
 *   perFact          articles per distinct store sentence quoted across them (67 articles on
 *                    4 sentences is scaled content)
 */
import { answersFacet, articleAnswerText, facetWords } from '../functions/core/articles/quality';
import { withoutNames } from '../functions/core/articles/gate';
import { jaccard, NEAR_COPY_JACCARD, shingleHashes } from '../functions/core/articles/shingles';
import { dedupeKey, markdownToText, splitSentences } from '../functions/core/generate/text';
import type { CatalogProduct } from '../functions/core/site/types';
import { withoutConnective } from '../functions/core/text/repair';
import { median } from './lib';

/** The line an answer ends with when the store says no more ("The store's information does not say more about X than this."). */
const NOT_SAID = /^The store(?:'s information)? does not say\b/;

export interface MeasuredArticle {
  title: string;
  /** The product's slug; null for a business article. */
  productId: string | null;
  /** The article page. */
  html: string;
}

export interface ArticleQuality {
  published: number;
  products: number;
  answering: number;
  notAnsweringExamples: string[];
  offTopicSentences: number;
  offTopicArticles: number;
  nearCopyPairs: number;
  nearCopyPairsNamesMasked: number;
  articlesWithNearTwin: number;
  medianSameProductSimilarity: number;
  distinctFacts: number;
  articlesPerFact: number;
}

/** Sentences of every product description, by their key, with the products stating them. */
function sentenceOwners(products: readonly CatalogProduct[]): Map<string, Set<string>> {
  const owners = new Map<string, Set<string>>();
  for (const p of products) {
    // A sentence as an article may quote it too: its leading connective removed (core/text/repair.ts).
    for (const s of splitSentences(markdownToText(p.description)).flatMap((s) => [s, withoutConnective(s)])) {
      const key = dedupeKey(s);
      if (key.split(' ').length < 4) continue;
      const set = owners.get(key) ?? new Set<string>();
      set.add(p.productId);
      owners.set(key, set);
    }
  }
  return owners;
}

/** Products a title names in full besides the subject: the counterpart of a comparison. */
function namedProducts(title: string, products: readonly CatalogProduct[], subject: string | null): Set<string> {
  const key = ` ${dedupeKey(title)} `;
  return new Set(products.filter((p) => p.productId !== subject && key.includes(` ${dedupeKey(p.name)} `)).map((p) => p.productId));
}

export function measureArticleQuality(articles: readonly MeasuredArticle[], products: readonly CatalogProduct[]): ArticleQuality {
  const byId = new Map(products.map((p) => [p.productId, p]));
  const owners = sentenceOwners(products);
  const names = products.map((p) => p.name);
  const measured = articles.map((a) => {
    const answer = articleAnswerText(a.html);
    const product = a.productId ? byId.get(a.productId) ?? null : null;
    const subject = product ? [product.name, product.productType, product.vendor] : [];
    return {
      ...a, answer, shingles: shingleHashes(answer), masked: shingleHashes(withoutNames(answer, names)),
      // What the store does not say restates the question's words: it answers nothing.
      answered: answersFacet(facetWords(a.title, subject), answer.split('\n').filter((line) => !NOT_SAID.test(line)).join('\n')),
    };
  });
  let offTopicSentences = 0;
  let offTopicArticles = 0;
  const facts = new Set<string>();
  for (const a of measured) {
    const allowed = namedProducts(a.title, products, a.productId);
    if (a.productId) allowed.add(a.productId);
    let off = 0;
    for (const sentence of a.answer.split('\n').flatMap((line) => splitSentences(line))) {
      const key = dedupeKey(sentence);
      const stated = owners.get(key);
      if (!stated) continue;
      facts.add(key);
      if (a.productId && ![...stated].some((id) => allowed.has(id))) off++;
    }
    offTopicSentences += off;
    if (off) offTopicArticles++;
  }
  let nearCopyPairs = 0;
  let nearCopyPairsNamesMasked = 0;
  const twins = new Set<number>();
  const sameProduct: number[] = [];
  for (let i = 0; i < measured.length; i++) {
    for (let j = i + 1; j < measured.length; j++) {
      const a = measured[i]!;
      const b = measured[j]!;
      const similarity = jaccard(a.shingles, b.shingles);
      if (similarity >= NEAR_COPY_JACCARD) {
        nearCopyPairs++;
        twins.add(i).add(j);
      }
      if (jaccard(a.masked, b.masked) >= NEAR_COPY_JACCARD) nearCopyPairsNamesMasked++;
      if (a.productId && a.productId === b.productId) sameProduct.push(similarity);
    }
  }
  return {
    published: articles.length,
    products: new Set(articles.map((a) => a.productId).filter(Boolean)).size,
    answering: measured.length ? measured.filter((a) => a.answered).length / measured.length : 1,
    notAnsweringExamples: measured.filter((a) => !a.answered).slice(0, Number(process.env.BENCH_EXAMPLES ?? 5)).map((a) => a.title),
    offTopicSentences,
    offTopicArticles,
    nearCopyPairs,
    nearCopyPairsNamesMasked,
    articlesWithNearTwin: twins.size,
    medianSameProductSimilarity: sameProduct.length ? median(sameProduct) : 0,
    distinctFacts: facts.size,
    articlesPerFact: facts.size ? articles.length / facts.size : articles.length,
  };
}

export function articleQualityLine(q: ArticleQuality): string {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  return `${q.published} articles over ${q.products} products; answering their facet ${pct(q.answering)}; ` +
    `off-topic sentences ${q.offTopicSentences} in ${q.offTopicArticles} articles; near-copy pairs (>= ${NEAR_COPY_JACCARD}) ${q.nearCopyPairs} ` +
    `(${q.nearCopyPairsNamesMasked} with product names masked), ` +
    `${q.articlesWithNearTwin} articles with a twin, median same-product similarity ${q.medianSameProductSimilarity.toFixed(3)}; ` +
    `${q.articlesPerFact.toFixed(1)} articles per distinct store fact (${q.distinctFacts} facts)`;
}
