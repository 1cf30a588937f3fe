import { buildOfflineNarrative, createOfflineGenerator, productSummary, MAX_FAQS, MIN_FAQS } from '../../functions/core/generate/offline-engine';
import { inferIndustry } from '../../functions/core/generate/industry';
import { priceRange, formatPriceRange } from '../../functions/core/generate/catalog';
import { splitSentences } from '../../functions/core/generate/text';
import type { StoreSnapshot } from '../../functions/core/site/types';
import { coffeeStore, inputText, PRODUCTS } from './fixtures';

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A key fact is a verbatim input sentence, optionally prefixed "<product name>: ". */
function sourceSentenceOf(fact: string, snapshot: StoreSnapshot): string {
  for (const p of snapshot.products) if (fact.startsWith(`${p.name}: `)) return fact.slice(p.name.length + 2);
  return fact;
}

describe('offline generator', () => {
  it('is named offline and deterministic (same snapshot, same narrative)', async () => {
    const gen = createOfflineGenerator();
    expect(gen.name).toBe('offline');
    const a = await gen.generateNarrative(coffeeStore());
    const b = await gen.generateNarrative(coffeeStore());
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(a.engine).toEqual({ name: 'offline' });
  });

  it('does not modify the snapshot', () => {
    const snapshot = coffeeStore();
    const before = JSON.stringify(snapshot);
    buildOfflineNarrative(snapshot);
    expect(JSON.stringify(snapshot)).toBe(before);
  });

  it('writes a summary and description from the store pages and catalogue', () => {
    const n = buildOfflineNarrative(coffeeStore());
    // the home page meta description, then computed catalogue figures
    expect(n.summary).toBe(
      // No price range in prose (issue item 6): prices go stale in text nobody rewrites.
      'Small-batch specialty coffee and loose leaf tea, roasted and blended in Portland, Oregon. Ember & Leaf offers 8 products across coffee, tea and brewing gear.',
    );
    expect(n.description).toContain('Ember & Leaf is a small roastery and tea house that sells freshly roasted specialty coffee, loose leaf tea and brewing gear online.');
    expect(n.description).toContain('Ember & Leaf started in 2016 as a weekend stall at the Portland farmers market.');
    expect(n.description).toContain('The catalogue lists 8 products from Ember & Leaf and Kōno Works.');
    expect(n.description).toContain('Product types: Coffee (4), Tea (3) and Brewing Gear (1).');
    expect(n.description).not.toMatch(/Prices range|priced|available\)/); // no volatile offer facts in prose (item 6)
    // marketing boilerplate is not quoted
    expect(n.description).not.toMatch(/newsletter/i);
  });

  it('every description sentence that is not a computed figure is quoted from the input', () => {
    const snapshot = coffeeStore();
    const n = buildOfflineNarrative(snapshot);
    const input = norm(inputText(snapshot));
    const [story, , policies] = n.description.split('\n\n');
    const quoted = [...splitSentences(story), ...splitSentences(policies)];
    expect(quoted.length).toBeGreaterThanOrEqual(6);
    for (const sentence of quoted) expect(input).toContain(norm(sentence));
  });

  it('infers the industry from product types, tags, collections and pages', () => {
    const snapshot = coffeeStore();
    const inference = inferIndustry(snapshot);
    expect(inference.industry).toBe('specialty coffee and tea');
    expect(inference.basis).toBe('keywords');
    expect(inference.scores['specialty coffee']).toBeGreaterThan(inference.scores.tea);
    expect(buildOfflineNarrative(snapshot).industry).toBe('specialty coffee and tea');
  });

  it('falls back to the most common product type, lower-cased, when no keyword matches', () => {
    const snapshot = coffeeStore({
      pages: [],
      collections: [],
      products: PRODUCTS.map((p, i) => ({ ...p, name: `Item ${i}`, tags: [], productType: i < 5 ? 'Zorblat' : 'Quix', description: '' })),
    });
    expect(inferIndustry(snapshot)).toMatchObject({ industry: 'zorblat', basis: 'product-type' });
    // The narrative names the industry by the catalogue's own kinds (issue 44: catalogue-industry.ts).
    expect(buildOfflineNarrative(snapshot).audience).toBe('Shoppers interested in zorblats and quixes');
  });

  it('takes the audience from an explicit "for ..." statement of the store', () => {
    expect(buildOfflineNarrative(coffeeStore()).audience).toBe('Home brewers and curious coffee drinkers who want to taste where their beans come from');
  });

  it('derives categories from collections (no all/frontpage) and product types, de-duplicated', () => {
    expect(buildOfflineNarrative(coffeeStore()).categories).toEqual(['Coffee', 'Teas', 'Brewing Equipment', 'Brewing Gear']);
  });

  it('only states key facts that are sentences of the input', () => {
    const snapshot = coffeeStore();
    const n = buildOfflineNarrative(snapshot);
    const input = norm(inputText(snapshot));
    expect(n.keyFacts.length).toBeGreaterThanOrEqual(5);
    for (const fact of n.keyFacts) expect(input).toContain(norm(sourceSentenceOf(fact, snapshot)));
    expect(n.keyFacts).toEqual(expect.arrayContaining([
      'Free shipping on all US orders over $45.',
      'We buy green coffee directly from farms in Ethiopia, Colombia and Guatemala.',
      'All of our teas are certified organic.',
    ]));
    // Store-level facts only: a product's origin sentence is on its own fact card (issue 44).
    expect(n.keyFacts.some((f) => PRODUCTS.some((p) => f.startsWith(`${p.name}: `)))).toBe(false);
    // the newsletter discount is marketing, not a fact
    expect(n.keyFacts.join(' ')).not.toMatch(/newsletter|10% off/);
  });

  it('puts the store’s own Q&A first, then generated ones; 8-20 unique questions', () => {
    const n = buildOfflineNarrative(coffeeStore());
    expect(n.faqs.slice(0, 4)).toEqual([
      { question: 'How fresh is your coffee?', answer: 'Every order is roasted to order and shipped within 48 hours of roasting. The roast date is printed on every bag.' },
      { question: 'Do you grind the beans?', answer: 'Yes. Choose whole bean, espresso, filter or French press grind when you add a coffee to your cart.' },
      { question: 'Can I pause my subscription?', answer: 'Yes, you can pause or cancel your subscription at any time from your account page.' },
      { question: 'How should I store loose leaf tea?', answer: expect.stringMatching(/^Keep tea in an airtight container away from light, heat and strong smells\./) },
    ]);
    expect(n.faqs.length).toBeGreaterThanOrEqual(MIN_FAQS);
    expect(n.faqs.length).toBeLessThanOrEqual(MAX_FAQS);
    const keys = n.faqs.map((f) => f.question.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
    const questions = n.faqs.map((f) => f.question);
    expect(questions).toEqual(expect.arrayContaining([
      'What does Ember & Leaf sell?',
      "Where can I find current prices for Ember & Leaf's products?",
      'Which collections does Ember & Leaf offer?',
      "What are Ember & Leaf's shipping options?",
    ]));
  });

  it('never quotes a price or a stock level in generated prose: it says where current prices are (issue 10, item 6)', () => {
    const n = buildOfflineNarrative(coffeeStore());
    const faq = n.faqs.find((f) => f.question.includes('current prices'));
    expect(faq?.answer).toBe("Each product's current price (in USD) and availability are listed on its page and in its product file here, as Ember & Leaf states them on its own store at https://emberandleaf.example.");
    expect(n.faqs.some((f) => /least and most expensive|price range/i.test(f.question))).toBe(false);
    expect(n.faqs.find((f) => f.question === 'How many products does Ember & Leaf offer?')?.answer).toBe("Ember & Leaf's catalogue lists 8 products.");
    // No generated answer, summary or description states a money amount except a store policy's.
    const money = /(?:USD|EUR|GBP)\s?\d|[$€£]\s?\d/;
    const policy = /shipping|orders?|returns?/i;
    for (const text of [n.summary, n.description, ...n.faqs.map((f) => f.answer), ...Object.values(n.productSummaries)]) {
      for (const sentence of splitSentences(text)) if (money.test(sentence)) expect(sentence).toMatch(policy);
    }
  });

  it('drops price sentences the store wrote in a product description from the product summary', () => {
    const snapshot = coffeeStore();
    const p = { ...snapshot.products[0]!, description: 'A bright washed coffee. Now only $12.50 a bag. Notes of jasmine and lime.' };
    expect(productSummary(p)).not.toMatch(/\$12\.50/);
    expect(productSummary(p)).toContain('A bright washed coffee.');
  });

  it('price range: most common currency, unparsable and missing prices ignored', () => {
    const products = PRODUCTS.slice(0, 4).map((p) => ({ ...p }));
    products[0].price = null;
    products[1].price = 'free';
    products[2].currency = 'EUR';
    products[2].price = '1.00';
    products.push({ ...PRODUCTS[4], price: '99.90' });
    const range = priceRange(products)!;
    expect(range.currency).toBe('USD');
    expect(formatPriceRange(range)).toBe('USD 18.00 to USD 99.90');
    expect(priceRange([])).toBeNull();
  });

  it('does not invent a return policy when the store has none', () => {
    const n = buildOfflineNarrative(coffeeStore());
    expect(n.faqs.some((f) => /return|refund/i.test(f.question))).toBe(false);
    expect(n.keyFacts.some((f) => /return|refund/i.test(f))).toBe(false);
  });

  it('answers the return-policy question with the store’s own sentence when there is one', () => {
    const snapshot = coffeeStore();
    snapshot.pages.push({
      url: 'https://emberandleaf.example/policies/refund-policy', kind: 'page', title: 'Refund policy', description: '', fingerprint: 'x', statusCode: 200,
      markdown: '# Refund policy\n\nUnopened bags can be returned within 30 days for a full refund.\n',
    });
    const n = buildOfflineNarrative(snapshot);
    expect(n.faqs.find((f) => f.question === "What is Ember & Leaf's return policy?")?.answer).toBe('Unopened bags can be returned within 30 days for a full refund.');
    expect(n.keyFacts).toContain('Unopened bags can be returned within 30 days for a full refund.');
  });

  it('summarises each product: type, vendor and the first sentences of its description (no price: it goes stale)', () => {
    const n = buildOfflineNarrative(coffeeStore());
    expect(Object.keys(n.productSummaries)).toEqual(PRODUCTS.map((p) => p.productId));
    expect(n.productSummaries['ethiopia-yirgacheffe']).toBe(
      'Ethiopia Yirgacheffe is a coffee from Ember & Leaf. A light roast with notes of jasmine, bergamot and lemon. Grown by smallholder farmers in the Gedeo Zone of Ethiopia.',
    );
    expect(n.productSummaries['ceramic-dripper']).toBe(
      'Ceramic Pour-Over Dripper is brewing gear from Kōno Works. A hand-glazed ceramic cone dripper that fits most mugs. Uses size 02 filters.',
    );
  });

  it('summarises a product with no type, vendor, price or description without inventing them', () => {
    expect(productSummary({ ...PRODUCTS[0], productType: '', vendor: '', price: null, description: '' })).toBe('Ethiopia Yirgacheffe is a product.');
    expect(productSummary({ ...PRODUCTS[0], productType: 'Accessories', currency: null, description: '' })).toBe(
      'Ethiopia Yirgacheffe is a product in the Accessories category from Ember & Leaf.',
    );
    // A vendor ending in an abbreviation ends the sentence once ("Co.", not "Co..").
    expect(productSummary({ ...PRODUCTS[0], vendor: 'Harbor & Pine Coffee Co.', description: '' })).toBe('Ethiopia Yirgacheffe is a coffee from Harbor & Pine Coffee Co.');
    // a/an as the indefinite library says it: "an 8-inch knife".
    expect(productSummary({ ...PRODUCTS[0], productType: '8-inch Knife', vendor: '', description: '' })).toBe('Ethiopia Yirgacheffe is an 8-inch knife.');
  });

  it('handles an empty catalogue', () => {
    const n = buildOfflineNarrative(coffeeStore({ products: [], collections: [] }));
    expect(n.productSummaries).toEqual({});
    expect(n.categories).toEqual([]);
    expect(n.summary).toBe('Small-batch specialty coffee and loose leaf tea, roasted and blended in Portland, Oregon.');
    expect(n.faqs.some((f) => /price|how many products/i.test(f.question))).toBe(false);
    expect(n.faqs.slice(0, 4).map((f) => f.question)).toEqual([
      'How fresh is your coffee?', 'Do you grind the beans?', 'Can I pause my subscription?', 'How should I store loose leaf tea?',
    ]);
    expect(n.industry).toBe('specialty coffee and tea'); // from the page text alone
  });

  it('handles an empty catalogue and empty pages: only what the identity says', () => {
    const n = buildOfflineNarrative(coffeeStore({ products: [], collections: [], pages: [] }));
    expect(n).toEqual({
      summary: 'Ember & Leaf is an online store at https://emberandleaf.example.',
      description: 'Ember & Leaf is an online store at https://emberandleaf.example.',
      industry: 'online retail',
      audience: 'Online shoppers',
      categories: [],
      keyFacts: [],
      faqs: [{ question: "Where is Ember & Leaf's online store?", answer: "Ember & Leaf's online store is at https://emberandleaf.example." }],
      productSummaries: {},
      engine: { name: 'offline' },
    });
  });

  it('handles pages with empty markdown', () => {
    const snapshot = coffeeStore();
    snapshot.pages = snapshot.pages.map((p) => ({ ...p, markdown: '', description: '' }));
    const n = buildOfflineNarrative(snapshot);
    expect(n.keyFacts).toEqual([]);
    expect(n.summary).toBe('Ember & Leaf offers 8 products across coffee, tea and brewing gear.');
    expect(n.faqs.length).toBeGreaterThanOrEqual(MIN_FAQS);
  });

  it('stays fast on a big catalogue', () => {
    const products = Array.from({ length: 3000 }, (_, i) => ({ ...PRODUCTS[i % PRODUCTS.length], productId: `p-${i}`, name: `Product ${i}` }));
    const started = Date.now();
    const n = buildOfflineNarrative(coffeeStore({ products }));
    expect(Object.keys(n.productSummaries)).toHaveLength(3000);
    expect(n.faqs.length).toBeLessThanOrEqual(MAX_FAQS);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
