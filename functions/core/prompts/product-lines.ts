/**
 * Product-line names, detected from the catalogue (pure): the distinctive words and phrases
 * many product titles of a store share that are not ordinary category words — "PRO" and
 * "eKO" on a Manduka store, "SukhaGrip" on "Sukha Yoga" — plus the vendor field when it
 * is (or resembles) the brand. A prompt naming one is a brand query in disguise: it proves
 * nothing about whether an AI recommends the store unprompted, so none may be tracked.
 *
 * Rules (see `detectProductLines`):
 * - Titles are split into words, with sizes/figures and variant suffixes ("– Sage") kept
 *   as separators. A word is ordinary language (never a line) when it is a stop word, a
 *   colour, size or unit word, a word of any product type, or a word the store's own
 *   descriptions write in lower case mid-sentence at least as often as capitalised
 *   ("cork", "travel", "hot"); a name is written capitalised.
 * - Runs of the remaining words are candidate names. A run that leads its title, or the
 *   run's leading words (after the brand), used in at least `max(3, 5%)` of the titles is a
 *   product line; a word later in the run is the product's own name or kind ("Microlot" of
 *   "Honeyed Huila Microlot", "Reserve", "Half-Caf"), never a line on its own.
 * - Any title word that contains, or is contained in, a distinctive word of the business
 *   name (4+ letters: "SukhaGrip" for "Sukha"), or is one letter away from it, is a line
 *   however rarely it appears.
 * - Vendors that equal, contain or resemble the business name are lines.
 */
import type { CatalogProduct } from '../site/types';
import { distinctiveTokens } from '../text/name-match';

const STOP = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'for', 'with', 'by', 'in', 'on', 'to', 'at', 'from', 'your', 'my', 'our', 'x', 'n', 'amp']);
const COLOURS = new Set([
  'black', 'white', 'grey', 'gray', 'charcoal', 'silver', 'gold', 'red', 'blue', 'navy', 'green', 'olive', 'sage', 'mint', 'teal', 'turquoise',
  'yellow', 'mustard', 'orange', 'coral', 'peach', 'pink', 'rose', 'blush', 'purple', 'lavender', 'lilac', 'plum', 'violet', 'brown', 'tan', 'beige',
  'sand', 'cream', 'ivory', 'natural', 'clay', 'terracotta', 'stone', 'slate', 'midnight', 'forest', 'ocean', 'sky', 'berry', 'wine', 'burgundy',
  'multicolor', 'multicolour', 'light', 'dark', 'deep', 'pale', 'bright',
]);
const SIZE_WORDS = new Set([
  'xs', 's', 'm', 'l', 'xl', 'xxl', 'small', 'medium', 'large', 'mini', 'extra', 'long', 'wide', 'tall', 'short', 'thick', 'thin', 'standard',
  'regular', 'big', 'pack', 'set', 'pair', 'piece', 'pieces', 'kit', 'bundle', 'one', 'two', 'three', 'four', 'size', 'new', 'edition', 'version',
  'mm', 'cm', 'in', 'inch', 'ft', 'oz', 'lb', 'kg', 'g', 'ml', 'l',
]);

/** Materials products are made of: ordinary words, never a line ("Canvas Yoga Mat Bag"). */
export const MATERIALS = [
  'natural rubber', 'organic cotton', 'recycled cotton', 'stainless steel', 'eva foam', 'nbr foam', 'memory foam', 'vegan leather',
  'cork', 'jute', 'hemp', 'wool', 'linen', 'silk', 'cotton', 'microfiber', 'polyurethane', 'tpe', 'pvc', 'rubber', 'foam', 'bamboo',
  'wood', 'brass', 'copper', 'ceramic', 'porcelain', 'stoneware', 'glass', 'leather', 'canvas', 'kapok', 'buckwheat', 'silicone', 'steel',
  'aluminium', 'aluminum', 'titanium', 'cast iron', 'merino', 'cashmere', 'denim', 'beeswax', 'soy wax', 'marble', 'rattan',
];
const MATERIAL_WORDS = new Set(MATERIALS.flatMap((m) => m.split(' ')));

function fold(word: string): string {
  return word.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/['’]/g, '').toLowerCase();
}

function singular(w: string): string {
  if (w.length > 4 && /ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && /[^su]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Lower-case vs capitalised mid-sentence uses of each word in the descriptions. */
function caseUsage(products: readonly CatalogProduct[]): Map<string, { lower: number; upper: number }> {
  const usage = new Map<string, { lower: number; upper: number }>();
  for (const p of products) {
    for (const sentence of p.description.split(/[.!?:;\n•]+/)) {
      const words = sentence.split(/[^\p{L}\p{N}'’-]+/u).filter(Boolean);
      words.forEach((w, i) => {
        if (i === 0) return; // sentence-initial capitals say nothing
        for (const part of w.split('-')) {
          if (!/^\p{L}/u.test(part)) continue;
          const key = singular(fold(part));
          const e = usage.get(key) ?? { lower: 0, upper: 0 };
          if (/^\p{Ll}+$/u.test(part)) e.lower++;
          else e.upper++;
          usage.set(key, e);
        }
      });
    }
  }
  return usage;
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { i++; j++; continue; }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else { i++; j++; }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** Whether a word is the brand or a variant of it ("sukhagrip", "sukhas", "sukah"). */
function resemblesBrand(word: string, brandTokens: readonly string[]): boolean {
  const w = fold(word).replace(/[^\p{L}\p{N}]/gu, '');
  if (w.length < 3) return false;
  return brandTokens.some((t) => t.length >= 4 && (w.includes(t) || (w.length >= 4 && t.includes(w) && w.length >= t.length - 2) || (t.length >= 5 && editDistanceAtMostOne(w, t))));
}

/** Whether a vendor string is the business itself (or a variant of its name). */
export function vendorIsBrand(vendor: string, businessName: string): boolean {
  const v = fold(vendor).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const b = fold(businessName).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (!v || !b) return false;
  if (v === b || v.replace(/ /g, '') === b.replace(/ /g, '')) return true;
  const brand = distinctiveTokens(businessName);
  return distinctiveTokens(vendor).some((t) => brand.includes(t) || resemblesBrand(t, brand));
}

/**
 * The business name's distinctive words that are not ordinary words of its catalogue
 * ("sukha" of "Sukha Yoga Co.", not "yoga"): a product name sharing one is branded.
 */
export function brandWords(products: readonly CatalogProduct[], businessName: string): string[] {
  return distinctiveTokens(businessName).filter((t) => !ordinaryWord(t, products));
}

function ordinaryWord(word: string, products: readonly CatalogProduct[]): boolean {
  const w = singular(fold(word));
  const typeWords = new Set(products.flatMap((p) => fold(p.productType).split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(singular)));
  if (STOP.has(w) || COLOURS.has(w) || SIZE_WORDS.has(w) || typeWords.has(w) || MATERIAL_WORDS.has(w) || MATERIAL_WORDS.has(fold(word))) return true;
  const u = caseUsage(products).get(w);
  return Boolean(u && u.lower > 0 && u.lower >= u.upper);
}

export interface ProductLineOptions {
  /** A run must appear in at least this many titles (default max(3, 5% of the titles)). */
  minTitles?: number;
}

/**
 * The product-line names of a store, as written in its titles (most used first), and
 * brand-like vendors. See the module comment for the rules.
 */
export function detectProductLines(products: readonly CatalogProduct[], businessName: string, options: ProductLineOptions = {}): string[] {
  if (!products.length) return [];
  const minTitles = options.minTitles ?? Math.max(3, Math.ceil(products.length * 0.05));
  const usage = caseUsage(products);
  const typeWords = new Set(products.flatMap((p) => fold(p.productType).split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(singular)));
  const ordinary = (word: string): boolean => {
    const w = singular(fold(word));
    if (!/\p{L}/u.test(w) || w.length < 2) return true;
    if (/\d/.test(w)) return true; // sizes and model numbers: figures, not names
    if (STOP.has(w) || COLOURS.has(w) || SIZE_WORDS.has(w) || typeWords.has(w) || MATERIAL_WORDS.has(w) || MATERIAL_WORDS.has(fold(word))) return true;
    const u = usage.get(w);
    return Boolean(u && u.lower > 0 && u.lower >= u.upper);
  };

  // The brand's own words, less those that are ordinary catalogue words ("yoga" of "Sukha Yoga").
  const brand = distinctiveTokens(businessName).filter((t) => !ordinary(t));
  const counts = new Map<string, { text: string; titles: number; first: number }>();
  const brandLike: string[] = [];
  const count = (text: string, at: number, seenHere: Set<string>) => {
    const key = text.split(' ').map(fold).join(' ');
    if (seenHere.has(key)) return;
    seenHere.add(key);
    const e = counts.get(key) ?? { text, titles: 0, first: at };
    e.titles++;
    counts.set(key, e);
  };
  products.forEach((p, at) => {
    const seenHere = new Set<string>();
    // A line leads the title ("Sukha PRO Yoga Mat 6mm – Midnight", "eKO Lite Yoga Mat"),
    // possibly after the brand: only the run of name words the title starts with counts.
    // "Mat Refresh Spray" (a descriptive name) does not start with one.
    let leading = true;
    for (const segment of p.name.split(/\s[-–—|]\s|[,/()[\]+&:]/)) {
      let run: string[] = [];
      const flush = () => {
        if (run.length && leading) {
          count(run.join(' '), at, seenHere);
          // A line leads the run ("Sukha PRO" → "PRO", after the brand); the run's later words
          // are the product's own name and kind ("Honeyed Huila Microlot", "Amber Sidama
          // Reserve", "Tidal Kenya Half-Caf Blend"): never counted on their own.
          const named = run.filter((w, i) => i > 0 || !(brand.length > 0 && resemblesBrand(w, brand)));
          const lead = run.length - named.length;
          for (let k = 1; k <= named.length; k++) if (lead > 0 || k < run.length) count(run.slice(lead, lead + k).join(' '), at, seenHere);
        }
        if (run.length) leading = false;
        run = [];
      };
      for (const raw of segment.split(/\s+/)) {
        const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
        if (!word) { flush(); continue; }
        const brandish = brand.length > 0 && resemblesBrand(word, brand);
        if (brandish && !brandLike.some((b) => fold(b) === fold(word))) brandLike.push(word);
        if (ordinary(word)) { flush(); leading = false; } else run.push(word);
      }
      flush();
      leading = false;
    }
  });

  const lines = [...counts.entries()]
    .filter(([, e]) => e.titles >= minTitles)
    .sort((a, b) => b[1].titles - a[1].titles || a[1].first - b[1].first)
    .map(([, e]) => e.text);
  const out: string[] = [];
  const add = (text: string) => {
    if (!out.some((o) => fold(o) === fold(text))) out.push(text);
  };
  for (const l of lines) add(l);
  for (const b of brandLike) add(b);
  for (const v of new Set(products.map((p) => p.vendor.trim()).filter(Boolean))) if (vendorIsBrand(v, businessName)) add(v);
  return out;
}
