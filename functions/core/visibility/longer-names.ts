/**
 * Where a name is written in a text, and which of those places are the name itself rather
 * than a longer name containing it or an ordinary word (issue 21, point 1). Pure.
 *
 * An occurrence found by the service's name matcher (core/text/name-match) does not count
 * when
 * - it is followed (after an optional possessive, spaces only) by a capitalised word that is
 *   not a legal-form word (Co., Inc., LLC, ...), not a word of the store's own names (its
 *   full name, counted aliases) and not the start of one of its product names in full: "Harbor & Pine Outfitters" is another
 *   company when the store is "Harbor & Pine Coffee Co.", "Harbor & Pine Coffee" is the
 *   store. In a Title Case line ("## Why Harbor & Pine Stands Out") only a company word
 *   (Trading, Outfitters, Supply, Roasters, ...) makes it another company; or
 * - the name is a single word, or an alias (not the full name), written capitalised by the
 *   store ("Ember", "Blue Kettle") and the text writes it all in lower case ("a glowing
 *   ember", "a blue kettle on the stove"): ordinary words. The full name of two words or
 *   more still counts in any case ("harbor and pine coffee").
 */
import { findName, fold, foldWithOffsets, nameMatcher, nameTokens } from '../text/name-match';

const LEGAL = new Set(['co', 'company', 'inc', 'incorporated', 'llc', 'ltd', 'limited', 'corp', 'corporation', 'gmbh', 'plc', 'pty', 'bv', 'srl', 'sa', 'ag', 'llp']);
/** Words that make a longer company name even in a Title Case line. */
const COMPANY_WORDS = new Set([
  'trading', 'outfitters', 'outfitter', 'supply', 'supplies', 'goods', 'roasters', 'roastery', 'brewing', 'brewery', 'studio', 'studios',
  'labs', 'lab', 'group', 'holdings', 'industries', 'works', 'workshop', 'collective', 'partners', 'ventures', 'enterprises', 'brands',
  'outdoors', 'apparel', 'mercantile', 'provisions', 'market', 'emporium', 'store', 'shop', 'boutique', 'gallery', 'design', 'designs',
  'international', 'global', 'capital', 'realty', 'properties', 'media', 'systems', 'solutions', 'foods', 'farms', 'kitchen', 'bakery',
  'cafe', 'coffee', 'tea', 'wines', 'winery', 'distillery', 'inn', 'hotel', 'resort', 'club', 'academy', 'school', 'clinic', 'books',
]);
/** Capitalised words that follow a name without extending it. */
const NEVER_EXTEND = new Set(['i', 'im', 'ive', 'id', 'ill']);

/** The places `name` is written in `text`: [start, end) of `text`. */
function nameOccurrences(text: string, name: string): Array<[number, number]> {
  const re = name.trim() ? nameMatcher(name) : null;
  if (!re || !text) return [];
  const out = new Map<number, [number, number]>();
  for (const drop of [false, true]) {
    const { folded, offsets } = foldWithOffsets(text, drop);
    for (const m of folded.matchAll(new RegExp(re.source, 'gu'))) {
      const s = m.index ?? 0;
      if (!out.has(offsets[s])) out.set(offsets[s], [offsets[s], offsets[s + m[0].length]]);
    }
  }
  return [...out.values()].sort((a, b) => a[0] - b[0]);
}

function lineAround(text: string, at: number): string {
  const a = text.lastIndexOf('\n', at - 1) + 1;
  const b = text.indexOf('\n', at);
  return text.slice(a, b < 0 ? text.length : b);
}

/** Most of the line's longer words capitalised: a heading or title, where capitals say nothing. */
function titleCase(line: string, occurrence: string): boolean {
  if (/^\s*#{1,6}\s/.test(line)) return true; // a markdown heading
  const words = line.replace(occurrence, ' ').match(/\p{L}[\p{L}'’]{2,}/gu) ?? [];
  if (words.length < 3) return false;
  return words.filter((w) => /^\p{Lu}/u.test(w)).length / words.length >= 0.6;
}

export interface OwnWords {
  /** Folded tokens of the store's own names (full name, counted aliases). */
  words: ReadonlySet<string>;
  /** The store's product names: a name followed by one of them in full is the store ("Larkspur & Finch Meadowlark Weekender Bag"). */
  products: readonly string[];
}

export function ownWordsOf(names: readonly string[], products: readonly string[] = []): OwnWords {
  return { words: new Set(names.flatMap((n) => nameTokens(n))), products };
}

/** Whether the occurrence [start, end) of `name` in `text` is the name itself (see the module comment). */
function occurrenceCounts(text: string, name: string, [start, end]: [number, number], own: OwnWords, alias = false): boolean {
  const written = text.slice(start, end);
  const tokens = nameTokens(name).filter((t) => !LEGAL.has(t));
  if ((alias || tokens.length === 1) && /\p{Lu}/u.test(name) && !/\p{Lu}/u.test(written)) return false;
  const after = /^(?:['’]s)?[ \t]+([\p{L}][\p{L}\p{N}'’.-]*)/u.exec(text.slice(end));
  if (!after) return true;
  const next = after[1];
  if (!/^\p{Lu}/u.test(next)) return true;
  const word = fold(next).replace(/[^\p{L}\p{N}]/gu, '');
  if (!word || LEGAL.has(word) || NEVER_EXTEND.has(word) || own.words.has(word)) return true;
  const rest = text.slice(end + after.index + after[0].length - next.length, end + 200);
  if (own.products.some((p) => findName(rest, p) === 0)) return true;
  if (titleCase(lineAround(text, start), written)) return !COMPANY_WORDS.has(word);
  return false;
}

/** Whether `text` writes `name` at least once as the name itself. */
export function namesIt(text: string, name: string, own: OwnWords, alias = false): boolean {
  return nameOccurrences(text, name).some((o) => occurrenceCounts(text, name, o, own, alias));
}
