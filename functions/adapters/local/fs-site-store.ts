/**
 * AI-site releases on local disk: `<root>/<slug>/releases/<id>/...` plus a `current`
 * pointer file. A release is written to a staging directory and renamed into place,
 * then the pointer is replaced with an atomic rename: readers see old or new, never a mix.
 * A superseded release is deleted only after a grace period, so a reader that pinned it finishes.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { NotFoundError } from '../../core/errors';
import {
  assertNewPath, isReleaseId, newReleaseId, readPinnedRelease, releaseRelativePath, RELEASES_KEPT, releasesToPrune,
} from '../../core/site/release';
import type { SiteFile } from '../../core/site/types';
import type { Clock, SiteStore } from '../../ports';
import { contentTypeOf } from '../../core/site/content-types';

/**
 * Removes what publishes that never finished left behind: staging directories and pointer
 * temporaries (a process killed while writing a release). Never served: the `current` pointer
 * only ever names a whole release. Only while no publish runs (the runtime's start).
 */
export async function sweepUnfinishedReleases(root: string): Promise<number> {
  let swept = 0;
  let slugs: string[];
  try {
    slugs = await readdir(root);
  } catch {
    return 0;
  }
  for (const slug of slugs) {
    const leftovers = [
      ...(await readdir(join(root, slug)).catch(() => [] as string[])).filter((n) => n.startsWith('.current-')).map((n) => join(root, slug, n)),
      ...(await readdir(join(root, slug, 'releases')).catch(() => [] as string[])).filter((n) => n.startsWith('.staging-')).map((n) => join(root, slug, 'releases', n)),
    ];
    for (const path of leftovers) await rm(path, { recursive: true, force: true });
    swept += leftovers.length;
  }
  return swept;
}

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

  const readRelease = async (slug: string, releaseId: string) => {
    if (!isReleaseId(releaseId)) return null;
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
    try {
      await walk(base);
    } catch (err) {
      // Unknown, or pruned under us: never a partial release.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return { releaseId, files: files.sort((a, b) => (a.path < b.path ? -1 : 1)) };
  };

  return {
    async publish(slug, files) {
      const releaseId = newReleaseId(clock.now());
      const staging = join(releasesDir(slug), `.staging-${releaseId}`);
      const written = new Set<string>();
      let bytes = 0;
      try {
        for await (const file of files) {
          assertNewPath(written, file.path);
          const target = join(staging, releaseRelativePath(file.path));
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, file.content);
          bytes += Buffer.byteLength(file.content);
        }
        // An empty release is still a release: its directory exists.
        await mkdir(staging, { recursive: true });
        await rename(staging, join(releasesDir(slug), releaseId));
      } catch (err) {
        await rm(staging, { recursive: true, force: true });
        throw err;
      }
      await point(slug, releaseId);
      // Old releases go only after the pointer moved; the pointer is re-read, as a concurrent publish may have moved it.
      const current = (await currentId(slug)) ?? releaseId;
      for (const old of releasesToPrune(await listReleases(slug), current, clock.now(), keep)) {
        await rm(join(releasesDir(slug), old), { recursive: true, force: true });
      }
      return { releaseId, fileCount: written.size, bytes };
    },

    async openRelease(slug, releaseId) {
      if (!isReleaseId(releaseId)) return null;
      const base = join(releasesDir(slug), releaseId);
      if (!(await stat(base).catch(() => null))?.isDirectory()) return null;
      return {
        paths: async () => (await readdir(base, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => '/' + relative(base, join(e.parentPath ?? e.path, e.name)).split(sep).join('/')),
        read: (path) => readFile(join(base, releaseRelativePath(path)), 'utf8').catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
          throw err;
        }),
      };
    },

    readCurrent: (slug) => readPinnedRelease(() => currentId(slug), (id) => readRelease(slug, id), slug),

    currentReleaseId: currentId,

    readRelease,

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
