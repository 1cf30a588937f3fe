/** Release naming and file-path safety, shared by every SiteStore adapter. */
import { randomBytes } from 'node:crypto';
import { ValidationError } from '../errors';

/** Sortable by time, unique across concurrent publishes: `20261121T220900123Z-a1b2c3`. */
export function newReleaseId(now: Date): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
}

export const RELEASES_KEPT = 5;

const SEGMENT = /^[A-Za-z0-9._~@+=,-]+$/;

/** `/ai/products/x/index.html` → `ai/products/x/index.html`; refuses anything that could leave the release. */
export function releaseRelativePath(path: string): string {
  if (!path.startsWith('/') || path.endsWith('/')) throw new ValidationError(`file path must be absolute and name a file: ${path}`);
  const segments = path.slice(1).split('/');
  for (const s of segments) {
    if (!SEGMENT.test(s) || s === '.' || s === '..') throw new ValidationError(`file path has an invalid segment: ${path}`);
  }
  return segments.join('/');
}

export function assertUniquePaths(paths: string[]): void {
  const seen = new Set<string>();
  for (const p of paths) {
    if (seen.has(p)) throw new ValidationError(`duplicate file path in deploy: ${p}`);
    seen.add(p);
  }
}

/**
 * D28 on a static host: the AI-site host answers `/ai/<path>` with `/<path>` when nothing
 * exists at `/ai/<path>`. A store without per-request logic (S3) gets that by publishing
 * a copy at `/ai/<path>` for every such file.
 */
export function withAiFallbackCopies<T extends { path: string }>(files: T[]): T[] {
  const paths = new Set(files.map((f) => f.path));
  const copies = files
    .filter((f) => !f.path.startsWith('/ai/') && !paths.has(`/ai${f.path}`))
    .map((f) => ({ ...f, path: `/ai${f.path}` }));
  return [...files, ...copies];
}

/** The inverse, for reading a release back: drops the copies `withAiFallbackCopies` added. */
export function withoutAiFallbackCopies<T extends { path: string; content: string }>(files: T[]): T[] {
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  return files.filter((f) => !(f.path.startsWith('/ai/') && byPath.get(f.path.slice(3)) === f.content));
}
