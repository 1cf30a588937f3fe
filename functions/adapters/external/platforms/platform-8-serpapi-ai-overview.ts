/**
 * platform_8, "AI overview of a web search engine": the AI Overview block of Google's results
 * page, read through a SERP API: SerpApi (below), or DataForSEO when the URL names it
 * (platform-8-dataforseo.ts, D225).
 * Sources checked: https://serpapi.com/ai-overview (AI Overview in Google Search API results),
 * https://serpapi.com/google-ai-overview-api (the follow-up engine) and
 * https://serpapi.com/blog/understanding-ai-overview-data-from-serpapi.
 *
 *   PLATFORM_8_API_URL  https://serpapi.com      (`/search.json` is appended)
 *   PLATFORM_8_API_KEY  required; the vendor takes it only as the `api_key` query parameter,
 *                       so it is scrubbed (also URL-encoded) from every reason and log line,
 *                       and logs name the path only, never the URL
 *   PLATFORM_8_MODEL    unused (the engine reports no model)
 *
 * 1. GET {url}/search.json?engine=google&q=<prompt>&api_key=<key>
 *      200 {"ai_overview": {"text_blocks": [{"type": "paragraph", "snippet": "...", "reference_indexes": [0]},
 *                                           {"type": "list", "list": [{"title": "...", "snippet": "..."}]}],
 *                           "references": [{"title": "...", "link": "https://...", "source": "...", "index": 0}]}, ...}
 *      or {"ai_overview": {"page_token": "..."}} when Google loads the overview lazily
 *      or no `ai_overview` at all: the engine showed none for this query.
 * 2. Only with a page_token and no text_blocks (the token expires within 4 minutes, so at once):
 *    GET {url}/search.json?engine=google_ai_overview&page_token=<token>&api_key=<key>
 *
 * No overview is `{ok: false, kind: 'no_answer'}`: a real outcome (the engine was asked and
 * showed none), recorded as such, never an invented answer. Answer text: the text blocks in
 * order (paragraphs, headings, list items as `- `, table rows, expandable sections).
 * Cited: references[].link in order (the overview's own source links, shown with it).
 * Retrieved: none (the organic results beside the overview are not the overview's search
 * step). Cost unit `searches`: SERP requests answered.
 */
import * as z from 'zod/mini';
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { askDataForSeo, dataForSeoSecrets, dataForSeoUrl } from './platform-8-dataforseo';
import { createPlatformClient, parseBody, endpointUrl, PlatformStop, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_8: PlatformSpec = { n: 8, kind: 'AI overview of a web search engine', keyRequired: true, defaultModel: null };

const overviewSchema = z.object({
  text_blocks: z.optional(z.nullable(z.array(z.unknown()))),
  references: z.optional(z.nullable(z.array(z.object({ link: z.optional(z.string()) })))),
  page_token: z.optional(z.nullable(z.string())),
  error: z.optional(z.nullable(z.string())),
});
const serpSchema = z.object({
  ai_overview: z.optional(z.nullable(overviewSchema)),
  error: z.optional(z.nullable(z.string())),
});
type Overview = z.infer<typeof overviewSchema>;

export function createPlatform8Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_8, settings, deps, async (prompt, ctx, s) => {
    // The URL picks the SERP vendor (D225): DataForSEO's host or a /v3 base, else SerpApi.
    const live = dataForSeoUrl(s.apiUrl);
    if (live) return askDataForSeo(live, prompt, ctx, s);
    const endpoint = endpointUrl(s.apiUrl, '/search.json');
    const get = (params: Record<string, string>) => ctx.request(
      { url: `${endpoint}?${new URLSearchParams({ ...params, api_key: s.apiKey! })}`, method: 'GET' },
      parseBody(serpSchema, 'not a SERP API body'),
    );

    const first = await get({ engine: 'google', q: prompt });
    let overview = first.ai_overview;
    let searches = 1;
    if (!overview) {
      throw new PlatformStop('no_answer', `platform_8: the search engine showed no AI overview for this query${first.error ? ` (${first.error})` : ''}`);
    }
    let via = 'SERP ai_overview';
    if (!hasBlocks(overview) && overview.page_token) {
      const second = await get({ engine: 'google_ai_overview', page_token: overview.page_token });
      searches++;
      via = 'SERP ai_overview (follow-up page_token request)';
      overview = second.ai_overview;
      if (!overview || !hasBlocks(overview)) {
        throw new PlatformStop('failed', `platform_8: the AI overview was announced (page_token) but its follow-up request returned no text${overview?.error || second.error ? ` (${overview?.error ?? second.error})` : ''}`);
      }
    }
    const text = overviewText(overview.text_blocks ?? []);
    if (!text) throw new PlatformStop('no_answer', `platform_8: the search engine showed no AI overview text for this query${overview.error ? ` (${overview.error})` : ''}`);
    return {
      text,
      citations: (overview.references ?? []).map((r) => r.link),
      retrieved: [],
      model: null,
      costUnits: searches,
      costUnit: 'searches',
      obtainedVia: via,
    };
  }, dataForSeoSecrets(settings?.apiKey?.trim()));
}

function hasBlocks(overview: Overview): boolean {
  return Array.isArray(overview.text_blocks) && overview.text_blocks.length > 0;
}

type Block = Record<string, unknown>;
const isBlock = (v: unknown): v is Block => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The overview as plain text: one paragraph per block, list items as `- ` lines (nested ones indented). */
export function overviewText(blocks: unknown[]): string {
  return blocks.map((b) => blockText(b)).filter(Boolean).join('\n\n').trim();
}

function blockText(block: unknown, depth = 0): string {
  if (!isBlock(block)) return '';
  const title = str(block.title);
  const snippet = str(block.snippet);
  switch (block.type) {
    case 'list':
      return listText(block.list, depth);
    case 'table': {
      const rows = Array.isArray(block.table) ? block.table : [];
      return rows.filter(Array.isArray).map((row) => (row as unknown[]).map(str).join(' | ')).join('\n');
    }
    case 'expandable':
      return [title, ...(Array.isArray(block.text_blocks) ? block.text_blocks.map((b) => blockText(b, depth)) : [])].filter(Boolean).join('\n\n');
    default:
      return [title && title !== snippet ? title : '', snippet].filter(Boolean).join(': ');
  }
}

function listText(list: unknown, depth: number): string {
  if (!Array.isArray(list)) return '';
  const indent = '  '.repeat(depth);
  return list.filter(isBlock).map((item) => {
    const title = str(item.title);
    const snippet = str(item.snippet);
    const line = `${indent}- ${[title, snippet].filter(Boolean).join(': ')}`;
    const nested = listText(item.list, depth + 1);
    return nested ? `${line}\n${nested}` : line;
  }).join('\n');
}
