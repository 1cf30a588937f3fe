/**
 * The retriever of the answerability bench (answerability.ts): documents cut into ~90-word
 * passages, each headed by its document's title, ranked by BM25 (k1 1.2, b 0.75) for a query.
 * Tokens: lowercase runs of letters and digits, a decimal kept whole ("55.00", "1,299.00" →
 * "1299.00"; "$" and "£" are not part of a token), a short English stop-word list dropped. Pure.
 */

/** A document as a retriever reads it: its title and its text as one string. */
export interface RetrievalDocument {
  /** Where it is served, e.g. `/llms/blue-mug.txt`. */
  path: string;
  title: string;
  text: string;
}

export interface Passage {
  path: string;
  /** The document's title, a space, then the passage's words. */
  text: string;
}

export const PASSAGE_WORDS = 90;

/**
 * A document's words in consecutive passages of about `words` words (all passages of one
 * document of equal length, give or take one), each prefixed with the document's title.
 */
export function passagesOf(doc: RetrievalDocument, words = PASSAGE_WORDS): Passage[] {
  const all = doc.text.split(/\s+/).filter(Boolean);
  const count = Math.max(1, Math.round(all.length / words));
  const size = Math.ceil(all.length / count);
  const out: Passage[] = [];
  for (let at = 0; at < all.length || out.length === 0; at += size) {
    out.push({ path: doc.path, text: `${doc.title} ${all.slice(at, at + size).join(' ')}`.trim() });
    if (size === 0) break;
  }
  return out;
}

const STOP_WORDS = new Set(
  ('a an and are as at be but by can do does for from has have how i if in into is it its me much my no not of on or our ' +
    'so than that the their them then there these they this to was we were what when where which who why will with you your').split(' '),
);

/** Lowercase tokens of a text, stop words dropped (see the header). */
export function tokens(text: string): string[] {
  const found = text.toLowerCase().replace(/(\d),(?=\d{3}(?!\d))/g, '$1').match(/[\p{L}\p{N}]+(?:\.\p{N}+)*/gu) ?? [];
  return found.filter((t) => !STOP_WORDS.has(t));
}

export interface Bm25Index {
  /** Indices of the `k` best texts for a query, best first (ties: the earlier text). */
  search(query: string, k: number): number[];
}

export function bm25Index(texts: readonly string[], k1 = 1.2, b = 0.75): Bm25Index {
  const postings = new Map<string, Array<[number, number]>>();
  const lengths = new Float64Array(texts.length);
  texts.forEach((text, i) => {
    const counts = new Map<string, number>();
    const toks = tokens(text);
    lengths[i] = toks.length;
    for (const t of toks) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, tf] of counts) {
      const list = postings.get(t);
      if (list) list.push([i, tf]);
      else postings.set(t, [[i, tf]]);
    }
  });
  const n = texts.length;
  const avgLength = lengths.reduce((s, l) => s + l, 0) / Math.max(1, n);
  const scores = new Float64Array(n);
  return {
    search(query, k) {
      if (k <= 0) return [];
      const touched: number[] = [];
      for (const term of new Set(tokens(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
        for (const [i, tf] of list) {
          if (scores[i] === 0) touched.push(i);
          scores[i] += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[i]) / avgLength));
        }
      }
      const best: number[] = [];
      const before = (x: number, y: number) => scores[x] > scores[y] || (scores[x] === scores[y] && x < y);
      for (const i of touched) {
        if (best.length === k && !before(i, best[k - 1]!)) continue;
        let at = Math.min(best.length, k - 1);
        best[at] = i;
        while (at > 0 && before(best[at]!, best[at - 1]!)) {
          [best[at], best[at - 1]] = [best[at - 1]!, best[at]!];
          at--;
        }
      }
      for (const i of touched) scores[i] = 0;
      return best;
    },
  };
}
