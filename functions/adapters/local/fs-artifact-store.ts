/** Workflow artifacts as gzip JSON files under a directory (the local stand-in for S3). */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ArtifactStore } from '../../ports';
import { artifactPath } from '../../core/artifacts';

export function createFsArtifactStore(root: string): ArtifactStore {
  const file = (key: string) => join(root, `${artifactPath(key)}.json.gz`);
  const list = async (prefix: string): Promise<string[]> => {
    const dir = join(root, artifactPath(prefix));
    try {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && e.name.endsWith('.json.gz'))
        .map((e) => `${prefix.replace(/\/$/, '')}/${relative(dir, join(e.parentPath ?? e.path, e.name)).split(sep).join('/').replace(/\.json\.gz$/, '')}`)
        .sort();
    } catch {
      return [];
    }
  };

  return {
    async put(key, value) {
      const target = file(key);
      await mkdir(dirname(target), { recursive: true });
      // Unique per write: two writers of one key in the same millisecond must not share a temp file.
      const tmp = `${target}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(tmp, gzipSync(JSON.stringify(value)));
      await rename(tmp, target); // readers never see a half-written artifact
    },
    async get(key) {
      try {
        return JSON.parse(gunzipSync(await readFile(file(key))).toString('utf8'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    list,
    async versions(prefix) {
      // Every put renames a new file into place: inode, time and size identify the write.
      // A key deleted between the listing and its stat is gone: it leaves the map.
      const entries = await Promise.all((await list(prefix)).map(async (key) => {
        const info = await stat(file(key)).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return null;
          throw err;
        });
        return info ? [[key, `${info.ino}-${info.mtimeMs}-${info.size}`] as const] : [];
      }));
      return Object.fromEntries(entries.flat());
    },
    async delete(key) {
      try {
        await unlink(file(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    },
  };
}
