/**
 * A transparent keyword heuristic for a store's industry. Every industry has a list of
 * keywords; evidence is scored by where the keyword occurs (product types weigh most,
 * then collection titles, tags, product names, and finally page text). The best
 * industry wins; when a second one scores at least half as much, both are named
 * ("specialty coffee and tea"). With no keyword evidence the most common product type
 * (lower-cased) is used, and with no product types either, "online retail".
 */
import type { StoreSnapshot } from '../site/types';
import { countKeyword, markdownToText, wordText, wordVariants } from './text';

export interface IndustryRule {
  label: string;
  keywords: string[];
}

/** Order matters only for ties: an earlier rule wins. */
export const INDUSTRY_RULES: readonly IndustryRule[] = [
  { label: 'specialty coffee', keywords: ['coffee', 'espresso', 'roast', 'arabica', 'single origin', 'decaf', 'cold brew', 'coffee beans', 'pour over', 'latte'] },
  { label: 'tea', keywords: ['tea', 'matcha', 'oolong', 'sencha', 'chai', 'rooibos', 'darjeeling', 'earl grey', 'loose leaf', 'herbal infusion', 'pu-erh'] },
  { label: 'apparel', keywords: ['apparel', 'clothing', 'shirt', 't-shirt', 'tee', 'dress', 'jeans', 'hoodie', 'sweater', 'jacket', 'pants', 'leggings', 'skirt', 'outerwear', 'knitwear'] },
  { label: 'footwear', keywords: ['shoe', 'sneaker', 'boot', 'sandal', 'footwear', 'loafer', 'slipper'] },
  { label: 'jewelry', keywords: ['jewelry', 'jewellery', 'necklace', 'ring', 'earring', 'bracelet', 'pendant', 'anklet'] },
  { label: 'beauty and skincare', keywords: ['skincare', 'skin care', 'serum', 'moisturizer', 'moisturiser', 'cleanser', 'cosmetics', 'makeup', 'lipstick', 'mascara', 'toner', 'sunscreen', 'fragrance', 'perfume'] },
  { label: 'home decor', keywords: ['home decor', 'candle', 'vase', 'cushion', 'pillow', 'throw', 'rug', 'wall art', 'furniture', 'lamp', 'blanket'] },
  { label: 'kitchenware', keywords: ['cookware', 'kitchenware', 'frying pan', 'skillet', 'knife', 'cutting board', 'utensil', 'bakeware', 'saucepan'] },
  { label: 'pet supplies', keywords: ['pet', 'dog', 'cat', 'puppy', 'kitten', 'leash', 'pet food', 'dog treats', 'litter'] },
  { label: 'baby and kids', keywords: ['baby', 'toddler', 'infant', 'nursery', 'kids', 'children'] },
  { label: 'toys and games', keywords: ['toy', 'puzzle', 'board game', 'game', 'plush', 'lego'] },
  { label: 'books', keywords: ['book', 'novel', 'paperback', 'hardcover', 'ebook'] },
  { label: 'stationery', keywords: ['stationery', 'notebook', 'journal', 'planner', 'pen', 'pencil', 'greeting card'] },
  { label: 'sports and fitness', keywords: ['fitness', 'yoga', 'gym', 'workout', 'dumbbell', 'running', 'cycling', 'bike'] },
  { label: 'outdoor gear', keywords: ['camping', 'tent', 'hiking', 'backpack', 'sleeping bag', 'outdoor'] },
  { label: 'consumer electronics', keywords: ['electronics', 'headphones', 'earbuds', 'charger', 'speaker', 'cable', 'phone case', 'laptop', 'keyboard'] },
  { label: 'health supplements', keywords: ['supplement', 'vitamin', 'protein powder', 'probiotic', 'collagen', 'capsule'] },
  { label: 'gourmet food', keywords: ['chocolate', 'snack', 'sauce', 'spice', 'honey', 'jam', 'olive oil', 'cookie', 'candy', 'granola'] },
  { label: 'wine and spirits', keywords: ['wine', 'whiskey', 'whisky', 'gin', 'rum', 'vodka', 'beer', 'spirits', 'sake'] },
  { label: 'plants and gardening', keywords: ['plant', 'succulent', 'seed', 'planter', 'gardening', 'garden'] },
  { label: 'bags and accessories', keywords: ['bag', 'handbag', 'wallet', 'tote', 'belt', 'sunglasses', 'hat', 'scarf'] },
  { label: 'art and prints', keywords: ['art print', 'poster', 'canvas', 'painting', 'illustration'] },
];

/** Where evidence comes from and how much one occurrence weighs. */
export const INDUSTRY_WEIGHTS = { productType: 3, collectionTitle: 2, tag: 1, productName: 1, pageText: 0.25 } as const;
/** Page text can only tip the balance, never dominate it. */
const PAGE_TEXT_CAP = 3;
/** Below this total score the keyword evidence is not trusted. */
const MIN_SCORE = 1;

export interface IndustryInference {
  industry: string;
  /** 'keywords' (a rule matched), 'product-type' (most common type) or 'default'. */
  basis: 'keywords' | 'product-type' | 'default';
  /** Score per rule label, only rules that scored. */
  scores: Record<string, number>;
}

export function mostCommonProductType(snapshot: StoreSnapshot): string | null {
  const counts = new Map<string, { label: string; count: number }>();
  for (const p of snapshot.products) {
    const type = p.productType.trim();
    if (!type) continue;
    const key = type.toLowerCase();
    const entry = counts.get(key) ?? { label: type, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  let best: { label: string; count: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best ? best.label : null;
}

export function inferIndustry(snapshot: StoreSnapshot): IndustryInference {
  const pageText = snapshot.pages
    .filter((p) => p.kind === 'home' || p.kind === 'page' || p.kind === 'collection')
    .map((p) => `${p.title}\n${markdownToText(p.markdown)}`)
    .join('\n');
  const collectionTitles = snapshot.collections.filter((c) => !isCatchAllCollection(c.handle, c.title)).map((c) => c.title);
  // Distinct word texts with their multiplicity; the loops below only do substring checks.
  const tally = (texts: string[]) => {
    const m = new Map<string, number>();
    for (const t of texts) m.set(t, (m.get(t) ?? 0) + 1);
    return [...m];
  };
  const types = tally(snapshot.products.map((p) => wordText(p.productType)));
  const names = tally(snapshot.products.map((p) => wordText(p.name)));
  // One product's tags joined with a separator: a keyword matches inside one tag, never across two.
  const tagSets = tally(snapshot.products.map((p) => p.tags.map(wordText).join('|')));
  const titles = tally(collectionTitles.map(wordText));
  const hits = (texts: Array<[string, number]>, variants: string[]) => {
    let n = 0;
    for (const [text, count] of texts) if (variants.some((v) => text.includes(v))) n += count;
    return n;
  };
  const scores: Record<string, number> = {};
  for (const rule of INDUSTRY_RULES) {
    let score = 0;
    let pageScore = 0;
    for (const keyword of rule.keywords) {
      const variants = wordVariants(keyword);
      score += hits(types, variants) * INDUSTRY_WEIGHTS.productType;
      score += hits(names, variants) * INDUSTRY_WEIGHTS.productName;
      score += hits(tagSets, variants) * INDUSTRY_WEIGHTS.tag;
      score += hits(titles, variants) * INDUSTRY_WEIGHTS.collectionTitle;
      pageScore += countKeyword(pageText, keyword) * INDUSTRY_WEIGHTS.pageText;
    }
    score += Math.min(pageScore, PAGE_TEXT_CAP);
    if (score > 0) scores[rule.label] = Math.round(score * 100) / 100;
  }
  const ranked = INDUSTRY_RULES.map((r) => ({ label: r.label, score: scores[r.label] ?? 0 }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score); // stable: ties keep rule order
  if (ranked.length && ranked[0].score >= MIN_SCORE) {
    const [first, second] = ranked;
    const industry = second && second.score >= first.score / 2 ? `${first.label} and ${second.label}` : first.label;
    return { industry, basis: 'keywords', scores };
  }
  const type = mostCommonProductType(snapshot);
  if (type) return { industry: type.toLowerCase(), basis: 'product-type', scores };
  return { industry: 'online retail', basis: 'default', scores };
}

/** The platform's catch-all collections: not a real category. */
export function isCatchAllCollection(handle: string, title: string): boolean {
  const h = handle.toLowerCase();
  const t = title.trim().toLowerCase();
  return h === 'all' || h === 'frontpage' || h === 'home' || h === 'all-products' || t === 'all' || t === 'all products' || t === 'home page' || t === 'frontpage' || !t;
}
