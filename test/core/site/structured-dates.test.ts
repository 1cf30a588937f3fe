/**
 * Issue 10, item 5 / D112: JSON-LD `dateModified` never falls back to the build time. A
 * data.json node carries the store's own update time or no date at all; a page's node carries
 * the page's modified date, which its sitemap `<lastmod>` and `article:modified_time` carry too.
 */
import * as cheerio from 'cheerio';
import { buildSiteFiles, finalizeSite } from '../../../functions/core/site/build';
import { latestDate, pageDatesOf, sourceDate } from '../../../functions/core/site/dates';
import { buildDataJson, productNode } from '../../../functions/core/site/structured-data';
import type { SiteFile } from '../../../functions/core/site/types';
import { INDEXNOW_KEY, NOW, TRACKING_ENDPOINT, metadata, narrative, snapshot } from './fixtures';

const OPTIONS = { now: NOW, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT };
const LATER = '2026-06-01T00:00:00.000Z';
const file = (files: SiteFile[], path: string) => files.find((f) => f.path === path) as SiteFile;
const ld = (f: SiteFile) => JSON.parse(cheerio.load(f.content)('script[type="application/ld+json"]').first().text()) as Record<string, unknown>;
const modifiedOf = (f: SiteFile) => cheerio.load(f.content)('meta[property="article:modified_time"]').attr('content');

/** `<loc>` → `<lastmod>` of every entry of the sitemap files of a finalized site. */
function lastmods(files: SiteFile[]): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const f of files.filter((x) => /sitemap.*\.xml$/.test(x.path))) {
    for (const m of f.content.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?/g)) out.set(m[1]!, m[2]);
  }
  return out;
}

describe('source dates', () => {
  test('sourceDate: the store\'s own date in whole seconds; none, unreadable or future dates give null', () => {
    expect(sourceDate('2026-03-01T12:00:00.123Z', NOW)).toBe('2026-03-01T12:00:00Z');
    expect(sourceDate(null, NOW)).toBeNull();
    expect(sourceDate('not a date', NOW)).toBeNull();
    expect(sourceDate('2099-01-01T00:00:00Z', NOW)).toBeNull();
    expect(latestDate(['2026-01-01T00:00:00Z', null, '2026-02-01T00:00:00Z', undefined])).toBe('2026-02-01T00:00:00Z');
    expect(latestDate([null, undefined])).toBeNull();
  });

  test('a product without updated_at has no dateModified in data.json, whatever the build time', () => {
    const products = snapshot().products;
    const undated = products.find((p) => p.updatedAt === null)!;
    expect(productNode(undated, narrative(), NOW).dateModified).toBeUndefined();
    expect(productNode(undated, narrative(), LATER).dateModified).toBeUndefined();
    const future = { ...undated, updatedAt: '2099-01-01T00:00:00Z' };
    expect(productNode(future, narrative(), NOW).dateModified).toBeUndefined();
    const dated = products.find((p) => p.updatedAt !== null)!;
    expect(productNode(dated, narrative(), LATER).dateModified).toBe(sourceDate(dated.updatedAt, LATER));
    // data.json: the same document on two build days (nothing changed, nothing claims a change).
    const a = buildDataJson(snapshot().business, products, narrative(), NOW);
    const b = buildDataJson(snapshot().business, products, narrative(), LATER);
    expect(b).toEqual(a);
    expect(a.dateModified).toBe(latestDate(products.map((p) => p.updatedAt)));
    expect(buildDataJson(snapshot().business, [undated], narrative(), NOW).dateModified).toBeUndefined();
  });

  test('every AI page: JSON-LD dateModified = article:modified_time = sitemap lastmod, also for undated products and after a rebuild', () => {
    const first = buildSiteFiles(snapshot(), narrative(), OPTIONS);
    const again = buildSiteFiles(snapshot(), narrative(), { ...OPTIONS, now: LATER, previousPages: pageDatesOf(first) });
    for (const [content, deployedAt] of [[first, NOW], [again, LATER]] as const) {
      const site = finalizeSite(content, { ...metadata(), deployedAt });
      const sitemap = lastmods(site);
      let checked = 0;
      for (const page of content.filter((f) => f.path.startsWith('/ai/') && f.path.endsWith('/index.html'))) {
        const node = ld(page);
        const modified = modifiedOf(page);
        expect(node.dateModified).toBe(modified);
        const entry = [...sitemap.entries()].find(([loc]) => loc.endsWith(page.path.replace(/index\.html$/, '')));
        if (entry) {
          expect(entry[1]).toBe(modified);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(5);
    }
    // The undated product's page keeps its first date on a rebuild with nothing changed.
    const undated = snapshot().products.find((p) => p.updatedAt === null)!;
    const path = `/ai/products/${undated.productId}/index.html`;
    expect(ld(file(again, path)).dateModified).toBe(ld(file(first, path)).dateModified);
  });
});
