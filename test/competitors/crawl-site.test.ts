/**
 * The live crawl fallback (D15) gives up on a host the resolver does not know: its robots.txt
 * and sitemap live on the same host and cannot be read either, so add-competitor answers after
 * the home page and the www twin instead of four fetches (the security suite's sweep held it
 * past 20 s under load, issue 47).
 */
import { crawlSite } from '../../functions/app/competitors';
import { UpstreamError } from '../../functions/core/errors';
import type { HttpFetcher } from '../../functions/ports';

function notFound(): { fetch: HttpFetcher; asked: string[] } {
  const asked: string[] = [];
  const fetch: HttpFetcher = async (url) => {
    asked.push(url);
    throw new UpstreamError(`could not reach ${new URL(url).hostname}: host not found`);
  };
  return { fetch, asked };
}

test('a host that does not resolve is not asked for its robots.txt or sitemap', async () => {
  const { fetch, asked } = notFound();
  const crawl = crawlSite(fetch, new URL('https://rival-shop.example/'), { timeoutMs: 8_000, budgetMs: 12_000, liveFallback: true });
  await expect(crawl).rejects.toThrow(/could not read rival-shop\.example: could not reach rival-shop\.example: host not found; the live crawl fallback \(1 other URL: https\/www variants\)/);
  expect(asked).toEqual(['https://rival-shop.example/', 'https://www.rival-shop.example/']);
});

test('a host that resolves but refuses still gets the sitemap fallback', async () => {
  const asked: string[] = [];
  const fetch: HttpFetcher = async (url) => {
    asked.push(url);
    throw new UpstreamError(`could not reach ${new URL(url).hostname}: connection refused`);
  };
  await expect(crawlSite(fetch, new URL('https://rival-shop.example/'), { timeoutMs: 8_000, budgetMs: 12_000, liveFallback: true })).rejects.toThrow(/sitemap pages/);
  expect(asked).toEqual(expect.arrayContaining(['https://rival-shop.example/robots.txt', 'https://rival-shop.example/sitemap.xml']));
});
