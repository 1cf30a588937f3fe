/**
 * Catalogue fidelity of a built AI site and quality of a prompt set (issue 10): the checks of
 * test/core/site/catalogue-offers.test.ts and test/prompts/prompt-quality.test.ts as pure
 * functions that COUNT and LIST failures instead of asserting, so the bench can print them for
 * the 24- and 5,000-product demo stores and test/e2e/catalogue-fidelity.test.ts can assert on
 * them. Ground truth is the store's own `/products.json` items (Shopify shape), never the
 * catalogue entries the builder read.
 *
 * Checks (keys of `FidelityReport.failures`):
 *   offers       every Offer / AggregateOffer in product JSON-LD (product pages and data.json)
 *                has a numeric price (lowPrice/highPrice for an AggregateOffer) and the store's
 *                priceCurrency
 *   google       Google's required product properties on every product's JSON-LD: name, image,
 *                offers with price + priceCurrency + availability (every variant of a group too)
 *   structured   the JSON-LD matches the store: name, range (lowPrice/highPrice/offerCount),
 *                availability, each variant's price and stock; the data.json node = the page's
 *   statements   ranges and per-variant stock stated correctly: `- Price:` / `- Availability:`
 *                and one line per variant in /llms/<slug>.txt; the note in llms.txt and the
 *                catalogue files; the price meta and Price / Availability of the product page
 *   canonical    Q&A pages (FAQPage JSON-LD) and the questions index name themselves as canonical
 *                (public origin + their routed URL path)
 *   markup       no `<tag` and no `&amp;`-style entity in llms.txt, the product text files and
 *                the catalogue files
 *   files        a store product without its page or text file
 *
 * With the catalogue checks comes the offline onboarding prompt set of the same catalogue
 * (`offlinePromptFigures`: 50 business prompts + `onboardingProductPromptCounts` per product,
 * the store's name from the llms.txt H1): prompts requested vs produced, the honest shortfall,
 * duplicates after normalisation (must be 0), malformed, naming the brand or a line, the intent
 * spread and the generation time. `fidelityLine` prints them, so `npm run bench` shows them for
 * the 24- and 5,000-product stores next to the deployed llms.txt size (ai-site section).
 * `npx tsx bench/fidelity.ts` prints the same figures for both stores built in-process (~15 s).
 */
import * as cheerio from 'cheerio';
import { toCatalogProduct, type StorefrontProduct } from '../functions/core/products/catalog';
import { soldOutLabels } from '../functions/core/products/variants';
import { MAX_SOLD_OUT_LABELS } from '../functions/core/site/offers';
import { productSlugs, SITE_PATHS, urlPathOfFile } from '../functions/core/site/paths';
import type { SiteFile, SiteNarrative, StoreSnapshot } from '../functions/core/site/types';
import { buildSiteFiles, finalizeSite } from '../functions/core/site/build';
import { buildOfflineNarrative } from '../functions/core/generate';
import { buildOfflinePrompts } from '../functions/core/prompts/offline-prompts';
import { detectProductLines } from '../functions/core/prompts/product-lines';
import { onboardingProductPromptCounts } from '../functions/core/prompts/strategy';
import type { PromptSet } from '../functions/core/prompts/types';
import { buildCatalogue } from '../functions/local/demo-store/catalogue';
import { productJson } from '../functions/local/demo-store/shopify-json';
import { PROMPT_INTENTS, type PromptIntent } from '../functions/core/prompts/prompt-quality';
import { measurePrompts } from '../test/prompts/prompt-metrics';

export const FIDELITY_CHECKS = ['offers', 'google', 'structured', 'statements', 'canonical', 'markup', 'files'] as const;
export type FidelityCheck = (typeof FIDELITY_CHECKS)[number];

/** Failures kept per check (the count is always complete). */
const EXAMPLES = 12;

export interface SiteSizes {
  llmsTxtBytes: number;
  dataJsonBytes: number;
  /** `/llms/catalog/<n>.txt`, the paged catalogue. */
  catalogPages: number;
  catalogPagesBytes: number;
  /** `/llms/catalog/full.txt`. */
  fullCatalogBytes: number;
  productTextFiles: number;
  productTextBytes: number;
  /** Products in data.json / listed in llms.txt. */
  dataJsonProducts: number;
  llmsTxtProducts: number;
}

export interface FidelityReport {
  products: number;
  /** The offline onboarding prompts of the same catalogue (absent with `prompts: false`). */
  prompts?: PromptFigures;
  /** What was checked: offers seen, product pages, Q&A pages, text files scanned for markup... */
  checked: { offers: number; productPages: number; variantLines: number; listedNotes: number; qaPages: number; textFiles: number; ranges: number; partlySoldOut: number; soldOut: number };
  failureCounts: Record<FidelityCheck, number>;
  /** Up to 12 concrete failures per check: `<where>: <what> (expected …, got …)`. */
  failures: Record<FidelityCheck, string[]>;
  sizes: SiteSizes;
}

type Json = Record<string, any>;

const bytes = (s: string | undefined) => (s === undefined ? 0 : Buffer.byteLength(s));
const num = (s: string | number | null | undefined) => Number(s);
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a fact card's first line ("Name: Kind by Brand, USD 48.00 (was USD 60.00), in stock
 * (Sage: sold out).") states the price and the stock statement, the stock's first word lower-cased.
 */
function statesOffer(line: string, price: string, stock: string): boolean {
  const note = stock.charAt(0).toLowerCase() + stock.slice(1);
  return new RegExp(`, ${escapeRe(price)}(?: \\(was [^)]+\\))?, ${escapeRe(note)}\\.$`).test(line);
}
const short = (v: unknown) => { const s = typeof v === 'string' ? v : JSON.stringify(v); return s === undefined ? 'undefined' : s.length > 160 ? `${s.slice(0, 157)}...` : s; };

/** `- [name](url): notes` lines of an llms.txt-layout document (labels unescaped). */
/** A store product's price range from its raw variants: numbers, and the prices as the store writes them. */
export function variantPriceRange(variants: ReadonlyArray<{ price?: string | number | null }>): { low: number; high: number; lowRaw: string; highRaw: string } {
  const prices = variants.map((v) => num(v.price));
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return { low, high, lowRaw: String(variants[prices.indexOf(low)]?.price ?? ''), highRaw: String(variants[prices.indexOf(high)]?.price ?? '') };
}

export function llmsLinks(text: string): Array<{ name: string; url: string; notes: string }> {
  const out: Array<{ name: string; url: string; notes: string }> = [];
  for (const m of text.matchAll(/^- \[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)(?:: (.*))?$/gm)) {
    out.push({ name: m[1]!.replace(/\\(.)/g, '$1'), url: m[2]!, notes: m[3] ?? '' });
  }
  return out;
}

/** An HTML tag start (`<p`, `</div`, `<br/`) or a character/entity reference (`&amp;`, `&#39;`). */
export function leakedMarkup(text: string): string | null {
  const tag = /<\/?[a-zA-Z][a-zA-Z0-9-]*(?=[\s/>])/.exec(text);
  if (tag) return text.slice(Math.max(0, tag.index - 30), tag.index + 40).replace(/\n/g, '\\n');
  const entity = /&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]{1,31});/.exec(text);
  if (entity) return text.slice(Math.max(0, entity.index - 30), entity.index + 40).replace(/\n/g, '\\n');
  return null;
}

export function siteSizes(files: readonly SiteFile[]): SiteSizes {
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  const pages = files.filter((f) => /^\/llms\/catalog\/\d+\.txt$/.test(f.path));
  const texts = files.filter((f) => /^\/llms\/[^/]+\.txt$/.test(f.path));
  const data = byPath.get(SITE_PATHS.dataJson);
  const graph = data ? ((JSON.parse(data) as Json)['@graph'] as Json[] | undefined) ?? [] : [];
  const llms = byPath.get(SITE_PATHS.llmsTxt) ?? '';
  return {
    llmsTxtBytes: bytes(llms),
    dataJsonBytes: bytes(data),
    catalogPages: pages.length,
    catalogPagesBytes: pages.reduce((n, f) => n + bytes(f.content), 0),
    fullCatalogBytes: bytes(byPath.get(SITE_PATHS.llmsFull)),
    productTextFiles: texts.length,
    productTextBytes: texts.reduce((n, f) => n + bytes(f.content), 0),
    dataJsonProducts: graph.filter((n) => n['@type'] === 'Product' || n['@type'] === 'ProductGroup').length,
    llmsTxtProducts: llmsLinks(llms).filter((l) => /\/llms\/(?!catalog\/)[^/]+\.txt$/.test(l.url)).length,
  };
}

/** The public origin the site's absolute links use (from llms.txt's link to data.json). */
export function publicOriginOf(files: readonly SiteFile[]): string | null {
  const llms = files.find((f) => f.path === SITE_PATHS.llmsTxt)?.content ?? '';
  const m = /\((https?:\/\/[^)\s]+?)\/ai\/data\.json\)/.exec(llms);
  return m ? m[1]! : null;
}

function productNodeOf($: cheerio.CheerioAPI): Json | null {
  for (const el of $('script[type="application/ld+json"]').toArray()) {
    try {
      const node = JSON.parse($(el).text()) as Json;
      if (node['@type'] === 'Product' || node['@type'] === 'ProductGroup') return node;
    } catch { /* reported by the caller as missing */ }
  }
  return null;
}

/**
 * Every check above over a built site (content files, or a finalized release: then the
 * canonical check runs too) against the store's raw products.
 */
export function checkSiteFidelity(
  files: readonly SiteFile[],
  raw: readonly StorefrontProduct[],
  options: { currency: string; storeOrigin: string; prompts?: boolean },
): FidelityReport {
  const { currency, storeOrigin } = options;
  const failures = Object.fromEntries(FIDELITY_CHECKS.map((k) => [k, [] as string[]])) as Record<FidelityCheck, string[]>;
  const failureCounts = Object.fromEntries(FIDELITY_CHECKS.map((k) => [k, 0])) as Record<FidelityCheck, number>;
  const fail = (check: FidelityCheck, message: string) => {
    failureCounts[check]++;
    if (failures[check].length < EXAMPLES) failures[check].push(message);
  };
  const checked = { offers: 0, productPages: 0, variantLines: 0, listedNotes: 0, qaPages: 0, textFiles: 0, ranges: 0, partlySoldOut: 0, soldOut: 0 };
  const byPath = new Map(files.map((f) => [f.path, f.content]));

  // data.json product nodes, by store URL.
  const dataNodes = new Map<string, Json>();
  const data = byPath.get(SITE_PATHS.dataJson);
  if (data) for (const n of ((JSON.parse(data) as Json)['@graph'] as Json[] | undefined) ?? []) if (n['@type'] === 'Product' || n['@type'] === 'ProductGroup') dataNodes.set(n.url as string, n);
  // Notes of every product link in llms.txt and the catalogue files, by the linked text file's path.
  const notes: Array<{ file: string; links: Map<string, string> }> = [];
  for (const f of files) {
    if (f.path !== SITE_PATHS.llmsTxt && !f.path.startsWith('/llms/catalog/')) continue;
    const productLinks = llmsLinks(f.content).filter((l) => /\/llms\/(?!catalog\/)[^/]+\.txt$/.test(l.url));
    notes.push({ file: f.path, links: new Map(productLinks.map((l) => [new URL(l.url).pathname, l.notes])) });
  }

  const offerCheck = (where: string, offer: Json | undefined, aggregate: boolean) => {
    checked.offers++;
    if (!offer || typeof offer !== 'object') return fail('offers', `${where}: no offers`);
    const priced = aggregate ? typeof offer.lowPrice === 'number' && typeof offer.highPrice === 'number' : typeof offer.price === 'number';
    if (!priced) fail('offers', `${where}: offer without a numeric ${aggregate ? 'lowPrice/highPrice' : 'price'}: ${short(offer)}`);
    if (offer.priceCurrency !== currency) fail('offers', `${where}: priceCurrency ${short(offer.priceCurrency)}, expected ${currency}`);
  };
  const googleCheck = (where: string, node: Json, aggregate: boolean) => {
    const missing: string[] = [];
    if (typeof node.name !== 'string' || !node.name.trim()) missing.push('name');
    if (!(typeof node.image === 'string' ? node.image : Array.isArray(node.image) && node.image.length > 0)) missing.push('image');
    const o = node.offers as Json | undefined;
    if (!o) missing.push('offers');
    else {
      if (aggregate ? typeof o.lowPrice !== 'number' : typeof o.price !== 'number') missing.push(aggregate ? 'offers.lowPrice' : 'offers.price');
      if (!o.priceCurrency) missing.push('offers.priceCurrency');
      if (!/^https:\/\/schema\.org\/\w+$/.test(String(o.availability ?? ''))) missing.push('offers.availability');
    }
    if (missing.length) fail('google', `${where}: missing ${missing.join(', ')}`);
  };

  const products = raw.map((p) => toCatalogProduct(p, storeOrigin, currency));
  const slugs = productSlugs(products);
  raw.forEach((item, i) => {
    const product = products[i]!;
    const variants = item.variants ?? [];
    const { low, high, lowRaw, highRaw } = variantPriceRange(variants);
    const slug = slugs.get(product.productId)!;
    const pagePath = SITE_PATHS.productPage(slug);
    const textPath = SITE_PATHS.productLlms(slug);
    const where = item.handle;

    // Expected statements, from the store's own data.
    const price = low === high ? `${currency} ${lowRaw}` : `${currency} ${lowRaw}–${highRaw}`;
    if (low !== high) checked.ranges++;
    const sold = variants.filter((v) => !v.available);
    const labels = soldOutLabels(product);
    let stock = 'In stock';
    if (sold.length === variants.length) { checked.soldOut++; stock = 'Out of stock'; }
    else if (sold.length) {
      checked.partlySoldOut++;
      if (!labels.length) fail('statements', `${where}: ${sold.length} of ${variants.length} variants sold out, but no option is named sold out`);
      const more = labels.length - MAX_SOLD_OUT_LABELS;
      stock = `In stock (${labels.slice(0, MAX_SOLD_OUT_LABELS).map((l) => `${l}: sold out`).join('; ')}${more > 0 ? `; ${more} more options sold out` : ''})`;
    }
    const stockNote = stock.charAt(0).toLowerCase() + stock.slice(1);
    const availability = (ok: boolean | null | undefined) => (ok ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock');

    // The product page and its JSON-LD.
    const page = byPath.get(pagePath);
    if (page === undefined) fail('files', `${where}: no ${pagePath}`);
    else {
      checked.productPages++;
      const $ = cheerio.load(page);
      const found = productNodeOf($);
      if (!found) fail('google', `${pagePath}: no Product/ProductGroup JSON-LD`);
      else {
        const { '@context': _c, dateModified: _d, ...node } = found;
        // Google's properties and the offers' price + currency, on whatever shape was written
        // (an AggregateOffer carries lowPrice/highPrice; a ProductGroup's variants carry Offers).
        const aggregate = node.offers?.['@type'] === 'AggregateOffer';
        googleCheck(pagePath, node, aggregate);
        offerCheck(pagePath, node.offers, aggregate);
        const children = Array.isArray(node.hasVariant) ? (node.hasVariant as Json[]) : [];
        children.forEach((child, k) => {
          googleCheck(`${pagePath} variant ${k + 1}`, child, false);
          offerCheck(`${pagePath} variant ${k + 1}`, child.offers, false);
        });
        // The shape and values against the store: a ProductGroup + AggregateOffer for several
        // variants, a Product + Offer for one (catalogue-offers.test.ts).
        if (node.name !== item.title.trim()) fail('structured', `${pagePath}: name ${short(node.name)}, store title ${short(item.title)}`);
        const o = (node.offers ?? {}) as Json;
        if (variants.length > 1) {
          if (node['@type'] !== 'ProductGroup') fail('structured', `${pagePath}: @type ${node['@type']} for ${variants.length} variants`);
          if (o['@type'] !== 'AggregateOffer' || o.lowPrice !== low || o.highPrice !== high || o.offerCount !== variants.length) {
            fail('structured', `${pagePath}: offers ${short({ '@type': o['@type'], lowPrice: o.lowPrice, highPrice: o.highPrice, offerCount: o.offerCount })}, store ${short({ lowPrice: low, highPrice: high, offerCount: variants.length })}`);
          }
          if (o.availability !== availability(variants.some((v) => v.available))) fail('structured', `${pagePath}: availability ${short(o.availability)}, store has ${variants.length - sold.length} of ${variants.length} available`);
          if (children.length !== variants.length) fail('structured', `${pagePath}: ${children.length} hasVariant, store ${variants.length} variants`);
          children.forEach((child, k) => {
            const source = variants[k];
            if (source && (child.offers?.price !== num(source.price) || child.offers?.availability !== availability(source.available))) {
              fail('structured', `${pagePath} variant ${short(source.title)}: ${short({ price: child.offers?.price, availability: child.offers?.availability })}, store ${short({ price: source.price, available: source.available })}`);
            }
          });
        } else if (node['@type'] !== 'Product' || o['@type'] !== 'Offer') {
          const v = variants[0];
          fail('structured', `${pagePath}: one variant (${short(v?.title)}, ${v?.price}, ${v?.available ? 'available' : 'sold out'}) written as ${node['@type']} with ${short(o['@type'])} ` +
            `${short({ price: o.price, lowPrice: o.lowPrice, highPrice: o.highPrice, offerCount: o.offerCount, hasVariant: children.length || undefined })}, expected Product with an Offer`);
        } else if (o.price !== low || o.availability !== availability(variants[0]?.available)) {
          fail('structured', `${pagePath}: ${short({ price: o.price, availability: o.availability })}, store ${short({ price: variants[0]?.price, available: variants[0]?.available })}`);
        }
        const dataNode = dataNodes.get(product.url);
        if (dataNode) {
          const { dateModified: _dd, ...rest } = dataNode;
          if (JSON.stringify(rest) !== JSON.stringify(node)) fail('structured', `${where}: data.json node differs from the page's`);
          offerCheck(`data.json ${where}`, dataNode.offers, dataNode.offers?.['@type'] === 'AggregateOffer');
        }
      }
      const meta = $('meta[property="product:price:amount"]').attr('content');
      if (meta !== lowRaw) fail('statements', `${pagePath}: product:price:amount ${short(meta)}, store low price ${lowRaw}`);
      const metaCurrency = $('meta[property="product:price:currency"]').attr('content');
      if (metaCurrency !== currency) fail('statements', `${pagePath}: product:price:currency ${short(metaCurrency)}`);
      const card = $('ul.fact-card li').first().text();
      if (!statesOffer(card, price, stock)) fail('statements', `${pagePath}: fact card ${short(card)}, expected ${price} and ${short(stock)}`);
    }

    // The product text file.
    const text = byPath.get(textPath);
    if (text === undefined) fail('files', `${where}: no ${textPath}`);
    else {
      const cardLine = /^> (.*)$/m.exec(text)?.[1] ?? '';
      if (!statesOffer(cardLine, price, stock)) fail('statements', `${textPath}: fact card "${short(cardLine)}", expected "${price}" and "${short(stock)}"`);
      if (variants.length > 1) {
        for (const v of variants) {
          checked.variantLines++;
          const line = new RegExp(`^- ${escapeRe((v.title ?? '').trim())}: ${escapeRe(`${currency} ${v.price}`)}.*, ${v.available ? 'in stock' : 'sold out'}`, 'm');
          if (!line.test(text)) {
            const got = text.split('\n').find((l) => l.startsWith(`- ${(v.title ?? '').trim()}:`));
            fail('statements', `${textPath}: variant "${v.title}" line ${short(got ?? 'missing')}, store ${currency} ${v.price}, ${v.available ? 'in stock' : 'sold out'}`);
          }
        }
      }
    }

    // Its note in llms.txt and the catalogue files.
    for (const { file, links } of notes) {
      const note = links.get(textPath);
      if (note === undefined) continue;
      checked.listedNotes++;
      if (!note.startsWith(price) || !note.includes(stockNote)) fail('statements', `${file} ${where}: note ${short(note)}, expected "${price}, ${stockNote}"`);
    }
  });

  // Q&A pages: self canonicals on the public origin.
  const origin = publicOriginOf(files);
  for (const f of files) {
    if (!f.path.startsWith('/ai/') || !f.path.endsWith('/index.html') || f.path.startsWith('/ai/products/') || f.path.startsWith('/ai/collections/')) continue;
    if (!/"@type":\s*"FAQPage"/.test(f.content)) continue;
    checked.qaPages++;
    const canonical = cheerio.load(f.content)('link[rel="canonical"]').attr('href');
    const expected = origin ? `${origin}${urlPathOfFile(f.path)}` : null;
    if (!expected || canonical !== expected) fail('canonical', `${f.path}: canonical ${short(canonical)}, expected ${expected ?? '(no public origin found in llms.txt)'}`);
  }

  // Leaked markup in the text files.
  for (const f of files) {
    if (f.path !== SITE_PATHS.llmsTxt && !/^\/llms\/.+\.txt$/.test(f.path)) continue;
    checked.textFiles++;
    const leak = leakedMarkup(f.content);
    if (leak) fail('markup', `${f.path}: …${leak}…`);
  }

  const report: FidelityReport = { products: raw.length, checked, failureCounts, failures, sizes: siteSizes(files) };
  if (options.prompts !== false && products.length) {
    const name = /^# (.+)$/m.exec(byPath.get(SITE_PATHS.llmsTxt) ?? '')?.[1]?.trim() || new URL(storeOrigin).host;
    const snapshot: StoreSnapshot = { business: { name, orgSlug: 'fidelity', url: storeOrigin, domain: new URL(storeOrigin).host }, pages: [], products, collections: [], storeSitemapUrls: [] };
    report.prompts = offlinePromptFigures(snapshot, buildOfflineNarrative(snapshot));
  }
  return report;
}

/**
 * The offline onboarding prompt set of a store (50 business prompts + the onboarding count per
 * product), generated and measured: requested vs produced, shortfall, quality and time.
 */
export function offlinePromptFigures(snapshot: StoreSnapshot, narrative?: SiteNarrative | null): PromptFigures {
  const each = onboardingProductPromptCounts(snapshot.products.length);
  const t0 = performance.now();
  const set = buildOfflinePrompts({ snapshot, narrative, business: { count: 50 }, products: snapshot.products.map((product) => ({ product, count: each })) });
  const ms = performance.now() - t0;
  const lines = detectProductLines(snapshot.products, snapshot.business.name);
  return { ...promptFiguresOfSet(set, snapshot.business.name, lines, 50 + each * snapshot.products.length, snapshot.products.map((p) => p.name)), ms };
}

export interface PromptFigures {
  total: number;
  /** Prompts asked for (50 business + the onboarding count per product), when known. */
  requested?: number;
  /** requested - total: reported by the engine as too little evidence for more, never padded. */
  shortfall?: number;
  /** Generation time (offline engine, in-process), when measured here. */
  ms?: number;
  business: number;
  product: number;
  /** Prompts whose identity (promptIdentity, D33) an earlier prompt already had. */
  duplicates: number;
  maxCopies: number;
  malformed: number;
  malformedExamples: Array<{ prompt: string; issue: string }>;
  /** Prompts naming the brand or one of its product lines. */
  brandOrLine: number;
  brandOrLineExamples: string[];
  productLines: string[];
  intents: Record<PromptIntent, number>;
  intentsCovered: number;
  topFigure: { figure: string; count: number; share: number } | null;
}

/** measurePrompts (test/prompts/prompt-metrics.ts) in printable form. */
export function promptFigures(business: string[], product: string[], businessName: string, lines: string[], tagged: Record<string, PromptIntent> = {}, productNames: readonly string[] = []): PromptFigures {
  const m = measurePrompts([...business, ...product], businessName, lines, tagged, productNames);
  return {
    total: m.total,
    business: business.length,
    product: product.length,
    duplicates: m.duplicates,
    maxCopies: m.maxCopies,
    malformed: m.malformed.length,
    malformedExamples: m.malformed.slice(0, 8),
    brandOrLine: m.namingBrandOrLine.length,
    brandOrLineExamples: m.namingBrandOrLine.slice(0, 8),
    productLines: lines,
    intents: m.intents,
    intentsCovered: PROMPT_INTENTS.filter((i) => m.intents[i] > 0).length,
    topFigure: m.topFigure,
  };
}

export function fidelityLine(r: FidelityReport): string {
  const bad = FIDELITY_CHECKS.filter((k) => r.failureCounts[k] > 0);
  const checks = bad.length ? `FAIL ${bad.map((k) => `${k} ${r.failureCounts[k]}`).join(', ')}` : `all ${FIDELITY_CHECKS.length} checks pass`;
  return r.prompts ? `${checks}; ${promptLine(r.prompts)}` : checks;
}

const pct = (n: number, of: number) => `${((n / Math.max(1, of)) * 100).toFixed(1)}%`;

/** "offline prompts 170 of 170 requested (0 short) in 0.2 s, 0 duplicates, 0 malformed, 0 naming the brand/a line; intents discovery 26% ..." */
export function promptLine(q: PromptFigures): string {
  const requested = q.requested !== undefined ? ` of ${q.requested.toLocaleString('en-US')} requested (${(q.shortfall ?? 0).toLocaleString('en-US')} short)` : '';
  const time = q.ms !== undefined ? ` in ${(q.ms / 1000).toFixed(1)} s` : '';
  return `offline prompts ${q.total.toLocaleString('en-US')}${requested}${time}, ${q.duplicates} duplicates, ${q.malformed} malformed, ${q.brandOrLine} naming the brand/a line; ` +
    `intents ${PROMPT_INTENTS.map((i) => `${i} ${pct(q.intents[i], q.total)}`).join(', ')}`;
}

export interface InProcessDemoSite {
  raw: StorefrontProduct[];
  files: SiteFile[];
  snapshot: StoreSnapshot;
  /** Absent with `prompts: false` (the offline engine takes ~5 s over 5,000 products). */
  prompts?: PromptSet;
  /** `prompts` measured (`offlinePromptFigures`'s figures), with the counts requested. */
  promptFigures?: PromptFigures;
  productLines: string[];
  ms: { catalogue: number; narrative: number; build: number; prompts: number };
}

/**
 * A demo store's AI site built in-process with the pure builders (no HTTP, no scrape): the demo
 * store's catalogue (`size` as `startDemoStore({ size })`, 0 = the default 24 products) as its
 * `/products.json` items, the offline narrative, `buildSiteFiles` + `finalizeSite`, and the
 * offline onboarding prompts (50 business + `onboardingProductPromptCounts` per product).
 */
export function buildDemoSiteInProcess(size: number, options: { prompts?: boolean; origin?: string; publicOrigin?: string } = {}): InProcessDemoSite {
  const { origin = 'https://harbor-pine.example', publicOrigin = 'https://harbor.ai.example' } = options;
  const t0 = performance.now();
  const catalogue = buildCatalogue(size > 0 ? { size } : {});
  const raw = catalogue.products.map((p) => productJson(p, origin) as unknown as StorefrontProduct);
  const products = raw.map((p) => toCatalogProduct(p, origin, 'USD'));
  const snapshot: StoreSnapshot = {
    business: { name: catalogue.storeName, orgSlug: 'harbor', url: origin, domain: new URL(origin).host },
    pages: [],
    products,
    collections: catalogue.collections.map((c) => ({ handle: c.handle, title: c.title, url: `${origin}/collections/${c.handle}`, description: c.plainDescription })),
    storeSitemapUrls: [],
  };
  const t1 = performance.now();
  const narrative = buildOfflineNarrative(snapshot);
  const t2 = performance.now();
  const now = '2026-03-14T09:12:00.000Z';
  const content = buildSiteFiles(snapshot, narrative, { now, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/webhooks/ai-recommendation-store' });
  const files = finalizeSite(content, { orgSlug: 'harbor', businessName: catalogue.storeName, sourceUrl: origin, publicOrigin, storeSitemapUrls: [], deployedAt: now });
  const t3 = performance.now();
  const each = onboardingProductPromptCounts(products.length);
  const prompts = options.prompts === false ? undefined : buildOfflinePrompts({ snapshot, narrative, business: { count: 50 }, products: products.map((product) => ({ product, count: each })) });
  const t4 = performance.now();
  const productLines = detectProductLines(products, catalogue.storeName);
  const promptFigures = prompts ? { ...promptFiguresOfSet(prompts, catalogue.storeName, productLines, 50 + each * products.length, products.map((p) => p.name)), ms: t4 - t3 } : undefined;
  return { raw, files, snapshot, prompts, promptFigures, productLines, ms: { catalogue: t1 - t0, narrative: t2 - t1, build: t3 - t2, prompts: t4 - t3 } };
}

/** Every prompt of a set: business first, then products; with `requested`, the shortfall too. */
export function promptFiguresOfSet(set: PromptSet, businessName: string, lines: string[], requested?: number, productNames: readonly string[] = []): PromptFigures {
  const figures = promptFigures(set.business, Object.values(set.products).flat(), businessName, lines, set.intents ?? {}, productNames);
  return requested === undefined ? figures : { ...figures, requested, shortfall: Math.max(0, requested - figures.total) };
}

/** `npx tsx bench/fidelity.ts [sizes]`: the figures above for the demo stores built in-process (default 0 = 24 products, and 5000). */
async function main(): Promise<void> {
  const sizes = (process.argv[2] ?? '0,5000').split(',').map((x) => Number(x.trim()));
  for (const size of sizes) {
    const site = buildDemoSiteInProcess(size);
    const report = checkSiteFidelity(site.files, site.raw, { currency: 'USD', storeOrigin: site.snapshot.business.url, prompts: false });
    report.prompts = site.promptFigures;
    const z = report.sizes;
    console.log(`${size > 0 ? `${size.toLocaleString('en-US')}-page` : 'default'} demo store (${site.raw.length.toLocaleString('en-US')} products): llms.txt ${(z.llmsTxtBytes / 1024).toFixed(1)} KB ` +
      `(${z.llmsTxtProducts} products listed), data.json ${(z.dataJsonBytes / 1024).toFixed(1)} KB, paged catalogue ${z.catalogPages} files; ${fidelityLine(report)}`);
    const q = site.promptFigures;
    if (q?.topFigure) console.log(`  most repeated figure: ${q.topFigure.figure} in ${pct(q.topFigure.count, q.total)} of the prompts; product lines: ${q.productLines.join(', ') || 'none'}`);
    for (const m of q?.malformedExamples ?? []) console.log(`  malformed (${m.issue}): ${m.prompt}`);
    for (const p of q?.brandOrLineExamples ?? []) console.log(`  names the brand or a line: ${p}`);
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
