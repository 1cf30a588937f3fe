import { fitToBudget, hideName, restoreName, overviewMessages, productChunks } from '../../functions/core/generate/model-prompts';
import { extractJson, parseFaqs, parseOverview, parseProductSummaries } from '../../functions/core/generate/model-output';
import { statesPrice, withoutPrices } from '../../functions/core/generate/text';
import { coffeeStore, PRODUCTS } from './fixtures';

describe('model prompts and output parsing (pure)', () => {
  it('hides the business name in prompts, case-sensitively so slugs and hosts survive', () => {
    expect(hideName('Welcome to Ember & Leaf. EMBER & LEAF ships. Ember &amp; Leaf. /products/ember-leaf', 'Ember & Leaf'))
      .toBe('Welcome to {{STORE}}. {{STORE}} ships. {{STORE}}. /products/ember-leaf');
    expect(restoreName('{{STORE}} and {{ STORE }}', 'Ember & Leaf')).toBe('Ember & Leaf and Ember & Leaf');
  });

  it('keeps every prompt within the budget, pages sharing it fairly', () => {
    expect(fitToBudget(['aaaa', 'b'.repeat(100), 'c'.repeat(100)], 50).map((t) => t.length)).toEqual([4, 23, 23]);
    const big = coffeeStore();
    big.pages = big.pages.map((p) => ({ ...p, markdown: `${p.markdown}\n\n${'More words here. '.repeat(3000)}` }));
    const [system, user] = overviewMessages(big, 12_000);
    expect(user.content.length).toBeLessThan(14_000);
    expect(system.content).not.toContain('Ember');
    expect(user.content).toContain('We buy green coffee directly from farms');
  });

  it('chunks products by count and by budget', () => {
    const products = Array.from({ length: 450 }, (_, i) => ({ ...PRODUCTS[i % 8], productId: `p-${i}` }));
    expect(productChunks(products, 1_000_000, 200).map((c) => c.length)).toEqual([200, 200, 50]);
    expect(productChunks(products, 12_000, 200).every((c) => c.length < 200)).toBe(true);
  });

  it('extracts JSON from plain, fenced or wrapped content', () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Sure: {"a":1} done')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('[1,2]')).toEqual({ ok: false, error: 'model output is not a JSON object' });
  });

  it('names missing and oversized fields', () => {
    const r = parseOverview(JSON.stringify({ summary: 'A fine summary of the store.', description: 'd'.repeat(5000), industry: 'coffee', audience: 'everyone', categories: [] }), 'X');
    expect(r).toEqual({ ok: false, error: 'model output failed validation: description too long; keyFacts expected array' });
  });

  it('keeps only requested product ids', () => {
    const r = parseProductSummaries(JSON.stringify({ productSummaries: { a: 'Summary of product a.', zzz: 'Unknown product summary.' } }), 'X', new Set(['a', 'b']));
    expect(r).toEqual({ ok: true, value: { a: 'Summary of product a.' }, notes: ['dropped 1 unknown product id(s): zzz'] });
    expect(parseProductSummaries('{"productSummaries":{"zzz":"Unknown product."}}', 'X', new Set(['a']))).toMatchObject({ ok: false });
  });

  it('drops sentences stating prices from what the model wrote, whatever it was told; policy amounts stay', () => {
    expect(statesPrice('The mug costs $18.')).toBe(true);
    expect(statesPrice('Prices range from USD 7.00 to USD 89.00.')).toBe(true);
    expect(statesPrice('Free shipping on US orders over $45.')).toBe(false);
    expect(withoutPrices('A stoneware mug. Only $18 this week. Dishwasher safe.')).toBe('A stoneware mug. Dishwasher safe.');
    const faqs = parseFaqs(JSON.stringify({ faqs: [
      { question: 'What does {{STORE}} sell?', answer: 'Coffee and tea. Bags start at $12.50.' },
      { question: 'How much is the mug?', answer: 'It costs $18.' },
      { question: 'Is shipping free?', answer: 'Yes, on US orders over $45.' },
    ] }), 'Ember & Leaf');
    expect(faqs).toEqual({ ok: true, value: [
      { question: 'What does Ember & Leaf sell?', answer: 'Coffee and tea.' },
      { question: 'Is shipping free?', answer: 'Yes, on US orders over $45.' },
    ] });
    const products = parseProductSummaries(JSON.stringify({ productSummaries: { a: 'A washed coffee from Huila. Priced at $19.', b: 'USD 19.00.' } }), 'X', new Set(['a', 'b']));
    // b said nothing but its price: omitted, so the engine writes it offline.
    expect(products).toEqual({ ok: true, value: { a: 'A washed coffee from Huila.' } });
    const overview = parseOverview(JSON.stringify({ summary: 'A roastery in Portland. Coffee from $12.', description: 'Small-batch coffee and tea, roasted weekly.', industry: 'coffee', audience: 'home brewers', categories: ['Coffee'], keyFacts: ['Bags cost $12 to $34.', 'Roasted in Portland.'] }), 'X');
    expect(overview).toMatchObject({ ok: true, value: { summary: 'A roastery in Portland.', keyFacts: ['Roasted in Portland.'] } });
  });
});
