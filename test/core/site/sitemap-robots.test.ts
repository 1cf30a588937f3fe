import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { buildSiteFiles, finalizeSite } from '../../../functions/core/site/build';
import { buildRobotsTxt, parseRobotsGroups } from '../../../functions/core/site/robots';
import { buildSitemap, w3cLastmod } from '../../../functions/core/site/sitemap';
import type { SiteFile } from '../../../functions/core/site/types';
import { INDEXNOW_KEY, NOW, STORE, TRACKING_ENDPOINT, metadata, narrative, snapshot } from './fixtures';
import { resolveOnAiHost, resolveOnCustomerDomain } from './helpers';

const AI_HOST = 'https://northwind-coffee.aisites.example';
const contentFiles = () => buildSiteFiles(snapshot(), narrative(), { now: NOW, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT });
const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' || name === 'sitemap', parseTagValue: false });
const W3C = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

interface UrlNode {
  loc: string;
  lastmod?: string;
}

function parseUrlset(xml: string): UrlNode[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as { urlset: { '@_xmlns': string; url?: UrlNode[] } };
  expect(doc.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  return doc.urlset.url ?? [];
}

function checkLocs(nodes: UrlNode[]): void {
  for (const node of nodes) {
    expect(() => new URL(node.loc)).not.toThrow();
    expect(node.loc).toMatch(/^https?:\/\//);
    expect(node.loc.length).toBeLessThan(2048);
    if (node.lastmod !== undefined) expect(node.lastmod).toMatch(W3C);
  }
}

function sitemapOf(files: SiteFile[]): SiteFile {
  return files.find((f) => f.path === '/sitemap.xml') as SiteFile;
}

describe('unified sitemap', () => {
  const files = finalizeSite(contentFiles(), metadata(STORE));
  const nodes = parseUrlset(sitemapOf(files).content);
  const locs = nodes.map((n) => n.loc);

  it('parses, and every loc is absolute and under 2,048 characters with W3C lastmods', () => {
    checkLocs(nodes);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it('keeps store URLs with their lastmod, drops invalid ones and bad dates, escapes &', () => {
    expect(nodes[0]).toEqual({ loc: `${STORE}/`, lastmod: '2026-03-10' });
    expect(nodes).toContainEqual({ loc: `${STORE}/collections/coffee-beans`, lastmod: '2026-02-01T00:00:00-08:00' });
    expect(nodes).toContainEqual({ loc: `${STORE}/search?q=beans&sort=price` });
    expect(sitemapOf(files).content).toContain('search?q=beans&amp;sort=price');
    expect(locs).not.toContain('relative/not-absolute');
    expect(locs.some((l) => l.length > 2000)).toBe(false);
  });

  it('lists the AI pages and AI files on the public origin, each resolving there', () => {
    const paths = new Set(files.map((f) => f.path));
    const ai = locs.filter((l) => !metadata().storeSitemapUrls.some((s) => s.loc === l));
    expect(ai).toEqual(
      expect.arrayContaining([
        `${STORE}/llms.txt`,
        `${STORE}/llms/ethiopia-yirgacheffe.txt`,
        `${STORE}/ai/products/ethiopia-yirgacheffe/`,
        `${STORE}/ai/collections/coffee-beans/`,
        `${STORE}/ai/how-fresh-is-the-coffee/`,
      ]),
    );
    // 6 product facts files + the two catalogue files (D113).
    expect(ai.filter((l) => l.includes('/llms/'))).toHaveLength(6 + 2);
    expect(ai.filter((l) => l.includes('/ai/products/'))).toHaveLength(6);
    expect(ai.some((l) => l.endsWith('.md') || l.endsWith('data.json'))).toBe(false);
    for (const loc of ai) {
      const path = new URL(loc).pathname;
      expect(resolveOnCustomerDomain(paths, path)).not.toBeNull();
      expect(resolveOnAiHost(paths, path)).not.toBeNull();
    }
  });

  it('takes AI-page lastmod from article:modified_time', () => {
    // D112: the product page's date is the product's update time (its content's source), not the deploy.
    expect(nodes.find((n) => n.loc === `${STORE}/ai/products/decaf-colombia/`)?.lastmod).toBe('2026-02-20T08:30:00Z');
    expect(nodes.find((n) => n.loc === `${STORE}/ai/how-fresh-is-the-coffee/`)?.lastmod).toBe('2026-03-14T09:12:00Z');
    // Text files carry no date of their own: no lastmod rather than the deploy time.
    expect(nodes.find((n) => n.loc === `${STORE}/llms.txt`)?.lastmod).toBeUndefined();
  });

  it('lists a root-level AI article in its /ai/<slug>/ form on the AI host origin too', () => {
    const article: SiteFile = { path: '/how-to-choose-beans/index.html', content: '<html><head><meta property="article:modified_time" content="2026-03-02T10:00:00Z"></head><body><h1>x</h1></body></html>', contentType: 'text/html; charset=utf-8' };
    const withArticle = finalizeSite([...contentFiles(), article], metadata(AI_HOST));
    const list = parseUrlset(sitemapOf(withArticle).content);
    expect(list).toContainEqual({ loc: `${AI_HOST}/ai/how-to-choose-beans/`, lastmod: '2026-03-02T10:00:00Z' });
    expect(list.some((n) => n.loc === `${AI_HOST}/how-to-choose-beans/`)).toBe(false);
    expect(list.filter((n) => n.loc.startsWith(AI_HOST)).every((n) => new URL(n.loc).pathname.match(/^\/(ai\/|llms)/))).toBe(true);
  });
});

describe('sitemap index past the limits (D23)', () => {
  const many = Array.from({ length: 60_000 }, (_, i) => ({ loc: `${STORE}/products/item-${i}?a=1&b=2`, lastmod: '2026-01-01' }));
  const files = finalizeSite(contentFiles(), metadata(STORE, many));
  const index = sitemapOf(files);

  it('turns /sitemap.xml into a sitemapindex of parts under /ai/sitemaps/', () => {
    expect(XMLValidator.validate(index.content)).toBe(true);
    const doc = parser.parse(index.content) as { sitemapindex: { sitemap: UrlNode[] } };
    const parts = doc.sitemapindex.sitemap;
    expect(parts.length).toBe(2);
    const paths = new Set(files.map((f) => f.path));
    let total = 0;
    for (const [i, part] of parts.entries()) {
      expect(part.loc).toBe(`${STORE}/ai/sitemaps/sitemap-${i + 1}.xml`);
      expect(part.lastmod).toMatch(W3C);
      const path = new URL(part.loc).pathname;
      expect(resolveOnCustomerDomain(paths, path)).toBe(path);
      const file = files.find((f) => f.path === path) as SiteFile;
      const nodes = parseUrlset(file.content);
      expect(nodes.length).toBeLessThanOrEqual(50_000);
      expect(Buffer.byteLength(file.content)).toBeLessThanOrEqual(50 * 1024 * 1024);
      checkLocs(nodes.slice(0, 100));
      total += nodes.length;
    }
    expect(total).toBe(60_000 + 8 + 6 + 3 + 2 + 6 + 1 + 1 + 1); // store + llms/* (6 products + 2 catalogue) + products + collections + kinds + Q&A + index + home + llms.txt
  });

  it('splits on bytes as well as counts', () => {
    const parts = buildSitemap(contentFiles(), metadata(STORE, many.slice(0, 500)), { maxUrls: 50_000, maxBytes: 20_000 });
    expect(parts[0]!.content).toContain('<sitemapindex');
    for (const part of parts.slice(1)) {
      expect(Buffer.byteLength(part.content)).toBeLessThanOrEqual(20_000);
      expect(XMLValidator.validate(part.content)).toBe(true);
    }
    const count = parts.slice(1).reduce((n, p) => n + parseUrlset(p.content).length, 0);
    expect(count).toBe(500 + 8 + 6 + 3 + 2 + 6 + 1 + 1); // store + llms/* (6 + 2 catalogue) + products + collections + kinds + Q&A + questions + llms.txt
  });

  it('finalizeSite replaces stale sitemap parts from an earlier publish', () => {
    const stale: SiteFile = { path: '/ai/sitemaps/sitemap-9.xml', content: 'old', contentType: 'application/xml' };
    const again = finalizeSite([...contentFiles(), stale], metadata(STORE));
    expect(again.some((f) => f.path === '/ai/sitemaps/sitemap-9.xml')).toBe(false);
  });
});

describe('w3cLastmod', () => {
  it.each([
    ['2026-03-14', '2026-03-14'],
    ['2026-03-14T09:12:00+00:00', '2026-03-14T09:12:00+00:00'],
    ['Sat, 14 Mar 2026 09:12:00 GMT', '2026-03-14T09:12:00Z'],
    ['soon', undefined],
    [undefined, undefined],
  ])('%s → %s', (input, expected) => {
    expect(w3cLastmod(input)).toBe(expected);
  });
});

describe('robots.txt', () => {
  const STORE_ROBOTS = `# we use a hosted platform
User-agent: *
Disallow: /admin
Disallow: /cart
Disallow: /checkouts/
Disallow: /collections/*sort_by*
Disallow: /*?*oseid=*
Sitemap: ${STORE}/sitemap.xml

User-agent: Nutch
Disallow: /

User-agent: AhrefsBot
User-agent: AhrefsSiteAudit
Crawl-delay: 10
Disallow: /admin

User-agent: Pinterest
Crawl-delay: 1
`;

  it('without store rules: allow everything and name the sitemap', () => {
    const robots = buildRobotsTxt(metadata(AI_HOST));
    expect(robots.path).toBe('/robots.txt');
    expect(robots.contentType).toBe('text/plain; charset=utf-8');
    const lines = robots.content.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    expect(lines).toContain(`Sitemap: ${AI_HOST}/sitemap.xml`);
  });

  it('keeps the store groups and Disallow rules, drops the store Sitemap lines', () => {
    const robots = buildRobotsTxt(metadata('https://www.northwind.example'), STORE_ROBOTS).content;
    const lines = robots.split('\n');
    for (const rule of ['Disallow: /admin', 'Disallow: /cart', 'Disallow: /checkouts/', 'Disallow: /collections/*sort_by*', 'Disallow: /*?*oseid=*']) {
      expect(lines).toContain(rule);
    }
    expect(robots).toContain('User-agent: Nutch\nDisallow: /');
    expect(robots).toContain('User-agent: AhrefsBot\nUser-agent: AhrefsSiteAudit\nCrawl-delay: 10\nDisallow: /admin');
    expect(robots).toContain('User-agent: Pinterest\nCrawl-delay: 1');
    expect(lines.filter((l) => l.startsWith('Sitemap:'))).toEqual(['Sitemap: https://www.northwind.example/sitemap.xml']);
    // The * group is one group: the store's * rules are merged into it.
    expect(lines.filter((l) => l === 'User-agent: *')).toHaveLength(1);
    const groups = parseRobotsGroups(robots);
    const star = groups.find((g) => g.userAgents.includes('*'))!;
    expect(star.rules).toEqual(expect.arrayContaining(['Allow: /', 'Allow: /ai/', 'Allow: /llms.txt', 'Disallow: /cart']));
  });

  it('does not cancel a store-wide Disallow: / with Allow: /, but keeps the AI paths open', () => {
    const robots = buildRobotsTxt(metadata(STORE), 'User-agent: *\nDisallow: /\n').content.split('\n');
    expect(robots).not.toContain('Allow: /');
    expect(robots).toEqual(expect.arrayContaining(['Disallow: /', 'Allow: /ai/', 'Allow: /llms.txt', 'Allow: /llms/']));
  });

  it('is part of the finalized site', () => {
    const files = finalizeSite(contentFiles(), metadata(STORE), { storeRobotsTxt: STORE_ROBOTS });
    const robots = files.find((f) => f.path === '/robots.txt')!;
    expect(robots.content).toContain(`Sitemap: ${STORE}/sitemap.xml`);
    expect(robots.content).toContain('Disallow: /cart');
    expect(robots.content.match(/^Sitemap:/gm)).toHaveLength(1);
  });
});
