/**
 * The question templates of AI articles (spec: create-ai-article, rule 2) and the constant
 * lists their placeholders take values from. Pure data.
 *
 * Placeholders (the spec's six, plus two for product articles):
 * - `{industry}`: the business's inferred industry (generate/industry.ts or the narrative's),
 *   written in its modifier form before a noun ("specialty coffee shops", "book shops");
 * - `{problem}`: a need or problem the store's own content states (titles.ts `problemsFrom`);
 *   always read after "for" ("for milk drinks", "for preventing slipping");
 * - `{city}`: one of `ARTICLE_CITIES` (38);
 * - `{audience}`: one of `ARTICLE_AUDIENCES` (17);
 * - `{year}`: the current or the next year (titles.ts `titleYear`), always written `in {year}`,
 *   the form the daily refresh (core/site/refresh.ts) moves on January 1;
 * - `{list_size}`: one of `ARTICLE_LIST_SIZES` (3, 5, 7, 10, 15, 20);
 * - `{product}` (added): the product's kind as a plural or mass noun ("coffee beans",
 *   "brewing equipment"); after "best" (where a count or "are" precedes it) a mass kind
 *   becomes "<kind> products" ("the 5 best brewing equipment products");
 * - `{product_name}` (added): the product's own name, after "the" ("the House Espresso
 *   Blend"; a name starting with "The" drops it), only when it does not name the business.
 *
 * 49 templates: 25 for the business (`scope: 'business'`, built on `{industry}`) and 24 for a
 * product (`scope: 'product'`, built on `{product}` or `{product_name}`). Every template is a
 * question that starts with a question word or an auxiliary and ends with "?", and reads
 * grammatically for any value of its placeholders (no verb agrees with a placeholder).
 */

export type TemplateScope = 'business' | 'product';

export type Placeholder = 'industry' | 'problem' | 'city' | 'audience' | 'year' | 'list_size' | 'product' | 'product_name';

export interface QuestionTemplate {
  /** Stable id: `b01`..`b25` (business), `p01`..`p24` (product). */
  id: string;
  scope: TemplateScope;
  text: string;
}

/** The spec's six placeholders. */
export const SPEC_PLACEHOLDERS: readonly Placeholder[] = ['industry', 'problem', 'city', 'audience', 'year', 'list_size'];

/** Placeholders a template text uses, in order of first appearance. */
export function placeholdersOf(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const m of text.matchAll(/\{([a-z_]+)\}/g)) {
    const name = m[1] as Placeholder;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

const BUSINESS_TEMPLATES: readonly string[] = [
  'What are the best online {industry} shops in {year}?',
  'How do I choose a good online {industry} shop?',
  'What should I look for when buying {industry} products online?',
  'What are the most common mistakes people make when buying {industry} products?',
  'What are the {list_size} best {industry} gift ideas for {audience}?',
  'What are the best {industry} gifts for {audience} in {year}?',
  'Which {industry} products are best for {audience}?',
  'What do {audience} need to know before buying {industry} products?',
  'How can {audience} save time when shopping for {industry} products online?',
  'Where can I buy {industry} products online in {city}?',
  'Which online {industry} shops deliver to {city}?',
  'What are the best online {industry} shops for people in {city}?',
  'How do online {industry} shops compare with local stores in {city}?',
  'Where can {audience} in {city} buy {industry} products online?',
  'What are the {list_size} best {industry} products to order online in {city}?',
  'What are the {list_size} best online {industry} shops in {year}?',
  'What are {list_size} things to know before buying {industry} products?',
  'What are the best {industry} products for {problem}?',
  'How do I choose {industry} products for {problem}?',
  'What are the {list_size} best {industry} products for {problem} in {year}?',
  'Where can I buy {industry} products for {problem} in {city}?',
  'What should {audience} look for in {industry} products for {problem}?',
  'What are the {industry} trends to watch in {year}?',
  'Is it worth buying {industry} products online in {year}?',
  'What are the best {industry} gifts for {audience} in {city}?',
];

const PRODUCT_TEMPLATES: readonly string[] = [
  'What are the best {product} for {audience}?',
  'What are the best {product} for {problem}?',
  'How do I choose {product} for {problem}?',
  'Should {audience} buy {product} online?',
  'What are the {list_size} best {product} for {audience} in {year}?',
  'Where can I buy {product} online in {city}?',
  'Where can {audience} in {city} buy {product} online?',
  'What should I look for when buying {product}?',
  'What are the most common mistakes people make when buying {product}?',
  'How do I choose the right {product} in {year}?',
  'What are the {list_size} best {product} to buy online in {year}?',
  'What are the {list_size} best {product} for {problem}?',
  'What do {audience} need to know before buying {product}?',
  'How do {audience} use {product} for {problem}?',
  'Which online shops deliver {product} to {city}?',
  'What are the {list_size} best {product} to order online in {city}?',
  'What are the best {product} for {audience} in {city}?',
  'Where can I buy {product} for {problem} in {city}?',
  'Is the {product_name} a good choice for {audience}?',
  'Is the {product_name} good for {problem}?',
  'What is the {product_name} best used for?',
  'How does the {product_name} compare with other {product}?',
  'Is the {product_name} worth buying in {year}?',
  'Where can {audience} in {city} buy the {product_name} online?',
];

/** The 49 question templates (spec rule 2). */
export const QUESTION_TEMPLATES: readonly QuestionTemplate[] = [
  ...BUSINESS_TEMPLATES.map((text, i) => ({ id: `b${String(i + 1).padStart(2, '0')}`, scope: 'business' as const, text })),
  ...PRODUCT_TEMPLATES.map((text, i) => ({ id: `p${String(i + 1).padStart(2, '0')}`, scope: 'product' as const, text })),
];

/**
 * 38 large cities people name when they ask where to buy: constant, so the title space of
 * every store is the same size and a title never depends on where the store is.
 */
export const ARTICLE_CITIES: readonly string[] = [
  'New York', 'Los Angeles', 'Chicago', 'Houston', 'Phoenix', 'Philadelphia', 'San Diego', 'Dallas',
  'Austin', 'San Francisco', 'Seattle', 'Denver', 'Boston', 'Miami', 'Atlanta', 'Toronto',
  'Vancouver', 'Montreal', 'London', 'Manchester', 'Dublin', 'Paris', 'Berlin', 'Amsterdam',
  'Madrid', 'Barcelona', 'Rome', 'Stockholm', 'Copenhagen', 'Sydney', 'Melbourne', 'Auckland',
  'Singapore', 'Tokyo', 'Hong Kong', 'Dubai', 'Mumbai', 'Cape Town',
];

/**
 * 17 audiences, plural nouns that read after "for", before "need" and as a subject. No minors:
 * a store may sell wine or supplements.
 */
export const ARTICLE_AUDIENCES: readonly string[] = [
  'beginners', 'students', 'busy parents', 'new parents', 'remote workers', 'seniors', 'new homeowners',
  'small business owners', 'frequent travelers', 'couples', 'first-time buyers', 'eco-conscious shoppers',
  'budget-conscious shoppers', 'busy professionals', 'hobbyists', 'apartment dwellers', 'families',
];

/** The list sizes of "the N best ..." titles. */
export const ARTICLE_LIST_SIZES: readonly number[] = [3, 5, 7, 10, 15, 20];
