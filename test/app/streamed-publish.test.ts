/**
 * D204: a publish streams the stored parts into the release a chunk at a time, so a store's
 * 65,000 files (20,000 products) are never all in memory. The release it writes is the one
 * `finalizeSite` builds from the same files as one array (the AI home, the sitemap, dead
 * related links dropped, check dates moved), and a part rewritten under a reader is read again.
 * On the local stack's real stores.
 */
import { CHUNK_BYTES, openSitePart, PartChangedError, saveSitePart } from '../../functions/app/site/part-store';
import { publishSiteParts } from '../../functions/app/site/parts';
import { aiSiteOrigin, getContainer, type Container } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { finalizeSite, refreshTimestamps } from '../../functions/core/site/build';
import type { SiteFile } from '../../functions/core/site/types';
import { startTestStackWithBusiness, type TestStack } from '../support/stack';

let stack: TestStack;
const ORG = 'streamed-publish';
const BUSINESS = { name: 'Streamed Co.', url: 'https://streamed.example' };
const NOW = '2026-11-24T14:00:00.000Z';

beforeAll(async () => {
  stack = await startTestStackWithBusiness(ORG, BUSINESS);
}, 60_000);
afterAll(async () => stack.close());

/** A product page of about 4 KB, with a related-articles list naming one live and one gone article. */
const productPage = (i: number): SiteFile => ({
  path: `/ai/products/p${i}/index.html`,
  contentType: 'text/html; charset=utf-8',
  content: `<!doctype html><html><head><title>Product ${i}</title></head><body><main><h1>Product ${i}</h1><p>${'Hand-thrown stoneware. '.repeat(170)}</p>
<section>\n<h2>Related articles</h2>\n<ul>\n<li><a href="/ai/guide/">Guide</a></li>\n<li><a href="/gone-article/">Gone</a></li>\n</ul>\n</section>\n</main><footer>Last checked: January 1, 2026</footer></body></html>`,
});
const bigPart = (n: number, version = 'v1'): SiteFile[] => [
  { path: '/llms.txt', contentType: 'text/plain; charset=utf-8', content: `# Streamed Co.\n\n> Stoneware, ${version}.\n` },
  { path: '/ai/guide/index.html', contentType: 'text/html; charset=utf-8', content: '<!doctype html><html><head><title>Guide</title></head><body><main><h1>Guide</h1></main><footer>Last checked: January 1, 2026</footer></body></html>' },
  ...Array.from({ length: n }, (_, i) => productPage(i)),
];

/** The container at NOW, its chunk reads and written files logged in order. */
function observed(): { container: Container; events: string[]; failChunkOnce(): void } {
  const base = { ...getContainer(), clock: { now: () => new Date(NOW) } };
  const events: string[] = [];
  let failNext = false;
  const artifacts = {
    ...base.artifacts,
    get: async <T,>(key: string): Promise<T | null> => {
      if (key.startsWith('site-part-chunks/')) {
        events.push('chunk');
        if (failNext) {
          failNext = false;
          return null; // as if the part had been rewritten twice since its head was read
        }
      }
      return base.artifacts.get<T>(key);
    },
  };
  const siteStore = {
    ...base.siteStore,
    publish: (org: string, files: Iterable<SiteFile> | AsyncIterable<SiteFile>) => base.siteStore.publish(org, (async function* () {
      for await (const file of files) {
        events.push('file');
        yield file;
      }
    })()),
  };
  return { container: { ...base, artifacts, siteStore }, events, failChunkOnce: () => { failNext = true; } };
}

test('a big part is stored in chunks of about CHUNK_BYTES, its paths in its head; a small one whole', async () => {
  const { container } = observed();
  const files = bigPart(3000);
  await saveSitePart(container, ORG, 'main', files);
  const head = await container.artifacts.get<{ paths: string[]; chunks?: string[]; files?: unknown }>(artifactKeys.sitePart(ORG, 'main'));
  expect(head!.paths).toEqual(files.map((f) => f.path));
  expect(head!.files).toBeUndefined();
  expect(head!.chunks!.length).toBeGreaterThanOrEqual(3);
  for (const key of head!.chunks!) {
    const chunk = (await getContainer().artifacts.get<SiteFile[]>(key))!;
    expect(chunk.reduce((n, f) => n + f.content.length, 0)).toBeLessThan(CHUNK_BYTES + 5000);
  }
  await saveSitePart(container, ORG, 'article-small', [files[1]]);
  expect(await container.artifacts.get(artifactKeys.sitePart(ORG, 'article-small'))).toEqual({ paths: ['/ai/guide/index.html'], files: [files[1]] });
  expect(await container.artifacts.list(artifactKeys.sitePartChunks(ORG, 'article-small'))).toEqual([]);
});

test('the publish writes files while it reads the chunks, and the release is what finalizeSite makes of the same files', async () => {
  const { container, events } = observed();
  const files = bigPart(3000);
  await saveSitePart(container, ORG, 'main', files);
  events.length = 0;
  const release = await publishSiteParts(container, ORG);

  // Streamed: the first file is written after the first chunk was read, before the second.
  expect(events.indexOf('file')).toBe(1);
  expect(events.filter((e) => e === 'chunk').length).toBeGreaterThanOrEqual(3);

  const metadata = {
    orgSlug: ORG, businessName: BUSINESS.name, sourceUrl: BUSINESS.url, publicOrigin: aiSiteOrigin(container.config, ORG), storeSitemapUrls: [], deployedAt: NOW,
  };
  const small = (await getContainer().artifacts.get<{ files: SiteFile[] }>(artifactKeys.sitePart(ORG, 'article-small')))!.files;
  // The parts in their publish order (by name: article-small, then main).
  const expected = finalizeSite(refreshTimestamps([...small, ...files], NOW), metadata);
  const live = (await getContainer().siteStore.readCurrent(ORG))!;
  expect(live.releaseId).toBe(release.releaseId);
  const byPath = (list: SiteFile[]) => Object.fromEntries(list.map((f) => [f.path, f.content]));
  expect(byPath(live.files)).toEqual(byPath(expected));
  // What the comparison covers: the AI home lists every product, the gone article's link left, dates moved.
  const home = byPath(live.files)['/ai/index.html']!;
  expect(home).toContain('Product 2999');
  expect(byPath(live.files)['/ai/products/p7/index.html']).not.toContain('/gone-article/');
  expect(byPath(live.files)['/ai/products/p7/index.html']).toContain('Last checked: November 24, 2026');
  expect(release.fileCount).toBe(live.files.length);
}, 120_000);

test('a part rewritten twice under a reader: its old head\'s chunks are gone, and the publish reads the parts again', async () => {
  const { container, failChunkOnce } = observed();
  await saveSitePart(container, ORG, 'main', bigPart(1500, 'v1'));
  const opened = (await openSitePart(container, ORG, 'main'))!;
  await saveSitePart(container, ORG, 'main', bigPart(1500, 'v2'));
  // The previous head's chunks stay for its readers...
  await expect((async () => { for await (const batch of opened.batches()) expect(batch.length).toBeGreaterThan(0); })()).resolves.toBeUndefined();
  await saveSitePart(container, ORG, 'main', bigPart(1500, 'v3'));
  // ... the one before that is gone.
  await expect((async () => { for await (const batch of opened.batches()) expect(batch).toBeDefined(); })()).rejects.toBeInstanceOf(PartChangedError);

  failChunkOnce();
  await publishSiteParts(container, ORG);
  const llms = (await getContainer().siteStore.readCurrent(ORG))!.files.find((f) => f.path === '/llms.txt')!;
  expect(llms.content).toContain('Stoneware, v3.');
}, 120_000);

test('a part stored before chunking (a bare array of files) is still published', async () => {
  const { container } = observed();
  await getContainer().artifacts.put(artifactKeys.sitePart(ORG, 'legacy'), [{ path: '/legacy/index.html', contentType: 'text/html; charset=utf-8', content: '<html><body><h1>Legacy page</h1></body></html>' }]);
  await publishSiteParts(container, ORG);
  const live = (await getContainer().siteStore.readCurrent(ORG))!;
  expect(live.files.map((f) => f.path)).toContain('/legacy/index.html');
  expect(live.files.find((f) => f.path === '/ai/index.html')!.content).toContain('Legacy page');
}, 120_000);
