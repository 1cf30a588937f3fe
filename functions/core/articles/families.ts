/**
 * Product families (D37): products a store sells as separate listings that are one product in
 * several colourways, prints, designs or sizes ("Combo Yoga Mat - Aegean Green", "... - Earth
 * Green"; "8 x 6 Woodsman Shiplap Apex Wooden Shed", "10 x 8 ..."; "The Midnight Glitz Quencher
 * H2.0 FlowState Tumbler", "The Clean Slate Quencher ..."), and products listed twice under one
 * title. Articles never compare two members of a family; a family gets one page listing its
 * members (questions.ts `family`). Pure.
 *
 * A name's family key is what is left of it once the parts that name a colourway or a size are
 * taken out:
 * - a model-code prefix ("V16B: Black Pop Up Outlet"), a leading "The"/"A";
 * - everything after a separator (" - ", " | ", " – ", " I " before a capital) and in brackets;
 * - sizes and counts ("6 x 4", "20 OZ", "8-inch", "2-pack", "6-8 Person"), colour words
 *   ("Black", "Dark Forest", "in Red"), sale words ("Limited Edition", "Open Box Clearance");
 * - when the name holds a colour, the colour letters a model code ends with ("WHCH720NB" and
 *   "WHCH720NW" are the black and the white WHCH720).
 * Products of one vendor with one key are a family. Then a design name in front: keys that end
 * with the same three or more words (at least half of each) and differ only in up to three
 * leading words, none a code, each starting differently ("Midnight Glitz", "Clean Slate", none)
 * join one family; "Alfresco Chef Vita" and "Alfresco Chef Milano" (one brand, two models) do not.
 */
import pluralize from 'pluralize';
import { colourAt, isColourWord } from '../text/colours';
import { markdownToText } from '../generate/text';
import { jaccard, shingleHashes } from './shingles';
import type { CatalogProduct } from '../site/types';

export type FamilyDifference = 'colors' | 'versions' | 'designs' | 'sizes' | 'designs and sizes';

export interface ProductFamily {
  /** The first member's product id: the family's page is planned on it. */
  id: string;
  /** What the members share, as the merchant wrote it ("Combo Yoga Mat"). */
  name: string;
  /** In catalogue order. */
  members: CatalogProduct[];
  /** What the members' names differ by. */
  differs: FamilyDifference;
  /**
   * False when the store lists a product that reads as one more member but did not join
   * ("The Quencher H2.0 FlowState Tumbler" beside eleven designs of it; "New Netty Betty Long
   * Sheer | Apple" beside its "... Sheer Top" colours): a page saying how many there are would
   * leave it out, so none is written.
   */
  complete: boolean;
}

export interface Families {
  families: ProductFamily[];
  /** Product id → its family (products in none are absent). */
  of: ReadonlyMap<string, ProductFamily>;
}

interface NameToken {
  raw: string;
  /** '' for a colourway word: not part of the key. */
  key: string;
  /** A colour or sale word ("Black", "Limited Edition"): shown only when every member has it. */
  colourway: boolean;
}

interface NameParts {
  tokens: NameToken[];
  /** The model series of a code prefix ("V1" of "V1SC: ..."), '' when none. */
  series: string;
  colour: boolean;
  size: boolean;
  /** A separator suffix or bracket that is not only a size: a print or design name. */
  design: boolean;
}

const CODE_PREFIX = /^\s*([A-Z0-9][A-Z0-9-]{1,14}):\s+/;
/** A model code's series: its letters and first number ("V1SC" → "V1", "V14B-HNR" → "V14"); two series are two models. */
const SERIES = /^[A-Z]*\d+/;
const SEPARATOR = /\s+[-–—|]\s+|\s+I\s+(?=[\p{Lu}\d])|\s+-\s*-\s+/u;
const BRACKETS = /\s*[([][^)\]]*[)\]]/g;
const UNIT = String.raw`(?:fl\.?\s?oz|oz|ml|cl|l|litres?|liters?|qt|quarts?|gal|gallons?|mm|cm|m|mtrs?|metres?|meters?|in|inch|inches|"|ft|foot|feet|kg|g|lbs?|pack|pk|piece|pieces|pc|pcs|person|people|seater|seats?|cups?|ct|count|ltr)`;
const NUMBER = String.raw`\d+(?:[.,]\d+)?`;
/** "6 x 4", "4m x 3m", "20 OZ", "8-inch", "2-pack", "6-8 Person", "15-piece set". */
const SIZE = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${NUMBER}\s*(?:m|cm|mm|ft|in|'|")?\s*x\s*${NUMBER}\s*(?:m|cm|mm|ft|in|'|")?|${NUMBER}(?:\s*-\s*${NUMBER})?\s*-?\s*${UNIT}(?:\s+set)?)(?![\p{L}\p{N}])`, 'giu');
const HAS_SIZE = new RegExp(SIZE.source, 'iu');
const SALE_WORDS = new Set(['limited', 'edition', 'offer', 'clearance', 'sale', 'exclusive', 'bestseller', 'new']);
const LEADING_ARTICLE = /^(the|a|an)$/i;
const MAX_DESIGN_HEAD = 3;
const MIN_SHARED_TAIL = 3;
/** Kinds whose "Lavender" or "Lemon" is a scent or a flavour, not a colour: their members are versions. */
const SCENTED = /\b(?:sprays?|candles?|soaps?|oils?|syrups?|coffees?|teas?|balms?|lotions?|wax|diffusers?|incense|cleaners?|shampoos?|conditioners?|washes|scrubs?|mists?|perfumes?|fragrances?|colognes?|deodorants?|gums?|sauces?|jams?)\b/i;
/** Design names of one tail whose texts are compared pairwise at most (a bucket of thousands is no family of designs). */
const MAX_DESIGNS_COMPARED = 40;

function stripEmoji(text: string): string {
  return text.replace(/[\p{Extended_Pictographic}\u{FE0F}™®©]/gu, ' ');
}

/** The parts of a name that stay in its family key, and what was taken out. */
function nameParts(name: string): NameParts {
  const series = SERIES.exec(CODE_PREFIX.exec(stripEmoji(name))?.[1] ?? '')?.[0] ?? '';
  let text = stripEmoji(name).replace(CODE_PREFIX, '');
  const [head = '', ...rest] = text.split(SEPARATOR);
  const brackets = head.match(BRACKETS) ?? [];
  text = head.replace(BRACKETS, ' ');
  const outside = [...rest, ...brackets].join(' ');
  let size = HAS_SIZE.test(text) || HAS_SIZE.test(outside);
  text = text.replace(SIZE, ' ');
  const suffixWords = outside.replace(SIZE, ' ').split(/[\s/,+&]+/).filter((w) => /\p{L}/u.test(w));
  const colour = suffixWords.some(isColourWord) || text.split(/\s+/).some((w) => isColourWord(w.replace(/[^\p{L}]/gu, '')));
  let design = suffixWords.some((w) => !isColourWord(w) && !SALE_WORDS.has(w.toLowerCase()));
  let words = text.split(/[\s,]+/).map((w) => w.replace(/^[^\p{L}\p{N}&]+|[^\p{L}\p{N}&]+$/gu, '')).filter(Boolean);
  while (words.length > 1 && LEADING_ARTICLE.test(words[0]!)) words = words.slice(1);
  const tokens: NameToken[] = [];
  for (let i = 0; i < words.length; i++) {
    const raw = words[i]!;
    const lower = raw.toLowerCase();
    const colourWords = colourAt(words, i);
    if (colourWords) {
      for (let k = i; k < i + colourWords; k++) tokens.push({ raw: words[k]!, key: '', colourway: true });
      i += colourWords - 1;
      continue;
    }
    // "Open Box Clearance", "Limited Edition", "Headphones in Red": sale words, and the "in" of a colour.
    const openBox = lower === 'open' && words[i + 1]?.toLowerCase() === 'box';
    if (SALE_WORDS.has(lower) || openBox || (lower === 'in' && colourAt(words, i + 1) === words.length - i - 1)) {
      tokens.push({ raw, key: '', colourway: true });
      if (openBox) tokens.push({ raw: words[++i]!, key: '', colourway: true });
      continue;
    }
    let key = lower === '&' || lower === '+' ? 'and' : lower.replace(/['’]/g, '').replace(/(?<=\d\.)o/g, '0');
    // "WHCH720NB" of a name with a colour: the letters after the number are the colour's (the family is the "WHCH720").
    const colourLetters = colour ? /^[a-z][a-z-]*\d+([a-z]{1,2})$/.exec(key)?.[1] : undefined;
    if (colourLetters) key = key.slice(0, -colourLetters.length);
    tokens.push({ raw: colourLetters ? raw.slice(0, -colourLetters.length) : raw, key, colourway: false });
  }
  const keyed = tokens.filter((t) => !t.colourway);
  if (!keyed.length) return { tokens: [{ raw: name.trim(), key: name.trim().toLowerCase(), colourway: false }], series, colour: false, size: false, design: false };
  const last = keyed[keyed.length - 1]!;
  if (/^\p{L}+$/u.test(last.key)) last.key = pluralize.singular(last.key);
  if (!rest.length && !brackets.length) design = false;
  if (!text.trim()) size = false;
  return { tokens, series, colour, size, design };
}

function keysOf(tokens: readonly NameToken[]): string[] {
  return tokens.filter((t) => !t.colourway).map((t) => t.key);
}

/** "Stanley" and "Stanley 1913" are one vendor: its first word. */
function vendorOf(product: CatalogProduct): string {
  return product.vendor.trim().toLowerCase().split(/\s+/)[0] ?? '';
}

/** Where a name's family is looked for: its vendor and its model series. */
function lineOf(product: CatalogProduct, parts: NameParts): string {
  return `${vendorOf(product)}\u0000${parts.series}`;
}

/** Shingle similarity two descriptions need for a design name in front to make one family. */
const SAME_TEXT = 0.3;

/** Union-find over group indexes. */
function unionFind(n: number): { find: (i: number) => number; union: (a: number, b: number) => void } {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  return { find, union: (a, b) => { parent[find(a)] = find(b); } };
}

export function productFamilies(products: readonly CatalogProduct[]): Families {
  const parts = products.map((p) => nameParts(p.name));
  // Groups of one vendor and one key.
  const groups: Array<{ key: string[]; members: number[]; prefixed: boolean }> = [];
  const byKey = new Map<string, number>();
  products.forEach((p, i) => {
    const k = `${lineOf(p, parts[i]!)}\u0000${keysOf(parts[i]!.tokens).join(' ')}`;
    let g = byKey.get(k);
    if (g === undefined) {
      g = groups.length;
      groups.push({ key: keysOf(parts[i]!.tokens), members: [], prefixed: false });
      byKey.set(k, g);
    }
    groups[g]!.members.push(i);
  });
  // Design names in front: buckets of groups sharing a long tail.
  const uf = unionFind(groups.length);
  const texts = new Map<number, number[]>();
  const textOf = (g: number): number[] => {
    let t = texts.get(g);
    if (!t) texts.set(g, (t = shingleHashes(markdownToText(products[groups[g]!.members[0]!]!.description))));
    return t;
  };
  const buckets = new Map<string, Array<{ group: number; first: string }>>();
  groups.forEach((g, gi) => {
    const vendor = lineOf(products[g.members[0]!]!, parts[g.members[0]!]!);
    for (let k = 0; k <= MAX_DESIGN_HEAD && g.key.length - k >= MIN_SHARED_TAIL; k++) {
      const tail = g.key.slice(k);
      const head = g.key.slice(0, k);
      if (tail.length * 2 < g.key.length || head.some((w) => /\d/.test(w))) continue;
      const bucket = `${vendor}\u0000${tail.join(' ')}`;
      const list = buckets.get(bucket) ?? [];
      list.push({ group: gi, first: head[0] ?? '' });
      buckets.set(bucket, list);
    }
  });
  for (const list of buckets.values()) {
    const firsts = new Map<string, number>();
    for (const e of list) firsts.set(e.first, (firsts.get(e.first) ?? 0) + 1);
    // Only heads whose first word is theirs alone: two models of one brand never join through a third.
    // And one product in several designs is sold under one text: two models are described apart.
    const joining = list.filter((e) => firsts.get(e.first) === 1).slice(0, MAX_DESIGNS_COMPARED);
    for (let a = 0; a < joining.length; a++) {
      for (let b = a + 1; b < joining.length; b++) {
        const [ga, gb] = [joining[a]!.group, joining[b]!.group];
        const [ta, tb] = [textOf(ga), textOf(gb)];
        if (uf.find(ga) === uf.find(gb) || !ta.length || !tb.length || jaccard(ta, tb) < SAME_TEXT) continue;
        uf.union(ga, gb);
        for (const e of [joining[a]!, joining[b]!]) if (e.first) groups[e.group]!.prefixed = true;
      }
    }
  }
  const merged = new Map<number, number[]>();
  groups.forEach((_, gi) => {
    const root = uf.find(gi);
    merged.set(root, [...(merged.get(root) ?? []), gi]);
  });
  const families: ProductFamily[] = [];
  const tails: Array<{ family: ProductFamily; line: string; key: string[] }> = [];
  const of = new Map<string, ProductFamily>();
  for (const gis of merged.values()) {
    const members = [...new Set(gis.flatMap((gi) => groups[gi]!.members))].sort((a, b) => a - b);
    const distinct = [...new Map(members.map((i) => [products[i]!.productId, i])).values()];
    if (distinct.length < 2) continue;
    const first = distinct[0]!;
    const shared = commonTail(gis.map((gi) => groups[gi]!.key));
    const name = familyName(parts[first]!.tokens, shared, distinct.map((i) => products[i]!.name));
    const memberParts = distinct.map((i) => parts[i]!);
    const sized = memberParts.some((p) => p.size);
    const designed = gis.some((gi) => groups[gi]!.prefixed) || memberParts.some((p) => p.design);
    // Colours only when every member names one: an AU and a UK socket, one of them white, are versions, not colours.
    const coloured = memberParts.every((p) => p.colour);
    const differs: FamilyDifference = sized && (designed || coloured) ? 'designs and sizes' : sized ? 'sizes' : designed ? 'designs'
      : coloured ? (SCENTED.test(name) ? 'versions' : 'colors') : 'versions';
    const key = groups[gis[0]!]!.key.slice(-shared);
    const family: ProductFamily = { id: products[first]!.productId, name, members: distinct.map((i) => products[i]!), differs, complete: true };
    families.push(family);
    tails.push({ family, line: lineOf(products[first]!, parts[first]!), key });
    for (const m of family.members) of.set(m.productId, family);
  }
  markIncomplete(tails, products.map((p, i) => ({ product: p, line: lineOf(p, parts[i]!), key: keysOf(parts[i]!.tokens) })), of);
  return { families, of };
}

/**
 * A product outside a family that reads as one more member (see `complete`), of the same vendor
 * and series: its key is the family's, or, when it is in no family of its own, the family's
 * with up to three design words in front or without its last word ("netty betty long sheer"
 * beside "netty betty long sheer top").
 */
function markIncomplete(
  tails: ReadonlyArray<{ family: ProductFamily; line: string; key: readonly string[] }>,
  products: ReadonlyArray<{ product: CatalogProduct; line: string; key: readonly string[] }>,
  of: ReadonlyMap<string, ProductFamily>,
): void {
  const byKey = new Map<string, ProductFamily[]>();
  const byShorterKey = new Map<string, ProductFamily[]>();
  const add = (map: Map<string, ProductFamily[]>, k: string, f: ProductFamily) => {
    const list = map.get(k);
    if (list) list.push(f);
    else map.set(k, [f]);
  };
  for (const t of tails) {
    if (t.key.length >= 2) add(byKey, `${t.line}\u0000${t.key.join(' ')}`, t.family);
    if (t.key.length >= 4) add(byShorterKey, `${t.line}\u0000${t.key.slice(0, -1).join(' ')}`, t.family);
  }
  for (const { product, line, key } of products) {
    // A member of a family of its own reads as one more member only under the same key: a "Travel
    // Combo Yoga Mat" family, or the "Point Pod Compact" colours beside their "... w/USB", are other products.
    const alone = !of.has(product.productId);
    const resembled = alone ? [...(byShorterKey.get(`${line}\u0000${key.join(' ')}`) ?? [])] : [];
    const heads = alone ? MAX_DESIGN_HEAD : 0;
    for (let k = 0; k <= heads && k < key.length; k++) {
      if (k > 0 && /\d/.test(key[k - 1]!)) break;
      resembled.push(...(byKey.get(`${line}\u0000${key.slice(k).join(' ')}`) ?? []));
    }
    for (const family of resembled) if (of.get(product.productId) !== family) family.complete = false;
  }
}

/**
 * The family's name in the first member's words: the key words all members share at the end,
 * with a colour word kept where every member's name has it ("Black Lamb Dress").
 */
function familyName(tokens: readonly NameToken[], shared: number, names: readonly string[]): string {
  let keyed = 0;
  let from = tokens.length;
  while (from > 0 && keyed < shared) if (!tokens[--from]!.colourway) keyed++;
  while (from > 0 && tokens[from - 1]!.colourway) from--;
  const inAll = (word: string) => names.every((n) => new RegExp(`(?<![\\p{L}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'iu').test(n));
  return tokens.slice(from).filter((t) => !t.colourway || inAll(t.raw)).map((t) => t.raw).join(' ');
}

/** Words the keys share at their end. */
function commonTail(keys: ReadonlyArray<readonly string[]>): number {
  const shortest = Math.min(...keys.map((k) => k.length));
  let n = 0;
  while (n < shortest && keys.every((k) => k[k.length - 1 - n] === keys[0]![keys[0]!.length - 1 - n])) n++;
  return Math.max(1, n);
}

/**
 * What a product is for, by its name: the head noun of its family key and the word before it
 * unless that is the first word (a brand or a model line): "Brenner 8-inch Chef's Knife" →
 * "chefs knife", "Kiso 210 mm Gyuto" → "gyuto", "Woodsman Shiplap Apex Wooden Shed" → "wooden shed".
 */
export function jobOf(name: string): string {
  const keys = keysOf(nameParts(name).tokens).filter((k) => !/\d/.test(k));
  if (!keys.length) return '';
  return keys.length >= 3 ? keys.slice(-2).join(' ') : keys[keys.length - 1]!;
}

/** Whether two products are members of one family. */
export function sameFamily(families: Families, a: string, b: string): boolean {
  const fa = families.of.get(a);
  return fa !== undefined && fa === families.of.get(b);
}
