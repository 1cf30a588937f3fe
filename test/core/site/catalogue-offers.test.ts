/**
 * Prices, currencies, variants and stock over real-shaped catalogues: the 50-product yoga
 * store fixture (test/fixtures/yoga-store-products.json, Shopify /products.json shape) and the
 * bundled 24-product demo store read over HTTP through the storefront adapter. Every offer
 * names its currency; ranges and per-variant stock agree between data.json, llms.txt, the
 * product files and the product pages; Google's required product properties are present;
 * no internal tag becomes a keyword; product pages are og:type product.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { createGuardedFetch } from '../../../functions/adapters/external/guarded-fetch';
import { createStorefront, fetchStoreCurrency } from '../../../functions/adapters/external/storefront';
import { buildOfflineNarrative } from '../../../functions/core/generate';
import { toCatalogProduct, type StorefrontProduct } from '../../../functions/core/products/catalog';
import { isInternalTag } from '../../../functions/core/products/tags';
import { gtinOf, soldOutLabels } from '../../../functions/core/products/variants';
import { buildSiteFiles } from '../../../functions/core/site/build';
import { organizationProfile } from '../../../functions/core/site/organization';
import { productSlugs } from '../../../functions/core/site/paths';
import type { CatalogProduct, ScrapedPage, SiteFile, StoreSnapshot } from '../../../functions/core/site/types';
import { startDemoStore } from '../../../functions/local/demo-store';
import type { FetchResponse, HttpFetcher } from '../../../functions/ports';
import { parseLlmsTxt } from './helpers';
import { variantPriceRange } from '../../../bench/fidelity';

const NOW = '2026-03-14T09:12:00.000Z';
const YOGA = 'https://lotus-stone.example';
const fixture = JSON.parse(readFileSync(join(__dirname, '../../fixtures/yoga-store-products.json'), 'utf8')) as { products: StorefrontProduct[] };

type Json = Record<string, any>;

function snapshotOf(url: string, name: string, products: CatalogProduct[], pages: ScrapedPage[] = []): StoreSnapshot {
  return { business: { name, orgSlug: 'store', url, domain: new URL(url).host }, pages, products, collections: [], storeSitemapUrls: [] };
}

function build(snapshot: StoreSnapshot): { files: Map<string, SiteFile>; graph: Json[]; slugs: Map<string, string> } {
  const narrative = buildOfflineNarrative(snapshot);
  const list = buildSiteFiles(snapshot, narrative, { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const files = new Map(list.map((f) => [f.path, f]));
  const data = JSON.parse(files.get('/data.json')!.content) as Json;
  return { files, graph: data['@graph'] as Json[], slugs: productSlugs(snapshot.products) };
}

const num = (s: string | number | null | undefined) => Number(s);

/** Every check of this file, over one catalogue (raw store items and their catalogue entries). */
function checkCatalogue(raw: StorefrontProduct[], products: CatalogProduct[], currency: string, snapshot: StoreSnapshot) {
  const { files, graph, slugs } = build(snapshot);
  // data.json describes every product of a catalogue within its budget (D113 as amended);
  // each product page holds its own node. Both must be the same node.
  const dataNodes = new Map(graph.filter((n) => n['@type'] === 'Product' || n['@type'] === 'ProductGroup').map((n) => [n.url as string, n]));
  expect(dataNodes.size).toBeGreaterThan(0);
  const llms = parseLlmsTxt(files.get('/llms.txt')!.content);
  // Keyed by the linked facts file: titles repeat within a catalogue (the yoga store has 4 pairs).
  // Every product line of llms.txt, in whichever group (collection or kind) it is.
  const productLines = llms.sections.flatMap((s) => s.links).filter((l) => /\/llms\/(?!catalog\/)[^/]+\.txt$/.test(l.url));
  const listed = new Map(productLines.map((l) => [new URL(l.url).pathname, l.notes ?? '']));
  const catalogue = files.get('/llms/catalog/full.txt')!.content;
  expect(listed.size).toBeGreaterThan(0);
  const counts = { offers: 0, groups: 0, ranges: 0, partlySoldOut: 0, soldOut: 0, gtins: 0, inDataJson: 0, inLlmsTxt: 0 };

  raw.forEach((item, i) => {
    const product = products[i]!;
    const variants = item.variants ?? [];
    const { low, high, lowRaw, highRaw } = variantPriceRange(variants);
    const slug = slugs.get(product.productId)!;
    const $ = cheerio.load(files.get(`/ai/products/${slug}/index.html`)!.content);
    const { '@context': context, dateModified: _pageDate, ...node } = JSON.parse($('script[type="application/ld+json"]').first().text()) as Json;
    expect(context).toBe('https://schema.org');
    const dataNode = dataNodes.get(product.url);
    if (dataNode) {
      counts.inDataJson++;
      const { dateModified: _dataDate, ...rest } = dataNode;
      expect(rest).toEqual(node);
    }

    // Google's required product properties: name, image, offers (price + currency + availability).
    expect(node.name).toBe(item.title.trim());
    expect(Array.isArray(node.image) && node.image.length > 0).toBe(true);
    const offers: Json[] = [];
    if (variants.length > 1) {
      counts.groups++;
      expect(node['@type']).toBe('ProductGroup');
      expect(node.offers).toEqual(expect.objectContaining({ '@type': 'AggregateOffer', lowPrice: low, highPrice: high, offerCount: variants.length, priceCurrency: currency }));
      expect(node.offers.availability).toBe(variants.some((v) => v.available) ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock');
      expect(node.hasVariant).toHaveLength(variants.length);
      node.hasVariant.forEach((child: Json, k: number) => {
        const source = variants[k]!;
        expect(child['@type']).toBe('Product');
        expect(child.name).toEqual(expect.any(String));
        expect(child.image).toEqual(expect.any(String));
        expect(child.offers.price).toBe(num(source.price));
        expect(child.offers.availability).toBe(source.available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock');
        if (source.sku) expect(child.sku).toBe(source.sku);
        else expect(child.sku).toBeUndefined();
        const gtin = gtinOf(source.barcode);
        if (gtin) counts.gtins++;
        expect(child.gtin).toBe(gtin ?? undefined);
        offers.push(child.offers);
      });
    } else {
      expect(node['@type']).toBe('Product');
      expect(node.offers.price).toBe(low);
      expect(node.offers.availability).toBe(variants[0]!.available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock');
      offers.push(node.offers);
    }
    for (const offer of offers) {
      counts.offers++;
      expect(offer['@type']).toBe('Offer');
      expect(typeof offer.price).toBe('number');
      expect(offer.priceCurrency).toBe(currency);
      expect(offer.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock)$/);
    }

    // No internal tag as a keyword (nor anywhere in the text files).
    const keywords = typeof node.keywords === 'string' ? (node.keywords as string).split(', ') : [];
    for (const k of keywords) expect(isInternalTag(k)).toBe(false);
    const internal = (Array.isArray(item.tags) ? item.tags : []).filter(isInternalTag);

    // The text: one price statement and one stock statement, the same everywhere.
    const price = low === high ? `${currency} ${lowRaw}` : `${currency} ${lowRaw}–${highRaw}`;
    if (low !== high) counts.ranges++;
    const sold = variants.filter((v) => !v.available);
    const labels = soldOutLabels(product);
    let stock: string;
    if (sold.length === variants.length) {
      counts.soldOut++;
      stock = 'Out of stock';
    } else if (sold.length) {
      counts.partlySoldOut++;
      expect(labels.length).toBeGreaterThan(0);
      stock = `In stock (${labels.map((l) => `${l}: sold out`).join('; ')})`;
    } else {
      stock = 'In stock';
    }
    const text = files.get(`/llms/${slug}.txt`)!.content;
    // The fact card's first line (issue 44): kind and brand, then the price and stock statements.
    const stockNote = stock.charAt(0).toLowerCase() + stock.slice(1);
    expect(text).toMatch(new RegExp(`^> .*: .*${escapeRe(price)}(?: \\(was [^)]+\\))?, ${escapeRe(`${stockNote}.`)}$`, 'm'));
    if (variants.length > 1) {
      for (const v of variants) {
        const line = new RegExp(`^- ${escapeRe(v.title!)}: ${escapeRe(`${currency} ${v.price}`)}.*, ${v.available ? 'in stock' : 'sold out'}`, 'm');
        expect(text).toMatch(line);
      }
    }
    for (const tag of internal) expect(text).not.toContain(tag);
    const note = listed.get(`/llms/${slug}.txt`);
    if (note !== undefined) {
      counts.inLlmsTxt++;
      expect(note.startsWith(price)).toBe(true);
      expect(note).toContain(stockNote);
    }
    // Every SKU of the product, once, on its catalogue line (issue 22.1; llms.txt keeps its lines short, issue 44).
    const skus = [...new Set(variants.map((v) => (v.sku ?? '').trim()).filter(Boolean))];
    const catalogueLine = catalogue.split('\n').find((l) => l.includes(`/llms/${slug}.txt)`))!;
    if (skus.length) expect(catalogueLine).toContain(`${skus.length === 1 ? 'SKU' : 'SKUs'} ${skus.join(', ')}`);

    // The product page: og:type product with price meta, the same statements, the same JSON-LD.
    expect($('meta[property="og:type"]').attr('content')).toBe('product');
    expect($('meta[property="product:price:amount"]').attr('content')).toBe(lowRaw);
    expect($('meta[property="product:price:currency"]').attr('content')).toBe(currency);
    expect($('ul.fact-card li').first().text()).toMatch(new RegExp(`${escapeRe(price)}(?: \\(was [^)]+\\))?, ${escapeRe(`${stockNote}.`)}$`));
    for (const tag of internal) expect($('main').text()).not.toContain(tag);
  });
  return counts;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the yoga store fixture (50 products)', () => {
  const products = fixture.products.map((p) => toCatalogProduct(p, YOGA, 'USD'));

  it('states every price with its currency, ranges and per-variant stock in data.json, llms.txt, product files and pages', () => {
    expect(fixture.products).toHaveLength(50);
    const counts = checkCatalogue(fixture.products, products, 'USD', snapshotOf(YOGA, 'Lotus & Stone', products));
    // The fixture exercises every case.
    expect(counts.groups).toBeGreaterThanOrEqual(40);
    expect(counts.ranges).toBeGreaterThanOrEqual(30);
    expect(counts.partlySoldOut).toBeGreaterThanOrEqual(10);
    expect(counts.soldOut).toBeGreaterThanOrEqual(2);
    expect(counts.gtins).toBeGreaterThanOrEqual(20);
    expect(counts.offers).toBeGreaterThan(200);
    // Issue 22.1: a 50-product store without collections keeps its whole catalogue in both
    // files (D113's old 10-per-collection cap listed 10).
    expect(counts.inDataJson).toBe(50);
    expect(counts.inLlmsTxt).toBe(50);
  });

  it('keeps sold-out options and SKUs from collapsing (a whole colour sold out is named once)', () => {
    const cork = products.find((p) => p.productId === 'cork-flow-yoga-mat')!;
    expect(soldOutLabels(cork)).toEqual(['Matte Black']);
    const { files } = build(snapshotOf(YOGA, 'Lotus & Stone', [cork]));
    const text = files.get('/llms/cork-flow-yoga-mat.txt')!.content;
    expect(text).toContain('> Cork Flow Yoga Mat: Yoga Mat by Lotus & Stone, USD 54.00–60.00, in stock (Matte Black: sold out).');
    expect(text).toContain('Options (Color, Thickness):');
    expect(text).toMatch(/^- Matte Black \/ 4 mm: USD 54\.00, sold out/m);
  });

  it('uses no food template for yoga mats', () => {
    const pages: ScrapedPage[] = [{
      url: `${YOGA}/pages/about`, kind: 'page', title: 'About', description: '', statusCode: 200, fingerprint: 'x',
      markdown: 'Our mats are made from natural tree rubber and recycled materials. Every mat is 100% PVC-free and made in Portugal.',
    }];
    const narrative = buildOfflineNarrative(snapshotOf(YOGA, 'Lotus & Stone', products, pages));
    const questions = narrative.faqs.map((f) => f.question);
    expect(questions.some((q) => /materials/.test(q))).toBe(true);
    expect(questions.filter((q) => /ingredient/i.test(q))).toEqual([]);
  });

  it('states no currency when the store states none (never a default)', () => {
    const bare = fixture.products.slice(0, 3).map((p) => toCatalogProduct(p, YOGA, null));
    const { graph, files } = build(snapshotOf(YOGA, 'Lotus & Stone', bare));
    for (const node of graph.slice(1)) expect(JSON.stringify(node)).not.toContain('priceCurrency');
    expect(files.get('/llms/grip-pro-yoga-mat.txt')!.content).toContain('Grip Pro Yoga Mat: Yoga Mat by Lotus & Stone, 48.00–60.00, in stock.');
  });
});

describe('the Organization node', () => {
  it('has logo, sameAs and contactPoint only from what the store pages show', () => {
    const pages: ScrapedPage[] = [
      {
        url: `${YOGA}/`, kind: 'home', title: 'Lotus & Stone', description: '', statusCode: 200, fingerprint: 'a',
        markdown: '![Lotus & Stone logo](//cdn.example/files/logo.png)\n\nFollow us: [Instagram](https://www.instagram.com/lotusandstone/) [Facebook](https://facebook.com/lotusandstone) [Share](https://www.facebook.com/sharer/sharer.php?u=x) [Tweet](https://twitter.com/intent/tweet?text=x) [YouTube](https://youtube.com/channel/UC123/videos)',
      },
      {
        url: `${YOGA}/pages/contact`, kind: 'page', title: 'Contact', description: '', statusCode: 200, fingerprint: 'b',
        markdown: 'Write to [hello@lotus-stone.example](mailto:hello@lotus-stone.example?subject=Hi).\n\nPhone: +1 (207) 555-0143, Monday to Friday.',
      },
    ];
    const snapshot = snapshotOf(YOGA, 'Lotus & Stone', [], pages);
    snapshot.business.logoUrl = `${YOGA}/favicon.ico`;
    const profile = organizationProfile(snapshot);
    expect(profile).toEqual({
      logo: 'https://cdn.example/files/logo.png',
      sameAs: ['https://instagram.com/lotusandstone', 'https://facebook.com/lotusandstone', 'https://youtube.com/channel/UC123'],
      contact: { email: 'hello@lotus-stone.example', telephone: '+1 (207) 555-0143', url: `${YOGA}/pages/contact` },
    });
    const org = build(snapshot).graph[0]!;
    expect(org.logo).toBe('https://cdn.example/files/logo.png');
    expect(org.sameAs).toHaveLength(3);
    expect(org.contactPoint).toEqual({ '@type': 'ContactPoint', contactType: 'customer service', email: 'hello@lotus-stone.example', telephone: '+1 (207) 555-0143', url: `${YOGA}/pages/contact` });
  });

  it('invents nothing when the pages show nothing', () => {
    const org = build(snapshotOf(YOGA, 'Lotus & Stone', [], [{ url: `${YOGA}/`, kind: 'home', title: '', description: '', statusCode: 200, fingerprint: 'a', markdown: 'Welcome. Call us any time.' }])).graph[0]!;
    for (const key of ['logo', 'sameAs', 'contactPoint', 'email', 'telephone']) expect(org[key]).toBeUndefined();
    // The store's icon, when onboarding found one, is the logo of last resort.
    const withIcon = snapshotOf(YOGA, 'Lotus & Stone', []);
    withIcon.business.logoUrl = `${YOGA}/cdn/shop/files/favicon.png`;
    expect(build(withIcon).graph[0]!.logo).toBe(`${YOGA}/cdn/shop/files/favicon.png`);
  });
});

describe('the store currency', () => {
  const respond = (bodies: Record<string, { status?: number; body: string }>): HttpFetcher => async (url) => {
    const hit = bodies[url];
    const body = Buffer.from(hit?.body ?? 'Not Found');
    return { status: hit ? hit.status ?? 200 : 404, url, headers: {}, body, text: () => body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) } as FetchResponse;
  };

  it('prefers /cart.js, then the home page, then a product page, then /meta.json; null when none says', async () => {
    const S = 'https://s.example';
    expect(await fetchStoreCurrency(respond({ [`${S}/cart.js`]: { body: '{"currency":"EUR"}' }, [`${S}/`]: { body: '<meta property="og:price:currency" content="USD">' } }), S)).toBe('EUR');
    expect(await fetchStoreCurrency(respond({ [`${S}/cart.js`]: { body: 'not json' }, [`${S}/`]: { body: '<script>Shopify.currency = {"active":"CAD","rate":"1.0"};</script>' } }), S)).toBe('CAD');
    expect(await fetchStoreCurrency(respond({ [`${S}/`]: { body: '<p>hi</p>' }, [`${S}/products/mat`]: { body: '<meta property="og:price:currency" content="GBP">' } }), S, '/products/mat')).toBe('GBP');
    expect(await fetchStoreCurrency(respond({ [`${S}/meta.json`]: { body: '{"currency":"AUD"}' } }), S)).toBe('AUD');
    expect(await fetchStoreCurrency(respond({ [`${S}/`]: { body: '<p>Prices in dollars</p>' } }), S)).toBeNull();
    const failing: HttpFetcher = async () => {
      throw new Error('blocked');
    };
    expect(await fetchStoreCurrency(failing, S)).toBeNull();
  });
});

describe('the demo store (24 products over HTTP)', () => {
  let store: Awaited<ReturnType<typeof startDemoStore>>;
  beforeAll(async () => {
    store = await startDemoStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it('states its currency in every signal, and its catalogue passes the same checks', async () => {
    const fetchUrl = createGuardedFetch({ allowPrivateNetwork: true });
    const storefront = createStorefront(fetchUrl);
    const home = (await fetchUrl(`${store.origin}/`)).text();
    expect(home).toMatch(/Shopify\.currency=\{"active":"USD"/);
    expect((await fetchUrl(`${store.origin}/cart.js`)).json()).toEqual(expect.objectContaining({ currency: 'USD' }));
    expect((await fetchUrl(`${store.origin}/meta.json`)).json()).toEqual(expect.objectContaining({ currency: 'USD' }));
    const product = (await fetchUrl(`${store.origin}/products/${(await storefront.listProducts(store.origin)).products[0]!.handle}`)).text();
    expect(product).toContain('<meta property="og:price:currency" content="USD">');

    const { products: raw } = await storefront.listProducts(store.origin);
    expect(raw).toHaveLength(24);
    const currency = await storefront.storeCurrency(store.origin, `/products/${raw[0]!.handle}`);
    expect(currency).toBe('USD');
    const products = raw.map((p) => toCatalogProduct(p, store.origin, currency));
    const counts = checkCatalogue(raw, products, 'USD', snapshotOf(store.origin, 'Harbor & Pine Coffee Co.', products));
    expect(counts.offers).toBeGreaterThanOrEqual(24);
    expect(counts.inDataJson).toBe(24);
    expect(counts.inLlmsTxt).toBe(24);
  });
});
