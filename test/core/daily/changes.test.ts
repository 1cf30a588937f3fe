import { diffSiteMap, hasChanges, mergePages, mergeSiteMap } from '../../../functions/core/daily/changes';
import type { MappedUrl, ScrapedPage } from '../../../functions/core/site/types';

const url = (path: string, fingerprint?: string): MappedUrl => ({ url: `https://shop.example${path}`, kind: 'page', source: 'sitemap', ...(fingerprint ? { fingerprint } : {}) });
const page = (path: string, markdown: string): ScrapedPage => ({ url: `https://shop.example${path}`, kind: 'page', title: path, description: '', markdown, fingerprint: markdown, statusCode: 200 });

describe('diffSiteMap', () => {
  const stored = [url('/', 'f0'), url('/a', 'fa'), url('/b', 'fb'), url('/gone', 'fg')];

  test('new, changed, removed and unchanged URLs by fingerprint', () => {
    const current = [url('/', 'f0'), url('/a', 'fa2'), url('/b', 'fb'), url('/new', 'fn')];
    expect(diffSiteMap(stored, current)).toEqual({
      added: ['https://shop.example/new'], changed: ['https://shop.example/a'],
      removed: ['https://shop.example/gone'], unchanged: ['https://shop.example/', 'https://shop.example/b'],
    });
  });

  test('a page whose fetch failed today (no fingerprint) is not a change', () => {
    const diff = diffSiteMap(stored, [url('/', 'f0'), url('/a'), url('/b', 'fb'), url('/gone', 'fg')]);
    expect(hasChanges(diff)).toBe(false);
    expect(diff.unchanged).toContain('https://shop.example/a');
  });

  test('a new URL without a fingerprint is still new (it gets scraped)', () => {
    expect(diffSiteMap(stored, [...stored, url('/x')]).added).toEqual(['https://shop.example/x']);
  });

  test('the same map is no change', () => {
    expect(hasChanges(diffSiteMap(stored, stored))).toBe(false);
  });
});

describe('mergeSiteMap and mergePages', () => {
  test('an unfetched URL keeps its stored fingerprint', () => {
    expect(mergeSiteMap([url('/a', 'fa')], [url('/a'), url('/b', 'fb')])).toEqual([url('/a', 'fa'), url('/b', 'fb')]);
  });

  test('unchanged pages are kept, changed ones replaced, new ones added, removed ones dropped, in map order', () => {
    const stored = [page('/a', 'old a'), page('/b', 'b'), page('/gone', 'g')];
    const scraped = [page('/new', 'n'), page('/a', 'new a')];
    const map = [url('/a'), url('/b'), url('/new')];
    expect(mergePages(stored, scraped, map).map((p) => [p.url.slice(20), p.markdown])).toEqual([['/a', 'new a'], ['/b', 'b'], ['/new', 'n']]);
  });

  test('a changed page whose scrape failed keeps its stored copy', () => {
    expect(mergePages([page('/a', 'old')], [], [url('/a')]).map((p) => p.markdown)).toEqual(['old']);
  });
});

test('a URL answering 404 or 410 today is removed, even when still linked', () => {
  const stored = [url('/', 'f0'), url('/gone', 'fg')];
  const current = [url('/', 'f0'), { ...url('/gone'), statusCode: 404 }, { ...url('/never'), statusCode: 410 }];
  expect(diffSiteMap(stored, current)).toMatchObject({ removed: ['https://shop.example/gone'], added: [] });
  expect(mergeSiteMap(stored, current).map((u) => u.url)).toEqual(['https://shop.example/']);
});
