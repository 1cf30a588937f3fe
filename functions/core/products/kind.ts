/**
 * What kind of product something is, as a shopper would name it ("Garden Shed", "Tumbler",
 * "Headphones"), read the same way by the AI site's fact cards and kind pages and by the
 * article planner. Pure.
 *
 * - The store's product type when it is a real one. Platforms and themes fill the field with
 *   placeholders ("normal", "Standard", "Default"), merchandising buckets ("Sale", "New") or
 *   line names with a size ("Quencher 40oz"): those never show.
 * - Else, read against the catalogue (`catalogueKinds`), the head of the name when another
 *   product's name ends on it too: its last word once sizes, counts, colours and qualifiers
 *   after "|" are cut ("The IceFlow Flip Straw Tumbler | 20 OZ" → "Tumbler"); a head that
 *   names no thing on its own ("Set", "Box") keeps the word before it ("Utensil Set", "Lunch Box").
 * - Else the industry keyword the name states (`kindFromName`: "... Wireless Headphones Black"
 *   → "headphones").
 */
import { kindFromName } from '../prompts/product-words';
import { containsName } from '../text/name-match';
import { colourAt, isColourWord } from '../text/colours';

/** Product types that say nothing about what a product is. */
const PLACEHOLDER_TYPE =
  /^(normal|standard|simple|variable|physical|default|default title|none|null|n\/?a|type|general|other|others|misc|miscellaneous|sale|new|new arrivals?|featured|gift cards?|bundles?|test|all|products?|items?|goods|merchandise|uncategori[sz]ed|shop)$/i;

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether a store's product type names a kind: not empty, no placeholder, no size, not the store's name. */
export function isRealProductType(type: string, businessName = ''): boolean {
  const t = clean(type);
  if (!t || !/\p{L}{3,}/u.test(t)) return false;
  // A figure in the last word makes a line of one size ("Quencher 40oz"), not a kind ("8-inch Knife" is one).
  if (t.split(' ').length > 4 || /\d/.test(t.split(' ').pop() as string) || PLACEHOLDER_TYPE.test(t)) return false;
  return !businessName || !containsName(t, businessName);
}

/** Heads that name no thing on their own: the word before them is part of the kind. */
const COMPOUND_HEAD = /^(set|sets|kit|kits|pack|system|box|case|cover|holder|stand|bag|lid|lids|top|topper|straw|straws|accessory|accessories|bundle)$/i;
/** Words that qualify a name without naming a thing ("LIMITED OFFER", "New", "2.0"). */
const QUALIFIER = /^(limited|offer|edition|new|sale|special|exclusive|bundle|the|with|and|for|in|of|by|x|&|-|–|—|pro|plus|max|mini|compact|deluxe|premium|classic|original|large|small|medium|slim|mk\d*|v\d+|\d.*)$/i;

/** The thing a product's name ends on (see the header); null when none reads as a word. */
export function kindFromNameHead(name: string): string | null {
  // What follows a bar or a spaced dash qualifies (size, colourway, count), as do brackets; "with ...", "for ..." add a part or a use.
  const main = clean(name)
    .split(/\s*\|\s*|\s+I\s+|\s+[-–—]\s+/)[0]!
    .replace(/\s*\([^)]*\)/g, '')
    .replace(/\s+(?:with\s|w\/|for\s).*$/i, '')
    .replace(/[™®©]/g, '');
  const words = main.split(' ').filter(Boolean);
  // From the end: drop qualifiers, counts and colours ("... Headphones in Red", "... Plate 2-pack").
  let end = words.length;
  while (end > 0) {
    const w = words[end - 1]!;
    if (QUALIFIER.test(w) || /\d/.test(w) || /^(pack|piece|pcs?|ct|count|oz|qt|in|cm|mm)$/i.test(w)) { end--; continue; }
    if (isColourWord(w) && end > 1) {
      // A colour run at the end ("Deep Sea Blue") goes whole, with its modifiers.
      let start = end - 1;
      while (start > 0 && colourAt(words, start - 1) > 0) start--;
      end = start;
      continue;
    }
    break;
  }
  const head = words[end - 1];
  if (!head || !/^\p{L}[\p{L}'-]{2,}$/u.test(head) || /^\p{Lu}{2,}\d/u.test(head)) return null;
  const before = words[end - 2];
  if (COMPOUND_HEAD.test(head) && before && /^\p{L}[\p{L}'-]+$/u.test(before) && !QUALIFIER.test(before)) return `${before} ${head}`;
  return head;
}

/** A product's kind, or null when nothing names one. */
export type KindOf = (product: { productType: string; name: string }) => string | null;

/**
 * The product's kind without its catalogue: a real product type, else the industry keyword
 * its name states; null when neither names one.
 */
export function productKind(product: { productType: string; name: string }, businessName = ''): string | null {
  const type = clean(product.productType);
  if (isRealProductType(type, businessName)) return type;
  return kindFromName(product.name);
}

/**
 * The kinds of a catalogue's products: a real product type, else the head of the name when
 * another product's name ends on it too (a head found once may be a place or a line:
 * "Ethiopia Yirgacheffe"), else the industry keyword the name states.
 */
export function catalogueKinds(products: ReadonlyArray<{ productType: string; name: string }>, businessName = ''): KindOf {
  const heads = new Map<string, number>();
  const headOf = (name: string) => kindFromNameHead(name);
  for (const p of products) {
    if (isRealProductType(p.productType, businessName)) continue;
    const head = headOf(p.name)?.toLowerCase();
    if (head) heads.set(head, (heads.get(head) ?? 0) + 1);
  }
  return (product) => {
    const type = clean(product.productType);
    if (isRealProductType(type, businessName)) return type;
    const head = headOf(product.name);
    if (head && (heads.get(head.toLowerCase()) ?? 0) >= 2) return head;
    return kindFromName(product.name);
  };
}
