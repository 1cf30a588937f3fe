/** Workflow artifacts as gzip JSON files under a directory (the local stand-in for S3). */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ArtifactStore } from '../../ports';
import { artifactPath } from '../../core/artifacts';

export function createFsArtifactStore(root: string): ArtifactStore {
  const file = (key: string) => join(root, `${artifactPath(key)}.json.gz`);
  return {
    async put(key, value) {
      const target = file(key);
      await mkdir(dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
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
    async list(prefix) {
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
    },
  };
}
