/**
 * The sources articles are written from are parsed from a release once and stored by release
 * id: the daily plan step prepares them, and each article item (its own task, on AWS its own
 * Lambda) reads that artifact instead of the whole release (65,000 files at 20,000 products).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsArtifactStore } from '../../functions/adapters/local/fs-artifact-store';
import { createFsSiteStore } from '../../functions/adapters/local/fs-site-store';
import { readArticleSources, siteContentOf } from '../../functions/core/articles/site-sources';
import { takenSlugs } from '../../functions/core/articles/slugs';
import type { SiteFile } from '../../functions/core/site/types';
import type { Container } from '../../functions/container';

const html = (path: string, body: string): SiteFile => ({ path, contentType: 'text/html; charset=utf-8', content: `<!doctype html><html><head><title>${body}</title></head><body><main><article><h1>${body}</h1><p>${body} is brewed from single-origin beans roasted every week in our Harbor roastery.</p></article></main></body></html>` });
const releaseFiles = (version: string): SiteFile[] => [
  { path: '/llms.txt', contentType: 'text/plain', content: `# Harbor Coffee\n\n> Small-batch coffee roasted weekly (${version}).\n\nWe roast every Monday and ship within two days.\n` },
  html('/ai/products/house-blend/index.html', `House Blend ${version}`),
  { path: '/products/house-blend.txt', contentType: 'text/plain', content: 'House Blend' },
];

/** A container of the real local stores; `loaded()` isolates the article module as a fresh task instance would. */
function setup() {
  const root = mkdtempSync(join(tmpdir(), 'article-materials-'));
  const siteStore = createFsSiteStore(join(root, 'sites'), { now: () => new Date() });
  const artifacts = createFsArtifactStore(join(root, 'artifacts'));
  let releaseReads = 0;
  const container = {
    siteStore: { ...siteStore, openRelease: (slug: string, id: string) => { releaseReads++; return siteStore.openRelease(slug, id); } },
    artifacts,
    businesses: { get: async () => ({ id: 'biz', orgSlug: 'o', name: 'Harbor Coffee', url: 'https://harbor.example', domain: 'harbor.example', faviconUrl: null, createdAt: '', updatedAt: '' }) },
  } as unknown as Container;
  const freshInstance = () => {
    let mod!: typeof import('../../functions/app/articles/materials');
    jest.isolateModules(() => { mod = require('../../functions/app/articles/materials'); });
    return mod;
  };
  return { container, siteStore, artifacts, freshInstance, reads: () => releaseReads };
}

test('the plan parses the release once; another instance reads the stored sources, not the release', async () => {
  const { container, siteStore, artifacts, freshInstance, reads } = setup();
  await artifacts.put('scrape/o', { pages: [], urls: [] });
  const published = await siteStore.publish('o', releaseFiles('v1'));
  await freshInstance().prepareArticleSources(container, 'o');
  expect(reads()).toBe(1);
  const stored = await artifacts.get<{ release_id: string; paths: string[] }>('article-sources/o');
  expect(stored).toMatchObject({ release_id: published.releaseId, paths: expect.arrayContaining(['/llms.txt', '/products/house-blend.txt']) });

  const site = await freshInstance().loadArticleSite(container, 'o');
  expect(reads()).toBe(1);
  const { files } = (await siteStore.readCurrent('o'))!;
  expect(site.sources).toEqual(JSON.parse(JSON.stringify(readArticleSources(siteContentOf(files)))));
  expect(site.sources.products.map((p) => p.name)).toEqual(['House Blend v1']);
  expect([...site.takenSlugs].sort()).toEqual([...takenSlugs(files.map((f) => f.path))].sort());
  expect(site.takenSlugs).toContain('house-blend');
});

test('a new release is parsed again and replaces the stored sources', async () => {
  const { container, siteStore, artifacts, freshInstance, reads } = setup();
  await artifacts.put('scrape/o', { pages: [], urls: [] });
  await siteStore.publish('o', releaseFiles('v1'));
  await freshInstance().prepareArticleSources(container, 'o');
  const second = await siteStore.publish('o', releaseFiles('v2'));
  const site = await freshInstance().loadArticleSite(container, 'o');
  expect(reads()).toBe(2);
  expect(site.sources.products.map((p) => p.name)).toEqual(['House Blend v2']);
  expect(await artifacts.get('article-sources/o')).toMatchObject({ release_id: second.releaseId });
});

test('no release yet: the plan prepares nothing, and an item says the site is not deployed', async () => {
  const { container, artifacts, freshInstance, reads } = setup();
  await artifacts.put('scrape/o', { pages: [], urls: [] });
  await freshInstance().prepareArticleSources(container, 'o');
  expect(reads()).toBe(0);
  expect(await artifacts.get('article-sources/o')).toBeNull();
  await expect(freshInstance().loadArticleSite(container, 'o')).rejects.toThrow(/not deployed yet/);
});
