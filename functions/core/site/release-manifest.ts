/**
 * Releases that reuse unchanged objects (issue 24.2, D179). A release is a manifest, one
 * small immutable object naming, for every file path, the content-addressed object holding
 * its bytes; a publish uploads only the objects no earlier release holds, then the manifest.
 * A day on which three product pages and the indexes changed writes those few objects and
 * one manifest instead of the whole site again.
 *
 * - Object key: the SHA-256 of the content type and the bytes, so a file that did not change
 *   keeps its object from release to release (and two paths with the same bytes share one).
 * - Lookup (the edge resolver and every reader): the path as the router gave it, and D28's
 *   `/ai/<path>` → `/<path>` fallback when nothing exists at `/ai/<path>`: no fallback copies.
 * - Garbage: an object no kept manifest names, older than the readers' grace (an object a
 *   concurrent publish uploaded before writing its manifest is younger than that).
 */
import { createHash } from 'node:crypto';
import { RELEASE_READER_GRACE_MS } from './release';

const MANIFEST_VERSION = 1;

/** How S3 holds releases: one prefix each (no edge resolver), or manifests of shared objects. */
export const SITE_LAYOUTS = ['prefix', 'manifest'] as const;
export type SiteLayout = (typeof SITE_LAYOUTS)[number];

export interface ReleaseManifest {
  version: typeof MANIFEST_VERSION;
  /** File path (`/llms.txt`, `/ai/index.html`) → object id (`objectIdOf`). */
  files: Record<string, string>;
  /** Object id → content type, for readers that rebuild the files. */
  types: Record<string, string>;
}

const OBJECT_ID = /^[0-9a-f]{64}$/;

/** The id of a file's bytes under its content type: unchanged files keep their id across releases. */
function objectIdOf(file: { content: string; contentType: string }): string {
  return createHash('sha256').update(file.contentType).update('\0').update(file.content).digest('hex');
}

export const emptyManifest = (): ReleaseManifest => ({ version: MANIFEST_VERSION, files: {}, types: {} });

/** Names one file in a manifest being built (a publish streams its files): the id of its object. */
export function addToManifest(manifest: ReleaseManifest, file: { path: string; content: string; contentType: string }): string {
  const id = objectIdOf(file);
  manifest.files[file.path] = id;
  manifest.types[id] = file.contentType;
  return id;
}

export function manifestOf(files: ReadonlyArray<{ path: string; content: string; contentType: string }>): ReleaseManifest {
  const manifest = emptyManifest();
  for (const file of files) addToManifest(manifest, file);
  return manifest;
}

/** A manifest read back, or null for text that is not one (never a partial release). */
export function parseManifest(text: string): ReleaseManifest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const m = value as Partial<ReleaseManifest> | null;
  if (!m || m.version !== MANIFEST_VERSION || typeof m.files !== 'object' || typeof m.types !== 'object' || !m.files || !m.types) return null;
  for (const [path, id] of Object.entries(m.files)) {
    if (!path.startsWith('/') || typeof id !== 'string' || !OBJECT_ID.test(id) || typeof m.types[id] !== 'string') return null;
  }
  return m as ReleaseManifest;
}

/** The object ids a publish must upload: those the new manifest names and no earlier one holds. */
export function objectsToUpload(next: ReleaseManifest, held: ReadonlySet<string>): string[] {
  return [...new Set(Object.values(next.files))].filter((id) => !held.has(id));
}

/**
 * The object serving a request path (already mapped to a file: `/x/` → `/x/index.html` by the
 * router), with D28's fallback from `/ai/<path>` to `/<path>`; null when the release has none.
 */
export function objectForPath(manifest: ReleaseManifest, path: string): string | null {
  const own = manifest.files[path];
  if (own) return own;
  return path.startsWith('/ai/') ? manifest.files[path.slice(3)] ?? null : null;
}

/** Objects to delete: named by no kept manifest, and older than the readers' grace. */
export function unreferencedObjects(
  objects: ReadonlyArray<{ id: string; lastModified: Date | undefined }>, kept: readonly ReleaseManifest[], now: Date, graceMs = RELEASE_READER_GRACE_MS,
): string[] {
  const named = new Set(kept.flatMap((m) => Object.values(m.files)));
  return objects
    .filter((o) => !named.has(o.id) && o.lastModified !== undefined && now.getTime() - o.lastModified.getTime() > graceMs)
    .map((o) => o.id);
}

export function isObjectId(id: string): boolean {
  return OBJECT_ID.test(id);
}
