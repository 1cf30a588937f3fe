import * as cheerio from 'cheerio';
import { buildSiteFiles, finalizeSite, refreshTimestamps } from '../../../functions/core/site/build';
import { datedContent, neutralTitleYear } from '../../../functions/core/site/dates';
import { CONTENT_TYPES, escapeHtml, renderPage } from '../../../functions/core/site/html';
import { publicUrlOfFile } from '../../../functions/core/site/paths';
import type { SiteFile } from '../../../functions/core/site/types';
import { INDEXNOW_KEY, TRACKING_ENDPOINT, metadata, narrative, snapshot } from './fixtures';

const BUILT = '2025-12-31T22:00:00.000Z';
const LATER = '2026-01-02T08:30:00.000Z';

function built(): SiteFile[] {
  const content = buildSiteFiles(snapshot(), narrative(), { now: BUILT, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT });
  return finalizeSite(content, { ...metadata(), deployedAt: BUILT });
}

function byPath(files: SiteFile[], path: string): SiteFile {
  return files.find((f) => f.path === path) as SiteFile;
}

/** Replaces every date form the refresh may touch with a placeholder. */
function withoutDates(line: string): string {
  return line
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<ISO>')
    .replace(/(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/g, '<DATE>')
    .replace(/\((\d{4})\)/g, '(<YEAR>)');
}

describe('refreshTimestamps', () => {
  const before = built();
  const after = refreshTimestamps(before, LATER);

  // D112: a refresh moves the check date, never the modified date (no content changed).
  it('rewrites the "Last checked" footer line of every HTML page, and nothing that claims a change', () => {
    for (const [i, file] of after.entries()) {
      if (!file.path.endsWith('.html')) continue;
      const $ = cheerio.load(file.content);
      const $old = cheerio.load((before[i] as SiteFile).content);
      expect($('meta[property="article:modified_time"]').attr('content')).toBe($old('meta[property="article:modified_time"]').attr('content'));
      expect($('footer p').first().text()).toBe($old('footer p').first().text());
      expect($('footer p').eq(1).text()).toBe('Last checked: January 2, 2026');
      expect($('meta[name="ai-site:content-hash"]').attr('content')).toBe($old('meta[name="ai-site:content-hash"]').attr('content'));
    }
  });

  it('moves the year in titles when the year changed, and leaves model numbers alone', () => {
    const $before = cheerio.load(byPath(before, '/ai/questions/index.html').content);
    const $after = cheerio.load(byPath(after, '/ai/questions/index.html').content);
    expect($before('title').text()).toContain('(2025)');
    expect($after('title').text()).toBe('Questions and answers (2026) | Northwind Coffee Roasters');
    expect($after('meta[property="og:title"]').attr('content')).toContain('(2026)');
    const grinder = cheerio.load(byPath(after, '/ai/products/model-2025-burr-grinder/index.html').content);
    expect(grinder('title').text()).toBe('Model 2025 Burr Grinder | Northwind Coffee Roasters');
    expect(grinder('h1').text()).toBe('Model 2025 Burr Grinder');
  });

  it('never moves JSON-LD dateModified, data.json or the sitemap', () => {
    const ld = (file: SiteFile) => JSON.parse(cheerio.load(file.content)('script[type="application/ld+json"]').first().text());
    for (const path of ['/ai/products/house-espresso-blend/index.html', '/ai/products/ethiopia-yirgacheffe/index.html', '/ai/questions/index.html']) {
      expect(ld(byPath(after, path)).dateModified).toBe(ld(byPath(before, path)).dateModified);
    }
    expect(ld(byPath(after, '/ai/products/house-espresso-blend/index.html')).dateModified).toBe('2025-12-31T22:00:00Z');
    expect(byPath(after, '/data.json')).toBe(byPath(before, '/data.json'));
    expect(byPath(after, '/sitemap.xml')).toBe(byPath(before, '/sitemap.xml'));
  });

  it('changes only dates', () => {
    expect(after.map((f) => f.path)).toEqual(before.map((f) => f.path));
    let changedLines = 0;
    for (const [i, file] of after.entries()) {
      const old = before[i] as SiteFile;
      expect(file.contentType).toBe(old.contentType);
      const a = old.content.split('\n');
      const b = file.content.split('\n');
      expect(b).toHaveLength(a.length);
      for (const [j, line] of b.entries()) {
        if (line !== a[j]) {
          changedLines += 1;
          expect(withoutDates(line)).toBe(withoutDates(a[j] as string));
        }
      }
    }
    expect(changedLines).toBeGreaterThan(0);
    for (const path of ['/llms.txt', '/tracking.js', '/pages/pages-about-us.md', '/sitemap.xml', '/robots.txt']) {
      expect(byPath(after, path)).toBe(byPath(before, path));
    }
  });

  it('is idempotent', () => {
    expect(refreshTimestamps(after, LATER)).toEqual(after);
  });

  it('is a no-op at the build time itself', () => {
    expect(refreshTimestamps(before, BUILT)).toEqual(before);
  });

  it('refuses a malformed time', () => {
    expect(() => refreshTimestamps(before, 'yesterday')).toThrow(/ISO/);
  });
});

/**
 * An AI article as the article engine writes one (a root `/<slug>/index.html` page: the
 * question as `<title>`, og:title, `<h1>` and the JSON-LD `Article` headline; hashed with its
 * title year neutral), built here from the site's page shell so the test does not follow the
 * engine's answer format.
 */
function articlePage(slug: string, question: string, now: string): SiteFile {
  const path = `/${slug}/index.html`;
  const canonical = publicUrlOfFile(path);
  const { content } = datedContent(({ modified, checked, hash, neutral }) => {
    const title = neutral ? neutralTitleYear(question) : question;
    return renderPage({
      storeName: 'Northwind Coffee Roasters',
      storeUrl: 'https://northwind.example',
      title,
      description: 'Northwind Coffee Roasters sells a Model 2025 burr grinder.',
      canonical,
      modifiedTime: modified,
      checkedTime: checked,
      ...(hash ? { contentHash: hash } : {}),
      extraMeta: [['article:published_time', modified]],
      jsonLd: [{ '@context': 'https://schema.org', '@type': 'Article', headline: title, datePublished: modified, dateModified: modified }],
      body: `<article>\n<h1>${escapeHtml(title)}</h1>\n<p>The Model 2025 burr grinder is listed.</p>\n</article>`,
    });
  }, undefined, null, now);
  return { path, content, contentType: CONTENT_TYPES.html };
}

describe('the title year moves with the title everywhere the page states it (h1, JSON-LD headline)', () => {
  const QUESTION = 'Which grinder suits espresso in 2025?';
  const content = () => [
    ...buildSiteFiles(snapshot(), narrative(), { now: BUILT, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT }),
    articlePage('best-grinder-for-espresso', QUESTION, BUILT),
    articlePage('model-2025-grinder-review', 'What do buyers say about the Model 2025 grinder?', BUILT),
  ];
  const first = finalizeSite(content(), { ...metadata(), deployedAt: BUILT });
  // The next day's publish: the release's files (the AI home included, as a merge publish
  // passes them) refreshed, then finalized again.
  const second = finalizeSite(refreshTimestamps(first, LATER), { ...metadata(), deployedAt: LATER });
  const page = (files: SiteFile[], path: string) => cheerio.load(byPath(files, path).content);
  const headline = ($: cheerio.CheerioAPI) => JSON.parse($('script[type="application/ld+json"]').first().text()).headline;

  it('moves <title>, og:title, the <h1> and the headline together; a bare model number stays', () => {
    const $before = page(first, '/best-grinder-for-espresso/index.html');
    expect($before('h1').text()).toBe(QUESTION);
    const $ = page(second, '/best-grinder-for-espresso/index.html');
    const moved = 'Which grinder suits espresso in 2026?';
    expect($('title').text()).toBe(`${moved} | Northwind Coffee Roasters`);
    expect($('meta[property="og:title"]').attr('content')).toBe(`${moved} | Northwind Coffee Roasters`);
    expect($('h1').text()).toBe(moved);
    expect(headline($)).toBe(moved);
    expect($('main p').first().text()).toBe('The Model 2025 burr grinder is listed.');
    const $model = page(second, '/model-2025-grinder-review/index.html');
    expect($model('h1').text()).toBe('What do buyers say about the Model 2025 grinder?');
    expect(headline($model)).toBe('What do buyers say about the Model 2025 grinder?');
  });

  it('a page that is not an article keeps its h1 and headline: a product named "Wall Calendar (2025)" is not renamed', () => {
    const calendar: SiteFile = {
      path: '/ai/products/wall-calendar/index.html', contentType: CONTENT_TYPES.html,
      content: renderPage({
        storeName: 'Northwind Coffee Roasters', storeUrl: 'https://northwind.example', title: 'Wall Calendar (2025)', description: 'A calendar.',
        canonical: publicUrlOfFile('/ai/products/wall-calendar/index.html'), modifiedTime: BUILT, checkedTime: BUILT, ogType: 'product',
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'Product', name: 'Wall Calendar (2025)', headline: 'Wall Calendar (2025)' }],
        body: '<article>\n<h1>Wall Calendar (2025)</h1>\n</article>',
      }),
    };
    const [refreshed] = refreshTimestamps([calendar], LATER);
    const $ = cheerio.load(refreshed!.content);
    expect($('h1').text()).toBe('Wall Calendar (2025)');
    expect(headline($)).toBe('Wall Calendar (2025)');
  });

  it('is still no content change: same hash, same modified dates, same sitemap lastmod', () => {
    const $before = page(first, '/best-grinder-for-espresso/index.html');
    const $ = page(second, '/best-grinder-for-espresso/index.html');
    expect($('meta[name="ai-site:content-hash"]').attr('content')).toBe($before('meta[name="ai-site:content-hash"]').attr('content'));
    expect($('meta[property="article:modified_time"]').attr('content')).toBe('2025-12-31T22:00:00Z');
    expect(JSON.parse($('script[type="application/ld+json"]').first().text()).dateModified).toBe('2025-12-31T22:00:00Z');
    const lastmods = (files: SiteFile[]) => Object.fromEntries(
      [...byPath(files, '/sitemap.xml').content.matchAll(/<loc>([^<]+)<\/loc>\s*<lastmod>([^<]+)<\/lastmod>/g)].map((m) => [m[1], m[2]]),
    );
    const article = Object.keys(lastmods(first)).find((loc) => loc.endsWith('/ai/best-grinder-for-espresso/'));
    expect(article).toBeDefined();
    expect(lastmods(second)[article!]).toBe(lastmods(first)[article!]);
  });

  it('the AI home lists the article by its moved h1, and its own date does not move for it', () => {
    const $before = page(first, '/ai/index.html');
    const $ = page(second, '/ai/index.html');
    expect($before('a').toArray().map((a) => $before(a).text())).toContain(QUESTION);
    expect($('a').toArray().map((a) => $(a).text())).toContain('Which grinder suits espresso in 2026?');
    expect($('meta[name="ai-site:content-hash"]').attr('content')).toBe($before('meta[name="ai-site:content-hash"]').attr('content'));
    expect($('meta[property="article:modified_time"]').attr('content')).toBe($before('meta[property="article:modified_time"]').attr('content'));
  });

  it('a refresh within the same year moves no title year, and a second refresh changes nothing', () => {
    const sameYear = refreshTimestamps(first, '2025-12-31T23:00:00Z');
    expect(page(sameYear, '/best-grinder-for-espresso/index.html')('h1').text()).toBe(QUESTION);
    const refreshed = refreshTimestamps(first, LATER);
    expect(refreshTimestamps(refreshed, LATER)).toEqual(refreshed);
  });
});
