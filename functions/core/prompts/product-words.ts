/**
 * What a product's own words say it is, read the same way by the prompt generator and the
 * article planner: its kind as a noun phrase (plural or mass: pluralize's rules, "knife" →
 * "knives", "coffee" stays), whether a kind is one variety or a broad bucket ("brewing gear"),
 * the kind its name states, and the materials and selling points its text names. Pure.
 */
import pluralize from 'pluralize';
import { INDUSTRY_RULES } from '../generate/industry';
import { wordText, wordVariants } from '../generate/text';
import { MATERIALS } from './product-lines';

/** Uncountable heads: "the best coffee is", "where can I buy brewing gear". */
const MASS_HEAD = /^(meditation|fitness|nutrition|care|lighting|storage|seating|fencing|decking|flooring|cladding|fuel|firewood|coffee|tea|brew|matcha|cocoa|espresso|decaf|wine|beer|cider|sake|whiskey|whisky|gin|rum|vodka|mezcal|tequila|chocolate|honey|candy|jam|granola|gear|equipment|apparel|clothing|jewelry|jewellery|furniture|merchandise|merch|software|luggage|stationery|decor|skincare|haircare|bodycare|makeup|bedding|art|food|produce|yarn|lingerie|fashion|homeware|swag|firewood|coffeeware|teaware|\w+ware|\w+wear)$/i;

/** Mass nouns that are not varieties: "Insulated Travel Tumbler" is not "... drinkware". */
const NON_VARIETY_MASS = /(ware|wear|gear|equipment|apparel|clothing|jewelry|jewellery|furniture|decor|luggage|stationery|bedding|art|merch|merchandise|software|makeup|skincare|haircare|bodycare)$/i;

/** The last word of a phrase: what agrees with a verb and takes a plural. */
export function headWord(phrase: string): string {
  const words = phrase.trim().split(/\s+/);
  return words[words.length - 1] ?? '';
}

/** A kind that holds unlike things ("brewing gear", "merchandise", "homeware"): not one variety. */
export function isBroadKind(phrase: string): boolean {
  return NON_VARIETY_MASS.test(headWord(phrase));
}

export function isMass(phrase: string): boolean {
  return MASS_HEAD.test(headWord(phrase));
}

export function isPlural(phrase: string): boolean {
  // "blends & espresso", "mugs and tumblers": two things.
  if (/\s(&|and)\s/i.test(phrase)) return true;
  const head = headWord(phrase).toLowerCase();
  if (isMass(phrase)) return false;
  return /[^s]s$/.test(head) && !/(us|is|ss)$/.test(head) || /^(people|children|men|women|kids|feet|teeth|mice|geese)$/.test(head);
}

/** "mug" → "mugs", "knife" → "knives", "accessory" → "accessories", "coffee" → "coffee", "teas" → "teas" (the pluralize library's rules). */
export function pluralPhrase(phrase: string): string {
  const p = phrase.trim();
  if (!p || isMass(p) || isPlural(p)) return p;
  const words = p.split(/\s+/);
  const head = words.pop()!;
  if (/[^\p{L}\p{N}]$/u.test(head) || /\d$/.test(head)) return p;
  return [...words, pluralize.plural(head)].join(' ');
}

/**
 * What kind of product a name says it is, for products without a type (the scrape and the
 * catalogue failed): the industry keyword the name contains, the one ending last and the
 * longest ("Yirgacheffe Coffee Beans" → "coffee beans"). Null when the name names no kind.
 */
export function kindFromName(name: string): string | null {
  const text = wordText(name);
  let best: { keyword: string; end: number } | null = null;
  for (const rule of INDUSTRY_RULES) {
    for (const keyword of rule.keywords) {
      for (const variant of wordVariants(keyword)) {
        const at = text.lastIndexOf(variant);
        if (at < 0) continue;
        const end = at + variant.length;
        if (!best || end > best.end || (end === best.end && keyword.length > best.keyword.length)) best = { keyword, end };
      }
    }
  }
  return best ? best.keyword : null;
}

const UPPER_MATERIALS = new Set(['tpe', 'pvc', 'eva foam', 'nbr foam']);
/** One compiled matcher per material ("PVC-free" and "latex-free" say what a product is NOT made of). */
const MATERIAL_RES = MATERIALS.map((m) => ({ m, re: new RegExp(`(?<![\\p{L}-])${m}(?![\\p{L}]|-free)`, 'u') }));

/** Materials a text says a product is made of, in the order it says them ("natural rubber" before "rubber"). */
export function materialsOf(text: string): string[] {
  // "18/8 stainless-steel" names stainless steel; "PVC-free" keeps its hyphen (it says what the product is not made of).
  const hay = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, ' ').replace(/(?<=\p{L})-(?=\p{L})(?!free\b)/gu, ' ')} `;
  const found: Array<{ m: string; at: number }> = [];
  for (const { m, re } of MATERIAL_RES) {
    const hit = re.exec(hay);
    if (!hit) continue;
    if (found.some((f) => f.m.includes(m) || (hit.index >= f.at && hit.index < f.at + f.m.length))) continue;
    found.push({ m, at: hit.index });
  }
  return found.sort((x, y) => x.at - y.at).map((f) => (UPPER_MATERIALS.has(f.m) ? f.m.replace(/^\w+/, (w) => w.toUpperCase()) : f.m)).slice(0, 3);
}

const FEATURE_WORDS = [
  'non-slip', 'anti-slip', 'sweat-wicking', 'quick-drying', 'machine washable', 'lightweight', 'foldable', 'reversible', 'washable', 'waterproof',
  'water-resistant', 'biodegradable', 'recyclable', 'recycled', 'antimicrobial', 'portable', 'durable', 'cushioned', 'grippy', 'breathable',
  'hypoallergenic', 'compact', 'insulated', 'ergonomic', 'adjustable', 'handmade', 'hand-woven', 'hand-hammered', 'vegan', 'organic',
  'sustainable', 'eco-friendly', 'plastic-free', 'latex-free', 'pvc-free', 'toxin-free', 'closed-cell', 'extra thick', 'extra long', 'extra wide',
  'dense', 'textured', 'absorbent', 'plant-based', 'leak-proof', 'dishwasher safe', 'unbreakable', 'rechargeable', 'wireless', 'cordless',
  'compostable', 'heat-resistant', 'wheel-thrown', 'hand-sorted', 'vacuum-packed', 'hand-thrown',
];
const FEATURE_RES = FEATURE_WORDS.map((f) => ({ f, re: new RegExp(`(?<![\\p{L}-])${f.replace(/-/g, '[- ]?')}(?![\\p{L}-])`, 'u') }));

/** Selling points a description states, in its order ("non-slip", "sweat-wicking", "latex-free"). */
export function featuresOf(text: string): string[] {
  const hay = text.toLowerCase();
  const found: Array<{ f: string; at: number }> = [];
  for (const { f, re } of FEATURE_RES) {
    const hit = re.exec(hay);
    if (hit) found.push({ f: f === 'pvc-free' ? 'PVC-free' : f, at: hit.index });
  }
  return found.sort((x, y) => x.at - y.at).map((x) => x.f).filter((f, i, all) => !(f === 'washable' && all.includes('machine washable'))).slice(0, 5);
}
