/**
 * Storing one part of an AI site's generated files (app/site/parts.ts publishes them all
 * together). Its own module so that steps which only store a part (an article create) do not
 * carry the site builder into their bundles.
 *
 * A part is one artifact, its head, naming its paths in order. A small part (an article, the
 * deployed files) holds its files in the head; a big one (2a's 45,000 files at 20,000 products)
 * names chunks of about CHUNK_BYTES each, stored by content hash, so a publish reads one chunk
 * at a time (D204). The head is written last: a reader sees the old part or the new one whole.
 * A chunk only the previous head still names stays for that head's readers; older ones go.
 */
import { createHash } from 'node:crypto';
import { artifactKeys } from '../../core/artifacts';
import type { SiteFile } from '../../core/site/types';
import type { Container } from '../../container';

/** Content bytes per chunk: big enough for few reads, small enough that a reader holds little. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

interface PartHead {
  paths: string[];
  /** The files themselves (a small part), or ... */
  files?: SiteFile[];
  /** ... the chunks holding them, in order. */
  chunks?: string[];
}

/** A part whose chunk is gone: rewritten twice while it was read. The reader starts again. */
export class PartChangedError extends Error {
  constructor(part: string) {
    super(`site part ${part} changed while it was read`);
    this.name = 'PartChangedError';
  }
}

/** A head as stored: parts written before chunking are a bare array of files. */
function asHead(stored: PartHead | SiteFile[] | null): PartHead | null {
  if (!stored) return null;
  return Array.isArray(stored) ? { paths: stored.map((f) => f.path), files: stored } : stored;
}

const readHead = async (container: Container, orgSlug: string, part: string): Promise<PartHead | null> =>
  asHead(await container.artifacts.get<PartHead | SiteFile[]>(artifactKeys.sitePart(orgSlug, part)));

function* chunksOf(files: readonly SiteFile[]): Generator<SiteFile[]> {
  let chunk: SiteFile[] = [];
  let bytes = 0;
  for (const file of files) {
    chunk.push(file);
    bytes += file.content.length;
    if (bytes >= CHUNK_BYTES) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
  }
  if (chunk.length > 0) yield chunk;
}

export async function saveSitePart(container: Container, orgSlug: string, part: string, files: SiteFile[]): Promise<void> {
  const headKey = artifactKeys.sitePart(orgSlug, part);
  const paths = files.map((f) => f.path);
  const total = files.reduce((n, f) => n + f.content.length, 0);
  if (total < CHUNK_BYTES) {
    await container.artifacts.put(headKey, { paths, files } satisfies PartHead);
    await deleteChunks(container, orgSlug, part, new Set());
    return;
  }
  const previous = await readHead(container, orgSlug, part);
  const chunks: string[] = [];
  for (const chunk of chunksOf(files)) {
    const json = JSON.stringify(chunk);
    const key = artifactKeys.sitePartChunk(orgSlug, part, createHash('sha256').update(json).digest('hex').slice(0, 32));
    // A repeat of the same content writes the same keys: a retried step adds nothing.
    await container.artifacts.put(key, chunk);
    chunks.push(key);
  }
  await container.artifacts.put(headKey, { paths, chunks } satisfies PartHead);
  await deleteChunks(container, orgSlug, part, new Set([...chunks, ...(previous?.chunks ?? [])]));
}

/** The part's chunks that none of `kept` names. */
async function deleteChunks(container: Container, orgSlug: string, part: string, kept: ReadonlySet<string>): Promise<void> {
  for (const key of await container.artifacts.list(artifactKeys.sitePartChunks(orgSlug, part))) {
    if (!kept.has(key)) await container.artifacts.delete(key);
  }
}

/**
 * Deletes one part (a retired article's): the next publish of the parts leaves its files out,
 * and sees the deletion as a change (the part leaves the parts' versions). Deleting a part that
 * is already gone does nothing.
 */
export async function deleteSitePart(container: Container, orgSlug: string, part: string): Promise<void> {
  await container.artifacts.delete(artifactKeys.sitePart(orgSlug, part));
  await deleteChunks(container, orgSlug, part, new Set());
}

/** A stored part, read a chunk at a time: its paths first (one small read), then its files. */
export interface StoredPart {
  paths: string[];
  batches(): AsyncIterable<SiteFile[]>;
}

/** The part as stored now, or null when there is none. Its chunks are read only when `batches` is iterated. */
export async function openSitePart(container: Container, orgSlug: string, part: string): Promise<StoredPart | null> {
  const head = await readHead(container, orgSlug, part);
  if (!head) return null;
  return {
    paths: head.paths,
    async *batches() {
      if (head.files) {
        yield head.files;
        return;
      }
      for (const key of head.chunks ?? []) {
        const chunk = await container.artifacts.get<SiteFile[]>(key);
        if (!chunk) throw new PartChangedError(part);
        yield chunk;
      }
    },
  };
}

/** Every file of the part at once (a small part, or a caller that needs them all), or null. */
export async function loadSitePart(container: Container, orgSlug: string, part: string): Promise<SiteFile[] | null> {
  const stored = await openSitePart(container, orgSlug, part);
  if (!stored) return null;
  const files: SiteFile[] = [];
  for await (const batch of stored.batches()) files.push(...batch);
  return files;
}
