/**
 * Whether "Is the X a good choice for <audience>?" is a question a shopper asks (issue 45):
 * - not when it restates what the product is ("a yoga mat for yogis", "a garden shed for gardeners");
 * - not when the audience is who the whole store serves (named in the text of a quarter of its products);
 * - not against the product's own sizes: a romper sized 0-6 months is not for toddlers.
 */
import { dedupeKey } from '../generate/text';
import type { ArticleCatalogue } from './catalogue';
import { audiencesIn } from './facets';
import type { ProductSheet } from './facts';

/** A store-wide audience: named by at least this share of the products (and by five or more). */
const STORE_WIDE_SHARE = 0.25;
const STORE_WIDE_MIN = 5;

/** People a product sized for babies can be for. */
const BABY_AUDIENCE = /^(?:(?:new(?:born)?|little) )?(?:babies|newborns|infants|parents|moms|mums|dads|families|mothers|fathers)$/i;

/** "yogis" → "yog", "gardeners" → "gard": the stem a word shares with its activity. */
function stem(word: string): string {
  return word.length <= 5 ? word.slice(0, 3) : word.slice(0, 4);
}

/** Whether the audience's words name what the product is: "yogis" of a yoga mat, "campers" of a camping chair. */
function restatesProduct(audience: string, sheet: ProductSheet): boolean {
  const own = new Set(dedupeKey(`${sheet.product.name} ${sheet.kind}`).split(' ').filter((w) => w.length >= 3).map(stem));
  return dedupeKey(audience).split(' ').filter((w) => w.length >= 4).some((w) => own.has(stem(w)));
}

const storeWide = new WeakMap<ArticleCatalogue, Set<string>>();

/** The audiences a quarter of the catalogue's products name: who the store serves, not who one product suits. */
function storeWideAudiences(catalogue: ArticleCatalogue): Set<string> {
  let out = storeWide.get(catalogue);
  if (!out) {
    const counts = new Map<string, number>();
    for (const sheet of catalogue.sheets) {
      for (const audience of new Set(sheet.facts.flatMap((f) => audiencesIn(f.text)))) counts.set(audience, (counts.get(audience) ?? 0) + 1);
    }
    const threshold = Math.max(STORE_WIDE_MIN, catalogue.sheets.length * STORE_WIDE_SHARE);
    out = new Set([...counts].filter(([, n]) => n >= threshold).map(([a]) => a));
    storeWide.set(catalogue, out);
  }
  return out;
}

/** The oldest age in months a product's name or options state ("0-6 Months", "3M", "12-18 mths"), or null. */
export function statedAgeMonths(sheet: ProductSheet): number | null {
  const text = [sheet.product.name, ...sheet.options.flatMap((o) => o.values)].join(' ');
  const ages: number[] = [];
  // "3-6M" (a capital M: "10m" is a length), "0-6 months", "12-18 mths".
  for (const m of text.matchAll(/\b(\d{1,2})(?:\s*[-–]\s*(\d{1,2}))?(?:\s*(?:[Mm]onths?|[Mm]ths?|[Mm]os?)\b|M\b)/g)) ages.push(Number(m[2] ?? m[1]));
  for (const m of text.matchAll(/\b(\d{1,2})(?:\s*[-–]\s*(\d{1,2}))?\s*(?:y|yrs?|years?)\b/gi)) ages.push(12 * Number(m[2] ?? m[1]));
  return ages.length ? Math.max(...ages) : null;
}

/** Products made for children: asking whether one suits children restates what it is. */
const FOR_CHILDREN = /\b(?:playhouses?|play ?houses?|toys?|teethers?|rompers?|nursery|sandpits?|swings?|slides?|kids|children'?s|baby|babies|toddlers?)\b/i;
const CHILDREN = /^(?:(?:young |little |small )?(?:children|kids|toddlers|babies|little ones))$/i;

export function audienceFits(audience: string, sheet: ProductSheet, catalogue: ArticleCatalogue): boolean {
  if (restatesProduct(audience, sheet) || storeWideAudiences(catalogue).has(audience)) return false;
  if (CHILDREN.test(audience) && FOR_CHILDREN.test(`${sheet.product.name} ${sheet.kind}`)) return false;
  const months = statedAgeMonths(sheet);
  return months === null || months > 12 || BABY_AUDIENCE.test(audience);
}
