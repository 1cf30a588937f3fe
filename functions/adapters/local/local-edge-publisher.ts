/**
 * The local stand-in for publishing the edge function: the "code" is the edge-function source
 * the local CDN proxy runs (`edge-function/*.ts`, or EDGE_FUNCTION_SOURCE_DIR), hashed file by
 * file in name order (SHA-256, hex); a published version is a number counted in the table
 * (`local:edge-function:<n>`). Versions keep no copy of their code: the local proxy always runs
 * the source as it is, so a version here records what was rolled out, not what serves.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localVersionArn } from '../../core/edge/rollout';
import type { EdgeFunctionPublisher } from '../../core/edge/types';

/** The repository's edge-function directory. */
export const LOCAL_EDGE_SOURCE_DIR = join(__dirname, '..', '..', '..', 'edge-function');

export interface LocalEdgePublisherOptions {
  sourceDir?: string;
  /** The next version number (1, 2, ...), counted durably (EdgeVersionRepository.nextLocalVersion). */
  nextVersion: () => Promise<number>;
}

/** SHA-256 (hex) over the `.ts` sources of `dir` (tests and declarations left out), name and content of each. */
export async function edgeSourceSha256(dir: string): Promise<string> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.ts') && !n.endsWith('.d.ts') && !n.endsWith('.test.ts')).sort();
  if (names.length === 0) throw new Error(`no edge-function source (*.ts) in ${dir}`);
  const hash = createHash('sha256');
  for (const name of names) {
    hash.update(`${name}\0`);
    hash.update(await readFile(join(dir, name)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export function createLocalEdgePublisher(options: LocalEdgePublisherOptions): EdgeFunctionPublisher {
  const dir = options.sourceDir ?? LOCAL_EDGE_SOURCE_DIR;
  return {
    latestCodeSha256: () => edgeSourceSha256(dir),
    async versionCodeSha256() {
      return null;
    },
    async publish(codeSha256) {
      // As PublishVersion with CodeSha256: code that changed since it was looked at is not published unseen.
      const now = await edgeSourceSha256(dir);
      if (now !== codeSha256) throw new Error(`the edge-function source in ${dir} changed while it was being published; run the rollout again`);
      const n = await options.nextVersion();
      return { versionArn: localVersionArn(n), version: String(n), codeSha256 };
    },
  };
}
