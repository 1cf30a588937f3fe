import * as cheerio from 'cheerio';
import { buildSiteFiles, finalizeSite, refreshTimestamps } from '../../../functions/core/site/build';
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
