/**
 * AI-site releases on local disk: `<root>/<slug>/releases/<id>/...` plus a `current`
 * pointer file. A release is written to a staging directory and renamed into place,
 * then the pointer is replaced with an atomic rename: readers see old or new, never a mix.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { NotFoundError } from '../../core/errors';
import { assertUniquePaths, newReleaseId, releaseRelativePath, RELEASES_KEPT } from '../../core/site/release';
import type { SiteFile } from '../../core/site/types';
import type { Clock, SiteStore } from '../../ports';
import { contentTypeOf } from '../../core/site/content-types';

export function createFsSiteStore(root: string, clock: Clock, keep = RELEASES_KEPT): SiteStore {
  const siteDir = (slug: string) => join(root, slug);
  const releasesDir = (slug: string) => join(siteDir(slug), 'releases');

  const currentId = async (slug: string): Promise<string | null> => {
    try {
      return (await readFile(join(siteDir(slug), 'current'), 'utf8')).trim() || null;
    } catch {
      return null;
    }
  };

  const point = async (slug: string, releaseId: string) => {
    const tmp = join(siteDir(slug), `.current-${releaseId}`);
    await writeFile(tmp, releaseId);
    await rename(tmp, join(siteDir(slug), 'current'));
  };

  const listReleases = async (slug: string) => {
    try {
      return (await readdir(releasesDir(slug))).filter((n) => !n.startsWith('.')).sort();
    } catch {
      return [];
    }
  };

  return {
    async publish(slug, files) {
      assertUniquePaths(files.map((f) => f.path));
      const relativePaths = files.map((f) => releaseRelativePath(f.path));
      const releaseId = newReleaseId(clock.now());
      const staging = join(releasesDir(slug), `.staging-${releaseId}`);
      let bytes = 0;
      try {
        for (let i = 0; i < files.length; i++) {
          const target = join(staging, relativePaths[i]);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, files[i].content);
          bytes += Buffer.byteLength(files[i].content);
        }
        await rename(staging, join(releasesDir(slug), releaseId));
      } catch (err) {
        await rm(staging, { recursive: true, force: true });
        throw err;
      }
      await point(slug, releaseId);
      // Old releases go only after the pointer moved, and never the current one.
      const releases = await listReleases(slug);
      for (const old of releases.slice(0, Math.max(0, releases.length - keep))) {
        if (old !== releaseId) await rm(join(releasesDir(slug), old), { recursive: true, force: true });
      }
      return { releaseId, fileCount: files.length, bytes };
    },

    async readCurrent(slug) {
      const releaseId = await currentId(slug);
      if (!releaseId) return null;
      const base = join(releasesDir(slug), releaseId);
      const files: SiteFile[] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const full = join(dir, entry.name);
          if (entry.isDirectory()) await walk(full);
          else {
            const path = '/' + relative(base, full).split(sep).join('/');
            files.push({ path, content: await readFile(full, 'utf8'), contentType: contentTypeOf(path) });
          }
        }
      };
      await walk(base);
      return { releaseId, files: files.sort((a, b) => (a.path < b.path ? -1 : 1)) };
    },

    listReleases,

    async rollback(slug, releaseId) {
      try {
        if (!(await stat(join(releasesDir(slug), releaseId))).isDirectory()) throw new Error();
      } catch {
        throw new NotFoundError(`release ${releaseId} of ${slug} does not exist`);
      }
      await point(slug, releaseId);
    },
  };
}
