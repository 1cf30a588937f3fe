/**
 * Rough text in published articles (issue 45, item 5), counted by sentence as a reader finds it:
 *
 *   openers     a sentence opening with a connective ("Moreover,", "Therefore,", "Also," ...)
 *               where it opens a paragraph or follows a sentence that is not its neighbour in
 *               the store's description (it connects to nothing the reader saw)
 *   pronouns    a sentence opening with a pronoun ("They", "It", "Its", "This is" ...) in the same
 *               place: nothing in the answer says what it stands for
 *   characters  mis-decoded text: "‚" between letters (for ’), "â€™", "Ã©", a stray "Â"
 *   bullets     bullet glyphs left in a sentence or list item ("• text •"), or a typed "- " opening one
 *
 * Judged apart from the writers (core/text/repair.ts): its own patterns, wider than theirs, so a
 * miss of the repair shows here. Pure; never asserts.
 */
import { articleAnswerText } from '../functions/core/articles/quality';
import { dedupeKey, markdownToText, splitSentences } from '../functions/core/generate/text';
import type { CatalogProduct } from '../functions/core/site/types';

export interface RoughText {
  openers: number;
  pronouns: number;
  characters: number;
  bullets: number;
  /** Articles holding at least one rough sentence. */
  articles: number;
  examples: string[];
}

const OPENER = /^(?:moreover|therefore|additionally|also|however|furthermore|plus|in addition|besides|thus|hence|consequently|as a result|on top of that|what(?:'|’)s more|that said|likewise|similarly|meanwhile|as well|and|but|so|then|otherwise|instead|finally|lastly)\b,?/i;
/** A pronoun subject, or "This"/"These" used as one ("This means ...", not "This tumbler ..."). */
const PRONOUN = /^(?:they|it|its|their|they(?:'|’)re|it(?:'|’)s|(?:this|these|those|that) (?:is|are|was|were|has|have|means|makes|allows|ensures|gives|helps|lets|provides|keeps|comes|come|can|will|also|includes|features))\b/i;
/** "It is important to ...": a sentence whose "it" stands for what follows, not for anything before. */
const DUMMY_IT = /^it(?: is|(?:'|’)s)(?: not)? (?:\w+ )?(?:important|recommended|advisable|advised|necessary|essential|possible|a good idea|best|worth) (?:to|that|noting)\b/i;
const MISDECODED = /\p{L}\u201a\p{L}|â€|Ã[\u0080-\u00bf©¨§¤¶¼½¾]|Â[\u00a0-\u00bf ]|\ufffd/u;
/** A bullet glyph anywhere, or a typed list marker opening the text ("- name of the product"). */
const BULLET = /[•▪◦‣]|^[-*–—]\s/;

/** For each sentence of the store's descriptions (by key), the keys of the few sentences before it: its own context. */
function neighbours(products: readonly CatalogProduct[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of products) {
    const keys = splitSentences(markdownToText(p.description)).map(dedupeKey);
    keys.forEach((key, i) => {
      const set = out.get(key) ?? new Set<string>();
      for (const k of keys.slice(Math.max(0, i - 3), i)) set.add(k);
      out.set(key, set);
    });
  }
  return out;
}

export function measureRoughText(articles: ReadonlyArray<{ html: string }>, products: readonly CatalogProduct[]): RoughText {
  const near = neighbours(products);
  const out: RoughText = { openers: 0, pronouns: 0, characters: 0, bullets: 0, articles: 0, examples: [] };
  for (const a of articles) {
    let rough = 0;
    for (const line of articleAnswerText(a.html).split('\n')) {
      const sentences = splitSentences(line);
      sentences.forEach((s, i) => {
        const previous = i > 0 ? dedupeKey(sentences[i - 1]!) : null;
        const inContext = previous !== null && (near.get(dedupeKey(s))?.has(previous) ?? false);
        const found = [
          !inContext && OPENER.test(s) && 'openers',
          !inContext && PRONOUN.test(s) && !DUMMY_IT.test(s) && 'pronouns',
          MISDECODED.test(s) && 'characters',
          BULLET.test(s) && 'bullets',
        ].filter((k): k is 'openers' | 'pronouns' | 'characters' | 'bullets' => Boolean(k));
        for (const k of found) out[k]++;
        if (found.length) {
          rough++;
          if (out.examples.length < Number(process.env.BENCH_EXAMPLES ?? 5)) out.examples.push(`${found.join('+')}: ${s.slice(0, 120)}`);
        }
      });
    }
    if (rough) out.articles++;
  }
  return out;
}

export function roughTextLine(r: RoughText): string {
  return `rough text: ${r.openers + r.pronouns + r.characters + r.bullets} sentences in ${r.articles} articles (openers ${r.openers}, pronouns without antecedent ${r.pronouns}, mis-decoded characters ${r.characters}, bullet debris ${r.bullets})`;
}
