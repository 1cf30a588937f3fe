import * as cheerio from 'cheerio';
import { collectionProducts } from '../../../functions/core/site/build';
import { escapeHtml, humanDate, isoSeconds, jsonLdText, pageTitle, renderPage, truncate } from '../../../functions/core/site/html';
import { snapshot } from './fixtures';

describe('titles and descriptions', () => {
  it('pageTitle stays within 70 characters and keeps the store name', () => {
    const long = 'How long does it take for an order to arrive when shipping to Alaska, Hawaii or the territories?';
    const title = pageTitle(long, 'Northwind Coffee Roasters');
    expect(title.length).toBeLessThanOrEqual(70);
    expect(title.endsWith(' | Northwind Coffee Roasters')).toBe(true);
    expect(title).toContain('…');
    const hugeStore = 'The Extraordinarily Long-Named Artisanal Coffee Roasting Company of Portland';
    const t2 = pageTitle('Blue Mug', hugeStore);
    expect(t2.length).toBeLessThanOrEqual(70);
    expect(t2.startsWith('Blue Mug | The Extraordinarily')).toBe(true);
    expect(pageTitle('', 'Shop')).toBe('Shop');
  });

  it('truncate cuts at a word boundary', () => {
    expect(truncate('one two three four', 12)).toBe('one two…');
    expect(truncate('short', 160)).toBe('short');
    expect(truncate('a\n\nb', 10)).toBe('a b');
  });

  it('renderPage limits the meta description to 160 characters', () => {
    const html = renderPage({
      storeName: 'Shop',
      storeUrl: 'https://shop.example',
      title: 'T',
      description: 'word '.repeat(100),
      canonical: 'https://shop.example/',
      modifiedTime: '2026-01-01T00:00:00Z',
      jsonLd: [],
      body: '',
    });
    const description = cheerio.load(html)('meta[name="description"]').attr('content') ?? '';
    expect(description.length).toBeLessThanOrEqual(160);
  });
});

describe('escaping', () => {
  it('escapeHtml covers text and both attribute quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('jsonLdText has no < and parses back to the data', () => {
    const data = { a: '</script><!-- \u2028 & >' };
    const text = jsonLdText(data);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(data);
  });
});

describe('dates', () => {
  it('humanDate is the UTC calendar date in words', () => {
    expect(humanDate('2026-03-14T23:59:59Z')).toBe('March 14, 2026');
    expect(humanDate('2026-03-14T23:59:59-05:00')).toBe('March 15, 2026');
    expect(isoSeconds('2026-03-14T09:12:00.123Z')).toBe('2026-03-14T09:12:00Z');
  });
});

describe('collection membership', () => {
  const { products, collections } = snapshot();

  it('matches type, tag or vendor to the handle or title, singular or plural; all-like handles hold all', () => {
    expect(collectionProducts(collections[0]!, products).map((p) => p.productId)).toEqual(['ethiopia-yirgacheffe', 'house-espresso-blend', 'decaf-colombia']);
    expect(collectionProducts(collections[1]!, products).map((p) => p.productId)).toEqual(['ceramic-pour-over-dripper', 'model-2025-burr-grinder']);
    expect(collectionProducts(collections[2]!, products)).toHaveLength(6);
    expect(collectionProducts({ handle: 'mug', title: 'Mug', url: 'x', description: '' }, products).map((p) => p.productId)).toEqual(['script-mug']);
  });

  it('uses explicit membership when given', () => {
    expect(collectionProducts(collections[0]!, products, { 'coffee-beans': ['decaf-colombia', 'nope', 'decaf-colombia'] }).map((p) => p.productId)).toEqual(['decaf-colombia']);
  });
});
