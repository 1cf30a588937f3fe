/** Release naming and file-path safety, shared by every SiteStore adapter. */
import { randomBytes } from 'node:crypto';
import { ValidationError } from '../errors';
import type { SiteFile } from './types';

/** Sortable by time, unique across concurrent publishes: `20261121T220900123Z-a1b2c3`. */
export function newReleaseId(now: Date): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
}

export const RELEASES_KEPT = 5;

/**
 * How long a superseded release outlives the pointer move. Its readers (a Lambda task or an
 * API route) pinned its id before the move and run at most 300 s; the move itself is dated by
 * the next release's creation time, which is earlier by that release's upload, hence the margin.
 */
export const RELEASE_READER_GRACE_MS = 15 * 60_000;

const RELEASE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-/;

/** The creation time `newReleaseId` encoded, or null for an id it did not make. */
export function releaseCreatedAt(releaseId: string): Date | null {
  const m = RELEASE_TIME.exec(releaseId);
  if (!m) return null;
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number);
  const at = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  // Date.UTC rolls a month 13 over into the next year: only a time that reads back the same is one.
  return `${at.toISOString().replace(/[-:.]/g, '')}-` === m[0] ? at : null;
}

/**
 * The releases a publish may delete: beyond the newest `keep`, not `current`, and superseded
 * (the next-newer release was created) more than `graceMs` ago, so a reader that pinned one
 * just before the pointer moved finishes it. When the next-newer id carries no time, keep it.
 */
export function releasesToPrune(
  releases: string[], current: string | null, now: Date, keep = RELEASES_KEPT, graceMs = RELEASE_READER_GRACE_MS,
): string[] {
  const sorted = [...new Set(releases)].sort();
  const pruned: string[] = [];
  for (let i = 0; i < sorted.length - keep; i++) {
    if (sorted[i] === current) continue;
    const supersededAt = releaseCreatedAt(sorted[i + 1]);
    if (supersededAt && now.getTime() - supersededAt.getTime() > graceMs) pruned.push(sorted[i]);
  }
  return pruned;
}

/** Whether `releaseId` can name a release (no path tricks, not a staging or pointer file). */
export function isReleaseId(releaseId: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(releaseId);
}

/**
 * Pin-then-read: the current id is read once and that one release is read, so a concurrent
 * publish cannot mix releases. The pinned release can vanish only when its reader stalled past
 * the grace (or it was current by rollback: its successor's date is older than that); then
 * re-pin once rather than answer "no site" (callers would merge into nothing).
 */
export async function readPinnedRelease<R>(
  pin: () => Promise<string | null>, read: (releaseId: string) => Promise<R | null>, what: string,
): Promise<R | null> {
  for (let attempt = 1; ; attempt++) {
    const releaseId = await pin();
    if (!releaseId) return null;
    const release = await read(releaseId);
    if (release) return release;
    if (attempt >= 2) throw new Error(`current release ${releaseId} of ${what} is missing`);
  }
}

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

/** For a publish that streams its files: `path` must not repeat one already written. */
export function assertNewPath(seen: Set<string>, path: string): void {
  if (seen.has(path)) throw new ValidationError(`duplicate file path in deploy: ${path}`);
  seen.add(path);
}

/**
 * The files a publish is given: an array, or a stream that yields them one at a time (a
 * 65,000-file release is never all in memory, D204).
 */
export type ReleaseFiles = Iterable<SiteFile> | AsyncIterable<SiteFile>;

/**
 * The `/ai/<path>` copies D28 needs on a static host (`withAiFallbackCopies`), for a publish
 * that streamed its files: every root-level path with no `/ai/` file of its own.
 */
export function aiFallbackCopyPaths(paths: Iterable<string>): Array<{ from: string; to: string }> {
  const all = new Set(paths);
  return [...all].filter((p) => !p.startsWith('/ai/') && !all.has(`/ai${p}`)).map((from) => ({ from, to: `/ai${from}` }));
}

/**
 * D28 on a static host: the AI-site host answers `/ai/<path>` with `/<path>` when nothing
 * exists at `/ai/<path>`. A store without per-request logic (S3) gets that by publishing
 * a copy at `/ai/<path>` for every such file.
 */
export function withAiFallbackCopies<T extends { path: string }>(files: T[]): T[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  return [...files, ...aiFallbackCopyPaths(byPath.keys()).map(({ from, to }) => ({ ...byPath.get(from)!, path: to }))];
}

/** The inverse, for reading a release back: drops the copies `withAiFallbackCopies` added. */
export function withoutAiFallbackCopies<T extends { path: string; content: string }>(files: T[]): T[] {
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  return files.filter((f) => !(f.path.startsWith('/ai/') && byPath.get(f.path.slice(3)) === f.content));
}
