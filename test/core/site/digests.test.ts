/** What batch 3 announces (issue 23): real changes of announced files, never a date refresh or the plumbing. */
import { refreshTimestamps } from '../../../functions/core/site/build';
import { digestChanges, isAnnouncedPath, siteDigests } from '../../../functions/core/site/digests';
import type { SiteFile } from '../../../functions/core/site/types';

const page = (path: string, body: string, checked = 'November 24, 2026', hash?: string): SiteFile => ({
  path,
  contentType: 'text/html; charset=utf-8',
  content: `<html><head><title>${body} (2026)</title>${hash ? `<meta name="ai-site:content-hash" content="${hash}">` : ''}</head><body><h1>${body}</h1><footer><p>Last checked: ${checked}</p></footer></body></html>`,
});
const text = (path: string, content: string): SiteFile => ({ path, content, contentType: 'text/plain; charset=utf-8' });

test('announced: pages, markdown replicas, llms files and data.json; never sitemaps, robots, the script, the favicon or key files', () => {
  for (const p of ['/ai/products/x/index.html', '/index.html', '/pages/about.md', '/llms.txt', '/llms/x.txt', '/llms/catalog/1.txt', '/data.json']) expect([p, isAnnouncedPath(p)]).toEqual([p, true]);
  for (const p of ['/sitemap.xml', '/ai/sitemaps/sitemap-1.xml', '/robots.txt', '/tracking.js', '/favicon.svg', '/indexing-key.txt', '/0123456789abcdef.txt']) expect([p, isAnnouncedPath(p)]).toEqual([p, false]);
});

test('a check-date refresh (and the new year in a title) changes no digest; an edit does', () => {
  const before = [page('/ai/a/index.html', 'Alpha'), page('/ai/b/index.html', 'Beta'), text('/llms.txt', '# Shop\n')];
  const refreshed = refreshTimestamps(before, '2027-01-02T10:00:00Z');
  expect(refreshed[0]!.content).toContain('Last checked: January 2, 2027');
  expect(digestChanges(siteDigests(before), siteDigests(refreshed))).toEqual({ changed: [], removed: [] });
  const edited = [page('/ai/a/index.html', 'Alpha, now in oak'), before[1]!, text('/llms.txt', '# Shop\n- New\n'), page('/ai/c/index.html', 'Gamma')];
  expect(digestChanges(siteDigests(before), siteDigests(edited))).toEqual({ changed: ['/ai/a/index.html', '/ai/c/index.html', '/llms.txt'], removed: [] });
  expect(digestChanges(siteDigests(edited), siteDigests([edited[0]!]))).toEqual({ changed: [], removed: ['/ai/b/index.html', '/ai/c/index.html', '/llms.txt'] });
});

test('a page carrying its content hash is compared by it (its dates are already placeholders there)', () => {
  const a = page('/ai/a/index.html', 'Alpha', 'November 24, 2026', 'aaaa');
  const sameContentOtherDates = { ...page('/ai/a/index.html', 'Alpha', 'March 3, 2027', 'aaaa'), content: page('/ai/a/index.html', 'Alpha', 'March 3, 2027', 'aaaa').content.replace('(2026)', '(2027)') };
  expect(siteDigests([a])).toEqual(siteDigests([sameContentOtherDates]));
  expect(siteDigests([a])).not.toEqual(siteDigests([page('/ai/a/index.html', 'Alpha', 'November 24, 2026', 'bbbb')]));
  expect(siteDigests([text('/sitemap.xml', '<urlset/>')])).toEqual({});
});
