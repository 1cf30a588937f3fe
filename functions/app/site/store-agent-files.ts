/**
 * The files a store already serves for AI agents (D114, D115): Shopify serves `/llms.txt`,
 * `/llms-full.txt`, `/agents.md`, the Universal Commerce Protocol profile `/.well-known/ucp`
 * and `/sitemap_agentic_discovery.xml`. Onboarding 1a and daily 1a probe them here, through
 * the guarded client, so our llms.txt links what exists and nothing the store had is lost
 * behind the proxy.
 *
 * A file exists when it answers 200 with a content type that fits the file (an HTML soft-404
 * or a login page does not), on the store's own site (a redirect off-site is refused). HEAD
 * first (no body is read); a store that refuses HEAD (405/501) is asked with a GET capped at
 * `AGENT_FILE_MAX_BYTES`. A failed probe only leaves that file out.
 */
import { sameSite } from '../../core/crawl/url';
import type { StoreAgentFile } from '../../core/site/types';
import type { FetchResponse, HttpFetcher } from '../../ports';

const TEXT = ['text/plain', 'text/markdown', 'text/x-markdown'];
const JSON_TYPES = ['application/json'];
const XML = ['application/xml', 'text/xml'];

/** The well-known agent files probed on every store, with the content types each may have. */
export const STORE_AGENT_FILES: ReadonlyArray<{ path: string; contentTypes: readonly string[] }> = [
  { path: '/llms.txt', contentTypes: TEXT },
  { path: '/llms-full.txt', contentTypes: TEXT },
  { path: '/agents.md', contentTypes: TEXT },
  { path: '/.well-known/ucp', contentTypes: JSON_TYPES },
  { path: '/sitemap_agentic_discovery.xml', contentTypes: XML },
];

/** A GET fallback reads at most this much (a bigger file is left out rather than read whole). */
export const AGENT_FILE_MAX_BYTES = 256 * 1024;
const PROBE_TIMEOUT_MS = 5_000;

/** `text/markdown; charset=utf-8` → `text/markdown`. */
const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();

function fits(type: string, allowed: readonly string[]): boolean {
  if (allowed.includes(type)) return true;
  // application/ld+json, application/vnd.x+json; application/rss+xml is no sitemap, but +xml is harmless.
  return (allowed === JSON_TYPES && /^application\/[a-z0-9.+-]+\+json$/.test(type)) || (allowed === XML && /^application\/[a-z0-9.+-]+\+xml$/.test(type));
}

async function probe(fetchUrl: HttpFetcher, url: string): Promise<{ res: FetchResponse | null; requests: number }> {
  const head = await fetchUrl(url, { method: 'HEAD', timeoutMs: PROBE_TIMEOUT_MS, maxBytes: AGENT_FILE_MAX_BYTES }).catch(() => null);
  if (head && head.status !== 405 && head.status !== 501) return { res: head, requests: 1 };
  const get = await fetchUrl(url, { method: 'GET', timeoutMs: PROBE_TIMEOUT_MS, maxBytes: AGENT_FILE_MAX_BYTES }).catch(() => null);
  return { res: get, requests: 2 };
}

export interface AgentFileProbe {
  /** The files found, in `STORE_AGENT_FILES` order. */
  files: StoreAgentFile[];
  /** Paths the store gave no answer for (a network error, a 5xx): no evidence either way. */
  unknown: string[];
  /** Requests made to the store (redirect hops aside). */
  requests: number;
}

/** The agent files the store at `storeUrl` serves. */
export async function probeStoreAgentFiles(fetchUrl: HttpFetcher, storeUrl: string): Promise<AgentFileProbe> {
  const probes = await Promise.all(
    STORE_AGENT_FILES.map(async ({ path, contentTypes }) => {
      const url = new URL(path, storeUrl).href;
      const { res, requests } = await probe(fetchUrl, url);
      if (!res || res.status >= 500) return { path, file: null, unknown: true, requests };
      if (res.status !== 200 || !sameSite(res.url, url)) return { path, file: null, unknown: false, requests };
      const contentType = mediaType(res.headers['content-type']);
      const file: StoreAgentFile | null = fits(contentType, contentTypes) ? { path, url, contentType } : null;
      return { path, file, unknown: false, requests };
    }),
  );
  return {
    files: probes.flatMap((p) => (p.file ? [p.file] : [])),
    unknown: probes.filter((p) => p.unknown).map((p) => p.path),
    requests: probes.reduce((sum, p) => sum + p.requests, 0),
  };
}

/**
 * Today's agent files for a store whose files were recorded before: a file the store gave no
 * answer for today keeps its recorded entry, so a passing outage neither drops its link nor
 * counts as a change (as a page whose fetch failed keeps its fingerprint, D105).
 */
export function agentFilesAfter(recorded: readonly StoreAgentFile[] | undefined, probe: AgentFileProbe): StoreAgentFile[] {
  const unknown = new Set(probe.unknown);
  const byPath = new Map([...(recorded ?? []).filter((f) => unknown.has(f.path)), ...probe.files].map((f) => [f.path, f]));
  return STORE_AGENT_FILES.flatMap(({ path }) => (byPath.has(path) ? [byPath.get(path)!] : []));
}

/** Whether two probes found the same files (a changed set is a change of the AI site's inputs). */
export function sameAgentFiles(a: readonly StoreAgentFile[] | undefined, b: readonly StoreAgentFile[] | undefined): boolean {
  const key = (files: readonly StoreAgentFile[] | undefined) => JSON.stringify((files ?? []).map((f) => [f.path, f.url, f.contentType ?? '']));
  return key(a) === key(b);
}
