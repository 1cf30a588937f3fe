/**
 * THE business-name matcher of the service (one home): whether a text names a business,
 * brand or product, in any casing, spacing, punctuation or possessive form, whole words
 * only. Prompt generation uses it to keep the name out of tracked prompts
 * (core/prompts/strategy.ts, offline-prompts.ts, adapters/external/model/prompt-model.ts);
 * the visibility engine uses it to find the entity and its competitors in AI answers
 * (core/visibility/mention-matcher.ts). Pure: no I/O.
 */


/** Words that join the parts of a name: "Harbor & Pine", "Harbor and Pine", "Rock 'n' Roll". */
const CONNECTORS = ['and', 'n', 'of', 'the'];
/** Function words: never distinctive, dropped at the edges of a name. */
const STOP_WORDS = new Set(['the', 'a', 'an', 'and', 'n', 'of', 'by', 'for', 'at', 'in', 'on', 'to', 'with', 'my', 'our', 'your']);
/** Legal-form suffixes: people leave them out when they say the name, so they are dropped. */
const LEGAL_WORDS = new Set(['co', 'company', 'inc', 'incorporated', 'llc', 'ltd', 'limited', 'corp', 'corporation', 'gmbh', 'plc', 'pty', 'bv', 'srl', 'sa', 'ag', 'llp']);
/** Generic shop words: a name made only of these (and stop words) is not distinctive. */
const GENERIC_WORDS = new Set([
  'shop', 'shoppe', 'store', 'stores', 'boutique', 'market', 'marketplace', 'outlet', 'online', 'official', 'brand', 'brands',
  'goods', 'supply', 'supplies', 'studio', 'house', 'collective', 'emporium', 'mart', 'trading', 'group', 'site', 'web',
]);

/** Lower case, accents removed, apostrophes dropped ("Joe’s" → "joes"), CamelCase kept for `nameTokens`. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/['’‘`´]/g, '').toLowerCase();
}

/** "HarborPine Coffee" → ["harbor", "pine", "coffee"]; "&" and "+" read as "and". */
export function nameTokens(name: string): string[] {
  const split = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2') // CamelCase
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2'); // "ABCShop" → "ABC Shop"
  return fold(split)
    .replace(/[&+]/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How a name is matched (documented rule, see `containsName`): the token sequence
 * to look for, or null when the name cannot be told apart from ordinary language.
 */
export function nameMatcher(businessName: string): RegExp | null {
  const sequence = matchedTokens(businessName);
  if (!sequence) return null;
  // Between two tokens: any punctuation or spacing (or none: "HarborPine"), optionally a
  // connector word ("harbor and pine", "harbor-n-pine").
  const gap = `[^\\p{L}\\p{N}]*(?:(?:${CONNECTORS.join('|')})[^\\p{L}\\p{N}]*)?`;
  const body = sequence.map(escapeRegExp).join(gap);
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u');
}

/** The tokens every text that names `businessName` holds, in order (`nameMatcher`'s sequence); null when none can be told apart. */
export function matchedTokens(businessName: string): string[] | null {
  const all = nameTokens(businessName).filter((t) => !LEGAL_WORDS.has(t));
  // Stop words at the edges are not part of how the name is written in a query.
  let start = 0;
  let end = all.length;
  while (start < end && STOP_WORDS.has(all[start])) start++;
  while (end > start && STOP_WORDS.has(all[end - 1])) end--;
  let core = all.slice(start, end).filter((t) => !STOP_WORDS.has(t));
  // Generic shop words at the edges go too while two tokens remain ("Harbor & Pine Store"
  // → "harbor pine"); "Harbor Shop" keeps both, so the common word "harbor" alone never matches.
  while (core.length > 2 && GENERIC_WORDS.has(core[0]) && core.slice(1).some((t) => !GENERIC_WORDS.has(t))) core = core.slice(1);
  while (core.length > 2 && GENERIC_WORDS.has(core[core.length - 1]) && core.slice(0, -1).some((t) => !GENERIC_WORDS.has(t))) core = core.slice(0, -1);
  const distinctive = core.filter((t) => !GENERIC_WORDS.has(t));

  let sequence: string[];
  if (distinctive.length) {
    // Every non-stop token of the name, in order ("harbor pine", "blue bottle coffee").
    sequence = core;
  } else {
    // Only stop words and shop words ("The Shop", "The Store Co."): matching "shop" would
    // wipe out every prompt, so only the full written phrase, article included, counts —
    // and a one-word generic name ("Shop") is not matched at all.
    const phrase = nameTokens(businessName).filter((t) => !LEGAL_WORDS.has(t));
    if (phrase.length < 2) return null;
    sequence = phrase;
  }
  if (!sequence.length || sequence.join('').length < 2) return null;
  return sequence;
}

const matcherCache = new Map<string, RegExp | null>();

/** `nameMatcher`, memoised (bounded): the same names are checked against many texts. */
function cachedMatcher(name: string): RegExp | null {
  let re = matcherCache.get(name);
  if (re === undefined) {
    if (matcherCache.size > 500) matcherCache.clear();
    re = nameMatcher(name);
    matcherCache.set(name, re);
  }
  return re;
}

/**
 * Whether the text names the business (or any name: a brand, an alias, a competitor, a
 * product), in any casing, spacing or punctuation: for "Harbor & Pine" it catches
 * "harbor and pine", "HarborPine", "harbor-pine", "Harbor&Pine Coffee", "HARBOR + PINE",
 * "Harbor & Pine's".
 *
 * Rules:
 * - Tokens are compared case- and accent-insensitively; apostrophes are ignored
 *   ("Joe's" = "Joes", and a possessive "'s" after the name is allowed); "&" and "+" read
 *   as "and"; CamelCase names are split.
 * - Legal suffixes (Co., Inc., LLC, ...) are dropped, and stop words at the edges
 *   ("The ...", "... & Co").
 * - Generic shop words at the edges are dropped while two tokens remain ("Harbor & Pine
 *   Store" is caught as "harbor pine"; "Harbor Shop" stays "harbor shop").
 * - The remaining tokens must appear in order, whole words only (word boundaries at both
 *   ends, so "Pine" never matches "pineapple" and "Ember" never matches "remember"),
 *   separated by nothing, punctuation/spacing, or a connector word (and, n, of, the).
 * - A name made only of stop words and generic shop words ("The Shop", "The Store Co.")
 *   is matched only as its full written phrase ("the shop"); a single generic word
 *   ("Shop") is not matched, because it cannot be told apart from ordinary language.
 */
export function containsName(text: string, name: string): boolean {
  if (!name.trim() || !text) return false;
  const re = cachedMatcher(name);
  if (!re) return false;
  // Possessives: "Harbor & Pine's" is the name; "Joe's" folds to "joes" on both sides.
  return re.test(fold(text)) || re.test(fold(text.replace(/['’][sS](?![\p{L}\p{N}])/gu, '')));
}

/** Whether a prompt names the business: `containsName`, under the name prompt generation uses. */
export function containsBusinessName(prompt: string, businessName: string): boolean {
  return containsName(prompt, businessName);
}

/**
 * `fold`, one character at a time, with the index in `text` each folded character came
 * from; with `dropPossessive`, a possessive "'s" is left out (as `containsName` does).
 */
export function foldWithOffsets(text: string, dropPossessive: boolean): { folded: string; offsets: number[] } {
  let folded = '';
  const offsets: number[] = [];
  let i = 0;
  while (i < text.length) {
    const at = i;
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
    i += ch.length;
    if (dropPossessive && (ch === "'" || ch === '’') && /^[sS](?![\p{L}\p{N}])/u.test(text.slice(i, i + 3))) {
      i += 1; // the "s" goes too
      continue;
    }
    const f = fold(ch);
    for (let k = 0; k < f.length; k++) offsets.push(at);
    folded += f;
  }
  return { folded, offsets };
}

/**
 * Where `containsName` finds the name first: the index in `text` (as given, not folded),
 * or -1. For ordering names by first appearance.
 */
export function findName(text: string, name: string): number {
  if (!name.trim() || !text) return -1;
  const re = cachedMatcher(name);
  if (!re) return -1;
  let best = -1;
  for (const dropPossessive of [false, true]) {
    const { folded, offsets } = foldWithOffsets(text, dropPossessive);
    const m = re.exec(folded);
    if (m && (best < 0 || offsets[m.index] < best)) best = offsets[m.index];
  }
  return best;
}

/**
 * Replaces every occurrence `containsName` would find (any casing, spacing or
 * punctuation variant) by `replacement`: what is sent to a model never carries the name.
 */
export function replaceBusinessName(text: string, businessName: string, replacement: string): string {
  const re = businessName.trim() ? nameMatcher(businessName) : null;
  return re ? text.replace(new RegExp(re.source, 'giu'), replacement) : text;
}

/** The distinctive tokens of a name (what `containsName` looks for), for sharing checks. */
export function distinctiveTokens(name: string): string[] {
  return nameTokens(name).filter((t) => !LEGAL_WORDS.has(t) && !STOP_WORDS.has(t) && !GENERIC_WORDS.has(t));
}

const literalCache = new Map<string, RegExp>();

/** A name as written (any case), whole words only: "Mat" leaves "format" alone. Memoised (bounded). */
function literalName(name: string): RegExp {
  let re = literalCache.get(name);
  if (!re) {
    if (literalCache.size > 2000) literalCache.clear();
    re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'giu');
    literalCache.set(name, re);
  }
  return re;
}

/**
 * The text with each of `names` as written (any case, whole words, the longest first) replaced
 * by `by(match)`: read without the product names it says, for a check that must not count them
 * (a figure inside "Tidal Camp Mug 4", two answers that differ only by the product they name).
 */
export function replaceNames(text: string, names: readonly string[], by: (match: string) => string): string {
  return [...new Set(names)].filter((n) => n.trim()).sort((x, y) => y.length - x.length)
    .reduce((out, name) => out.replace(literalName(name), by), text);
}
