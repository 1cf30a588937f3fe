import { bm25Index, passagesOf, tokens } from '../../bench/bm25';
import { catalogueQuestions, htmlDocument, judge, priceMatcher, productQuestions, readPassage, typeQuestions, type Question } from '../../bench/answerability';
import { dawnStorePages, money } from '../../bench/store-pages';
import type { CatalogProduct, CatalogVariant, StoreSnapshot } from '../../functions/core/site/types';

function variant(options: string[], price: string, available = true): CatalogVariant {
  return { id: null, title: options.join(' / '), options, price, compareAtPrice: null, available, sku: null, gtin: null };
}

function product(name: string, extra: Partial<CatalogProduct> = {}): CatalogProduct {
  const variants = extra.variants ?? [variant([], '55.00')];
  return {
    productId: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), name, url: `https://shop.example/products/${encodeURIComponent(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}`,
    description: '', productType: 'Mug', vendor: 'Potter', tags: [], price: variants[0]!.price, compareAtPrice: null, currency: 'GBP',
    available: variants.some((v) => v.available), optionNames: [], variants, imageUrls: [], updatedAt: null, ...extra,
  };
}

const ask = (q: Question, ...passages: string[]) => judge(q, passages.map(readPassage));

describe('answerability bench', () => {
  it('counts an answer only in a passage that names the product', () => {
    const [price] = productQuestions(product('Blue Stoneware Mug'));
    expect(price!.kind).toBe('price');
    expect(ask(price!, 'Blue Stoneware Mug: GBP 55.00, in stock')).toBe(true);
    expect(ask(price!, 'Green Teapot: GBP 55.00, in stock', 'Blue Stoneware Mug is hand thrown')).toBe(false);
  });

  it('reads prices as stores write them, and not a bare number of the name', () => {
    const matches = (amount: string, text: string) => priceMatcher(amount)(readPassage(text));
    expect(matches('1299.00', 'Oven £1,299.00 GBP')).toBe(true);
    expect(matches('1299.00', 'Oven GBP 1299')).toBe(true);
    expect(matches('55.00', 'Tumbler 55 oz, 12,55.00x')).toBe(false);
    expect(matches('55.50', 'Tumbler $55 USD')).toBe(false);
  });

  it('ranks the passage holding the rare query term first', () => {
    const index = bm25Index(['mug mug mug blue', 'mug glaze celadon', 'mug blue', 'teapot blue']);
    expect(index.search('celadon mug', 2)).toEqual([1, 0]);
    expect(tokens('The $1,299.00 Oven')).toEqual(['1299.00', 'oven']);
  });

  it('cuts documents into ~90-word passages headed by their title', () => {
    const text = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const passages = passagesOf({ path: '/a', title: 'Blue Mug', text });
    expect(passages).toHaveLength(2);
    expect(passages.every((p) => p.text.startsWith('Blue Mug w'))).toBe(true);
    expect(passages[1]!.text.split(' ')).toHaveLength(102);
  });

  it('asks no type question of a placeholder type, and finds the cheapest of a real one', () => {
    const products = [product('A Mug', { variants: [variant([], '12.00')] }), product('B Mug', { variants: [variant([], '9.50')] }), product('C Mug', { variants: [variant([], '30.00')] })];
    const store = (type: string): StoreSnapshot => ({
      business: { name: 'Potter', orgSlug: 'potter', url: 'https://shop.example', domain: 'shop.example' },
      pages: [], collections: [], storeSitemapUrls: [], products: products.map((p) => ({ ...p, productType: type })),
    });
    expect(catalogueQuestions(store('Standard')).filter((q) => q.kind === 'cheapest' || q.kind === 'under')).toEqual([]);
    const [cheapest, under] = typeQuestions('mug', products, 'Potter', 'GBP');
    expect(cheapest!.text).toBe('What is the cheapest mug at Potter?');
    expect(ask(cheapest!, 'B Mug GBP 9.50')).toBe(true);
    expect(ask(cheapest!, 'A Mug GBP 12.00')).toBe(false);
    expect(under!.text).toBe('Which mug cost under GBP 15?');
    expect(ask(under!, 'A Mug GBP 12.00', 'B Mug GBP 9.50')).toBe(true);
    expect(ask(under!, 'A Mug GBP 12.00 B Mug')).toBe(false);
  });

  it('asks for option values and the sold-out variant, and Dawn pages state them without JavaScript', () => {
    const mug = product('Blue Mug', {
      optionNames: ['Size'], variants: [variant(['Small'], '20.00'), variant(['Large'], '1250.00', false)],
      price: '20.00', description: 'Made of stoneware.',
    });
    const questions = productQuestions(mug);
    expect(questions.map((q) => q.kind)).toEqual(['price', 'options', 'sold out', 'material']);
    expect(questions[2]!.text).toBe('Is Blue Mug Large in stock?');
    const store: StoreSnapshot = { business: { name: 'Potter', orgSlug: 'potter', url: 'https://shop.example', domain: 'shop.example' }, pages: [], collections: [], storeSitemapUrls: [], products: [mug] };
    const [page] = dawnStorePages(store, () => '<p>Made of stoneware.</p>');
    const doc = htmlDocument(page!.path, page!.content);
    expect(doc.title).toBe('Blue Mug');
    expect(doc.text).toContain('£20.00 GBP');
    expect(doc.text).toContain('Large - Sold out - £1,250.00');
    expect(doc.text).not.toMatch(/<|window\.|visually-hidden\{/); // <noscript> read as HTML; scripts and styles not read
    for (const q of questions) expect(ask(q, `${doc.title} ${doc.text}`)).toBe(true);
    expect(money('1250', 'NZD')).toBe('$1,250.00 NZD');
  });
});
