/**
 * platform_8 through DataForSEO's SERP API (D225): the AI Overview item of Google's organic
 * results, live. A SERP vendor that publishes fleet-sized throughput (2,000 API calls a minute,
 * pay as you go, no monthly cap), where SerpApi's published plans stop at 30,000 searches a
 * month. Sources: https://dataforseo.com/google-serp-api-data (the endpoint, the rate limit,
 * AI Overviews with citations), https://docs.dataforseo.com/v3/serp/google/organic/live/advanced/
 * (the task fields; `load_async_ai_overview`), and the ai_overview / ai_overview_element /
 * ai_overview_reference items as the SDKs model them.
 *
 *   PLATFORM_8_API_URL  https://api.dataforseo.com (or any URL whose path ends /v3)
 *   PLATFORM_8_API_KEY  `<login>:<password>` (the API's Basic credentials); the pair, its
 *                       password and its Basic form are scrubbed from every reason and log line
 *
 *   POST {url}/v3/serp/google/organic/live/advanced   authorization: Basic base64(login:password)
 *   [{"keyword": "<prompt>", "location_code": 2840, "language_code": "en", "device": "desktop",
 *     "depth": 10, "max_crawl_pages": 1, "load_async_ai_overview": true}]
 *   200 {"status_code": 20000, "status_message": "Ok.", "tasks": [{"status_code": 20000, "status_message": "Ok.",
 *        "result": [{"items": [{"type": "ai_overview", "asynchronous_ai_overview": false, "markdown": "...",
 *          "items": [{"type": "ai_overview_element", "title": "...", "text": "...", "references": [{"url": "..."}]}],
 *          "references": [{"type": "ai_overview_reference", "source": "...", "domain": "...", "url": "...", "title": "..."}]},
 *          {"type": "organic", ...}]}]}]}
 *
 * A failed task answers HTTP 200 with its own status code and message: a failed check naming
 * them (a 5xxxx server error is retried first, like an HTTP 5xx). No `ai_overview` item is no_answer (Google showed none). `load_async_ai_overview`
 * fetches an overview Google loads after the page (the vendor returns the surcharge when the
 * overview was not asynchronous). Text: the elements' titles and texts in order (the item's
 * markdown when it has no elements). Cited: the item's references, then its elements' (the
 * elements cite sources the item's list may not hold).
 */
import * as z from 'zod/mini';
import { AttemptError } from '../vendor-request';
import { endpointUrl, parseBody, PlatformStop, type AnswerParts, type ConfiguredSettings, type PlatformContext } from './shared';

const VENDOR_HOST = 'api.dataforseo.com';
const LIVE_PATH = '/serp/google/organic/live/advanced';
/** The task succeeded (the vendor's own code, inside an HTTP 200). */
const OK = 20000;
/** The vendor's codes from here on are its own server errors (40xxx: the request's). */
const SERVER_ERROR = 50000;
/** United States, English: SerpApi's defaults for google.com, so both vendors are asked the same. */
const LOCATION_CODE = 2840;
const LANGUAGE_CODE = 'en';

const referenceSchema = z.object({ url: z.optional(z.nullable(z.string())) });
const itemSchema = z.object({
  type: z.optional(z.string()),
  asynchronous_ai_overview: z.optional(z.nullable(z.boolean())),
  markdown: z.optional(z.nullable(z.string())),
  items: z.optional(z.nullable(z.array(z.object({
    title: z.optional(z.nullable(z.string())),
    text: z.optional(z.nullable(z.string())),
    references: z.optional(z.nullable(z.array(referenceSchema))),
  })))),
  references: z.optional(z.nullable(z.array(referenceSchema))),
});
const bodySchema = z.object({
  status_code: z.number(),
  status_message: z.optional(z.string()),
  tasks: z.optional(z.nullable(z.array(z.object({
    status_code: z.number(),
    status_message: z.optional(z.string()),
    result: z.optional(z.nullable(z.array(z.object({ items: z.optional(z.nullable(z.array(z.unknown()))) })))),
  })))),
});
type Overview = z.infer<typeof itemSchema>;

/** The live endpoint for the configured URL, or null when the URL names another SERP API (SerpApi). */
export function dataForSeoUrl(apiUrl: string): string | null {
  const url = new URL(apiUrl);
  if (url.pathname.replace(/\/+$/, '').endsWith('/v3')) return endpointUrl(apiUrl, LIVE_PATH);
  return url.hostname === VENDOR_HOST ? endpointUrl(apiUrl, `/v3${LIVE_PATH}`) : null;
}

/** The secrets the Basic credentials put on the wire, beside the configured pair. */
export function dataForSeoSecrets(apiKey: string | undefined): string[] {
  if (!apiKey) return [];
  return [Buffer.from(apiKey).toString('base64'), apiKey.slice(apiKey.indexOf(':') + 1)];
}

/** One task's body: the prompt as Google's query, in the same place and language as SerpApi's. */
export function dataForSeoTask(prompt: string): Record<string, unknown> {
  // One page: the overview is on it, and a second page would be billed (at 75% of the first).
  return { keyword: prompt, location_code: LOCATION_CODE, language_code: LANGUAGE_CODE, device: 'desktop', depth: 10, max_crawl_pages: 1, load_async_ai_overview: true };
}

export async function askDataForSeo(url: string, prompt: string, ctx: PlatformContext, s: ConfiguredSettings): Promise<AnswerParts> {
  if (!s.apiKey?.includes(':')) throw new PlatformStop('failed', 'platform_8: PLATFORM_8_API_KEY for DataForSEO is `<login>:<password>` (its API credentials)');
  const parse = parseBody(bodySchema, 'not a DataForSEO body');
  const body = await ctx.request(
    { url, method: 'POST', headers: { authorization: `Basic ${Buffer.from(s.apiKey).toString('base64')}` }, body: [dataForSeoTask(prompt)] },
    (json) => {
      const parsed = parse(json);
      // The vendor's own server errors (5xxxx) come inside an HTTP 200: retried like an HTTP 5xx.
      const code = parsed.status_code >= SERVER_ERROR ? parsed.status_code : (parsed.tasks?.[0]?.status_code ?? OK);
      if (code >= SERVER_ERROR) throw new AttemptError({ reason: `DataForSEO server error ${code}`, retryable: true });
      return parsed;
    },
  );
  if (body.status_code !== OK) throw new PlatformStop('failed', `platform_8: DataForSEO refused the request (${body.status_code} ${body.status_message ?? ''})`.trimEnd());
  const task = body.tasks?.[0];
  if (!task) throw new PlatformStop('failed', 'platform_8: DataForSEO answered no task');
  if (task.status_code !== OK) throw new PlatformStop('failed', `platform_8: the DataForSEO task failed (${task.status_code} ${task.status_message ?? ''})`.trimEnd());
  const items = (task.result ?? []).flatMap((r) => r.items ?? []);
  const found = items.map((i) => itemSchema.safeParse(i)).find((p) => p.success && p.data.type === 'ai_overview');
  if (!found?.success) throw new PlatformStop('no_answer', 'platform_8: the search engine showed no AI overview for this query');
  const overview = found.data;
  const text = overviewText(overview);
  if (!text) {
    throw new PlatformStop(overview.asynchronous_ai_overview ? 'failed' : 'no_answer', overview.asynchronous_ai_overview
      ? 'platform_8: the AI overview loads after the page and DataForSEO returned no text for it'
      : 'platform_8: the search engine showed no AI overview text for this query');
  }
  return {
    text,
    citations: citedUrls(overview),
    retrieved: [],
    model: null,
    costUnits: 1,
    costUnit: 'searches',
    obtainedVia: 'SERP ai_overview (DataForSEO live)',
  };
}

function overviewText(overview: Overview): string {
  const elements = (overview.items ?? []).map((e) => {
    const title = e.title?.trim() ?? '';
    const text = e.text?.trim() ?? '';
    return [title && title !== text ? title : '', text].filter(Boolean).join(': ');
  }).filter(Boolean);
  return (elements.length ? elements.join('\n\n') : overview.markdown ?? '').trim();
}

function citedUrls(overview: Overview): string[] {
  const refs = [...(overview.references ?? []), ...(overview.items ?? []).flatMap((e) => e.references ?? [])];
  return refs.map((r) => r.url ?? '').filter(Boolean);
}
