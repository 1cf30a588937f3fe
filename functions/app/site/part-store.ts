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

/** Characters of content per chunk (about as many bytes): big enough for few reads, small enough that a reader holds little. */
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

/** The files in chunks of about CHUNK_BYTES, read from `files` only as each chunk fills. */
function* chunksOf(files: Iterable<SiteFile>): Generator<SiteFile[]> {
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

/**
 * Replaces the part with `files`, which may be a stream (2a's files as they are built): a
 * chunk is written as soon as it fills, so only one is held. A part that fits one chunk is
 * stored in its head. Returns the files' paths.
 */
export async function saveSitePart(container: Container, orgSlug: string, part: string, files: Iterable<SiteFile>): Promise<string[]> {
  const headKey = artifactKeys.sitePart(orgSlug, part);
  const previous = await readHead(container, orgSlug, part);
  const paths: string[] = [];
  const chunks: string[] = [];
  let pending: SiteFile[] | null = null;
  const writeChunk = async (chunk: SiteFile[]) => {
    const json = JSON.stringify(chunk);
    const key = artifactKeys.sitePartChunk(orgSlug, part, createHash('sha256').update(json).digest('hex').slice(0, 32));
    // A repeat of the same content writes the same keys: a retried step adds nothing.
    await container.artifacts.put(key, chunk);
    chunks.push(key);
  };
  // A chunk is written once the next one starts: the last one, if it is the only one, goes in the head.
  for (const chunk of chunksOf(files)) {
    for (const file of chunk) paths.push(file.path);
    if (pending) await writeChunk(pending);
    pending = chunk;
  }
  if (chunks.length === 0) {
    await container.artifacts.put(headKey, { paths, files: pending ?? [] } satisfies PartHead);
  } else {
    if (pending) await writeChunk(pending);
    await container.artifacts.put(headKey, { paths, chunks } satisfies PartHead);
  }
  // An inline part over an inline one (every article) has no chunks to sweep: no listing.
  if (chunks.length > 0 || previous?.chunks) await deleteChunks(container, orgSlug, part, new Set([...chunks, ...(previous?.chunks ?? [])]));
  return paths;
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
