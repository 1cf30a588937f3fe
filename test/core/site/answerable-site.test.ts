/**
 * Issue 44: an AI site an assistant finds its answers in. On a Shopify-shaped store whose
 * products carry the platform's placeholder type ("normal"), colour options with sold-out
 * values, a material in the text, a duplicate listing and a camouflage print named after a
 * wood, and on the shared real catalogues when they are beside the project:
 *
 * - every document about one product opens with its fact card: within its first 80 words the
 *   price, the stock, each option's values and what is sold out, every line naming the product;
 * - no placeholder type is printed anywhere, and the industry is what the products are;
 * - "what is the cheapest <kind>?" is answered on the kind's page, the cheapest product named
 *   beside its price, and the page is linked from llms.txt;
 * - llms.txt states one product count everywhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { buildOfflineNarrative } from '../../../functions/core/generate';
import { toCatalogProduct, type StorefrontProduct } from '../../../functions/core/products/catalog';
import { buildSiteFiles, finalizeSite } from '../../../functions/core/site/build';
import type { SiteFile, StoreSnapshot } from '../../../functions/core/site/types';

const NOW = '2026-11-28T09:00:00.000Z';
const STORE = 'https://canteen-co.example';

function variant(id: number, option: string, price: string, available: boolean) {
  return { id, title: option, option1: option, price, compare_at_price: null, available, sku: `SKU-${id}` };
}

function item(id: number, title: string, type: string, body: string, variants: ReturnType<typeof variant>[], options = ['Color']): StorefrontProduct {
  return {
    id, title, handle: title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''), body_html: body, vendor: 'Canteen Co', product_type: type,
    tags: ['Drinkware'], updated_at: '2026-10-01T00:00:00Z', images: [{ src: `${STORE}/img/${id}.jpg` }], options: options.map((name) => ({ name })), variants,
  } as unknown as StorefrontProduct;
}

const RAW: StorefrontProduct[] = [
  item(1, 'The Trail Tumbler | 20 OZ', 'normal', '<p>Double-wall vacuum insulated tumbler made of 18/8 stainless steel. Keeps drinks cold for 11 hours.</p>', [
    variant(11, 'Frost', '30.00', true), variant(12, 'Rose Quartz', '30.00', false), variant(13, 'Black', '30.00', true),
  ]),
  item(2, 'The Trail Tumbler | 40 OZ', 'normal', '<p>Our biggest tumbler, made of stainless steel.</p>', [variant(21, 'Frost', '45.00', true), variant(22, 'Lilac', '45.00', true)]),
  item(3, 'The Summit Tumbler | 30 OZ', 'normal', '<p>A tumbler for long days.</p>', [variant(31, 'Black', '38.00', true), variant(32, 'Sand', '38.00', false)]),
  item(4, 'Classic Food Jar | 24 OZ', 'normal', '<p>Mossy Oak® Country DNA print on a steel jar.</p>', [variant(41, 'Mossy Oak Country DNA', '35.00', true)]),
  item(5, 'Classic Food Jar | 14 OZ', 'normal', '<p>A smaller steel food jar.</p>', [variant(51, 'Default Title', '28.00', true)], ['Title']),
];

function snapshot(raw: StorefrontProduct[], name: string, origin: string, currency: string): StoreSnapshot {
  const products = raw.map((p) => toCatalogProduct(p, origin, currency));
  return { business: { name, orgSlug: 'store', url: origin, domain: new URL(origin).host }, pages: [], products, collections: [], storeSitemapUrls: [] };
}

function canteen(): StoreSnapshot {
  const snap = snapshot(RAW, 'Canteen Co', STORE, 'USD');
  // The store lists the 20 OZ tumbler twice (a duplicate listing), and its product page was scraped.
  snap.products.push({ ...snap.products[0]! });
  snap.pages = [{
    url: `${STORE}/products/the-trail-tumbler-20-oz`, kind: 'product', title: 'The Trail Tumbler | 20 OZ – Canteen Co', description: '',
    markdown: '# The Trail Tumbler | 20 OZ\n\nDouble-wall vacuum insulated tumbler.', fingerprint: 'f', statusCode: 200,
  }];
  return snap;
}

function publish(snap: StoreSnapshot): Map<string, SiteFile> {
  const files = buildSiteFiles(snap, buildOfflineNarrative(snap), { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const site = finalizeSite(files, { orgSlug: 'store', businessName: snap.business.name, sourceUrl: snap.business.url, publicOrigin: 'https://ai.example', storeSitemapUrls: [], deployedAt: NOW });
  return new Map(site.map((f) => [f.path, f]));
}

/** The words a reader (or a retriever cutting passages) meets first: the page's main text, a text file's lines. */
function firstWords(file: SiteFile, n: number): string {
  const text = file.path.endsWith('.html') ? cheerio.load(file.content)('main').text() : file.content;
  return text.split(/\s+/).filter(Boolean).slice(0, n).join(' ');
}

describe('issue 44: every product document opens with its fact card', () => {
  const files = publish(canteen());
  const documents = ['/ai/products/the-trail-tumbler-20-oz/index.html', '/llms/the-trail-tumbler-20-oz.txt', '/pages/products-the-trail-tumbler-20-oz.md'];

  it.each(documents)('%s: price, stock, every option value and what is sold out within its first 80 words', (path) => {
    const head = firstWords(files.get(path)!, 80);
    expect(head).toContain('USD 30.00');
    expect(head).toContain('in stock (Rose Quartz: sold out)');
    expect(head).toContain('Color options: Frost, Rose Quartz, Black');
    expect(head).toContain('Tumbler by Canteen Co');
    expect(head).toContain('material stainless steel');
  });

  it('names the product on every line of the card, so a passage cut from the middle says whose fact it is', () => {
    const $ = cheerio.load(files.get(documents[0]!)!.content);
    const lines = $('ul.fact-card li').map((_, li) => $(li).text()).get();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line.startsWith('The Trail Tumbler | 20 OZ')).toBe(true);
  });

  it('never prints a placeholder type, and reads no material from a print named after a wood', () => {
    for (const file of files.values()) {
      expect(file.content).not.toMatch(/\bnormal\b/);
      expect(file.content).not.toMatch(/made of oak|material oak|"material":"oak"/);
    }
    expect(files.get('/llms/classic-food-jar-24-oz.txt')!.content).toContain('Classic Food Jar | 24 OZ: Jar by Canteen Co, USD 35.00, in stock.');
    expect(files.get('/llms/classic-food-jar-24-oz.txt')!.content).toContain('material steel');
  });

  it('answers "what is the cheapest tumbler?" on the kind page, linked from llms.txt', () => {
    const page = cheerio.load(files.get('/ai/kinds/tumbler/index.html')!.content)('main').text();
    expect(page).toContain('Cheapest Tumbler at Canteen Co: The Trail Tumbler | 20 OZ (USD 30.00, in stock (Rose Quartz: sold out)).');
    expect(page).toContain('Most expensive Tumbler at Canteen Co: The Trail Tumbler | 40 OZ (USD 45.00, in stock).');
    expect(page).toMatch(/Tumbler under USD \d+: The Trail Tumbler \| 20 OZ \(USD 30\.00/);
    expect(page).toContain('Tumbler in Color Black: The Trail Tumbler | 20 OZ (USD 30.00');
    expect(files.get('/llms.txt')!.content).toContain('[Tumbler: prices, stock and options](https://ai.example/ai/kinds/tumbler/)');
  });

  it('gives a kind page its own canonical (content no store page carries, D207) and lists it in the sitemap and the AI home', () => {
    const $ = cheerio.load(files.get('/ai/kinds/tumbler/index.html')!.content);
    expect($('link[rel="canonical"]').attr('href')).toBe('https://ai.example/ai/kinds/tumbler/');
    expect(files.get('/sitemap.xml')!.content).toContain('<loc>https://ai.example/ai/kinds/tumbler/</loc>');
    expect(cheerio.load(files.get('/ai/index.html')!.content)('a[href="/ai/kinds/tumbler/"]').length).toBe(1);
  });

  it('states one product count in llms.txt, the duplicate listing counted once', () => {
    const llms = files.get('/llms.txt')!.content;
    const counts = [...llms.matchAll(/(\d+) products?\b/g)].map((m) => Number(m[1]));
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(counts.filter((n) => n >= 5))).toEqual(new Set([5]));
  });

  it('does not list the replica of a store product page beside the product\'s own page', () => {
    expect(files.get('/llms.txt')!.content).not.toContain('/ai/pages/products-the-trail-tumbler-20-oz.md');
  });
});

/** The shared real catalogues (../shared/catalogues), when they are beside the project. */
const SHARED = join(__dirname, '..', '..', '..', '..', 'shared', 'catalogues');
const REAL: Array<[string, string, string]> = [
  ['drinkware-stanley.json', 'Stanley', 'USD'],
  ['home-garden-outdoor.json', 'Garden Store', 'GBP'],
  ['electronics-headphones.json', 'Hi-Fi Store', 'GBP'],
];

(existsSync(SHARED) ? describe : describe.skip)('issue 44 on the shared real catalogues', () => {
  it.each(REAL)('%s: industry from what the products are, no placeholder type, every kind page answers its cheapest', (file, name, currency) => {
    const raw = (JSON.parse(readFileSync(join(SHARED, file), 'utf8')) as { products: StorefrontProduct[] }).products;
    const files = publish(snapshot(raw, name, 'https://real.example', currency));
    const llms = files.get('/llms.txt')!.content;
    const industry = /- Industry: (.*)/.exec(llms)?.[1] ?? '';
    expect(industry).not.toMatch(/plants and gardening|wine and spirits|outdoor gear/);
    expect(llms).not.toMatch(/\bis a (normal|standard)\b|Product type: (normal|Standard)\b/);
    const kindPages = [...files.keys()].filter((p) => p.startsWith('/ai/kinds/'));
    expect(kindPages.length).toBeGreaterThan(0);
    for (const path of kindPages) expect(files.get(path)!.content).toMatch(/Cheapest .* at .*: .* \((USD|GBP) [\d.]+/);
  });
});
