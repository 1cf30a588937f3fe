/**
 * Server-side visits on AWS: one CloudFront standard log file (the AI-site distribution's or
 * a customer distribution's) → its AI-crawler page requests → recordSighting with
 * `source: server` and the request's own time, so a file delivered late still converges with
 * the beacon on the same visit. Lines that are no counted request (core/visits/requests.ts)
 * or no AI crawler are dropped without any I/O; hosts are looked up once per host (cached).
 * Hops from a customer distribution to the AI-site host carry the bot's address as the last
 * X-Forwarded-For entry, so they converge with the customer distribution's own line.
 */
import pLimit from 'p-limit';
import { classifyUserAgent, type UserAgentClass } from '../../core/site/ai-bots';
import { createAccessLogParser, type AccessLogEntry } from '../../core/visits/access-log';
import { isCountedRequest } from '../../core/visits/requests';
import type { Container } from '../../container';
import { recordSighting } from './record';

export interface IngestSummary {
  /** Request lines read (directives and blank lines excluded). */
  requests: number;
  /** Lines the parser could not read. */
  unreadable: number;
  /** AI-crawler page requests (the ones looked up and written). */
  crawlerRequests: number;
  recorded: number;
  duplicates: number;
  /** Crawler requests on a host no business serves. */
  ignored: number;
  failed: number;
}

const CONCURRENCY = 8;

/** The User-Agent class of a log line that is an AI crawler's (or a search engine's, D160) page request, else null (no I/O). */
function crawlerPageRequest(entry: AccessLogEntry): UserAgentClass | null {
  if (!isCountedRequest({ method: entry.method, path: entry.path, status: entry.status, contentType: entry.contentType })) return null;
  const verdict = classifyUserAgent(entry.userAgent);
  return verdict.visitClass ? verdict : null;
}

export async function ingestAccessLogLines(container: Container, lines: AsyncIterable<string> | Iterable<string>): Promise<IngestSummary> {
  const parser = createAccessLogParser();
  const limit = pLimit(CONCURRENCY);
  const summary: IngestSummary = { requests: 0, unreadable: 0, crawlerRequests: 0, recorded: 0, duplicates: 0, ignored: 0, failed: 0 };
  const work: Array<Promise<void>> = [];
  for await (const line of lines) {
    const entry = parser.line(line);
    if (!entry) continue;
    summary.requests++;
    const verdict = crawlerPageRequest(entry);
    if (!verdict || !entry.host) continue;
    summary.crawlerRequests++;
    work.push(limit(async () => {
      try {
        const outcome = await recordSighting(container, {
          source: 'server',
          at: entry.time,
          pageUrl: `${entry.protocol === 'http' ? 'http' : 'https'}://${entry.host}${entry.path.startsWith('/') ? entry.path : `/${entry.path}`}`,
          userAgent: entry.userAgent,
          peer: entry.clientIp,
          forwardedFor: entry.forwardedFor,
          fields: entry.referrer ? { referrer: entry.referrer.slice(0, 2048) } : undefined,
          verdict,
        });
        if (outcome.response.status === 'ignored') summary.ignored++;
        else if (outcome.recorded) summary.recorded++;
        else summary.duplicates++;
      } catch {
        summary.failed++;
      }
    }));
    // Keep memory flat on large files: wait when many writes are queued.
    if (work.length >= 1000) await Promise.all(work.splice(0));
  }
  await Promise.all(work);
  summary.unreadable = parser.skipped;
  return summary;
}
