/**
 * DataForSEO's Google Organic Live Advanced endpoint on the platform_8 fake (the client:
 * adapters/external/platforms/platform-8-dataforseo.ts, D225), beside SerpApi's routes: one
 * task per POST, Basic credentials `<login>:<password>` (the fake's key), the answer's text as
 * an `ai_overview` item of `ai_overview_element`s with their references, followed by the
 * organic results. A failed task answers HTTP 200 with its own status code, as the vendor does.
 * A deferred answer (Google loads the overview after the page) comes back only when the task
 * asks `load_async_ai_overview`; otherwise as an empty asynchronous item.
 *
 * Simplifications: only the live advanced route; the task's location and language are
 * checked for presence, not against the vendor's lists; the status codes of refused tasks are
 * the fake's (40501 for a field it does not know, 40503 for a missing keyword).
 */
import { randomUUID } from 'node:crypto';
import { hostOf, isObject, type FakeAnswer, type VendorContext, type VendorFormat, type VendorReply, type Json } from './server';

const LIVE_PATH = '/v3/serp/google/organic/live/advanced';
const TASK_FIELDS = new Set(['keyword', 'location_code', 'location_name', 'language_code', 'language_name', 'device', 'os', 'depth', 'max_crawl_pages', 'load_async_ai_overview', 'se_domain', 'tag']);


const envelope = (tasks: Json[]): VendorReply => ({
  status: 200,
  body: { version: '0.1.20260901', status_code: 20000, status_message: 'Ok.', time: '1.2 sec.', cost: 0.002 * tasks.length, tasks_count: tasks.length, tasks_error: tasks.filter((t) => t.status_code !== 20000).length, tasks },
});
const taskOf = (statusCode: number, message: string, data: Json, result: Json[] | null): Json => ({
  id: randomUUID(), status_code: statusCode, status_message: message, time: '1.1 sec.', cost: result ? 0.002 : 0, result_count: result ? result.length : 0,
  path: ['v3', 'serp', 'google', 'organic', 'live', 'advanced'], data, result,
});

function overviewItem(answer: FakeAnswer): Json {
  const references = answer.citations.map((url, i) => ({ type: 'ai_overview_reference', source: hostOf(url), domain: hostOf(url), url, title: `Reference ${i + 1}`, text: null }));
  const chunks = answer.text.split(/\n{2,}/).map((c) => c.trim()).filter(Boolean);
  return {
    type: 'ai_overview', rank_group: 1, rank_absolute: 1, position: 'left', asynchronous_ai_overview: false,
    markdown: answer.text,
    items: chunks.map((text, i) => ({ type: 'ai_overview_element', position: 'left', title: null, text, markdown: text, references: i === 0 ? references.slice(0, 1) : [] })),
    references,
  };
}

function liveTask(task: Json, ctx: VendorContext): Json {
  const unknown = Object.keys(task).find((k) => !TASK_FIELDS.has(k));
  if (unknown) return taskOf(40501, `Invalid Field: '${unknown}'.`, task, null);
  const keyword = typeof task.keyword === 'string' ? task.keyword.trim() : '';
  if (!keyword || keyword.length > 700) return taskOf(40503, "'keyword' field is required and must be at most 700 characters.", task, null);
  if (task.location_code === undefined && task.location_name === undefined) return taskOf(40503, "'location_code' or 'location_name' field is required.", task, null);
  const answer = ctx.answerFor(keyword, ctx.platform);
  const organic = (answer ? [...answer.citations, ...(answer.searchResults ?? [])] : ['https://example.org/']).map((url, i) => ({
    type: 'organic', rank_group: i + 1, rank_absolute: i + 2, position: 'left', domain: hostOf(url), url, title: `Result ${i + 1}`,
  }));
  let items: Json[] = organic;
  if (answer?.text) {
    const asynchronous = answer.deferred && task.load_async_ai_overview !== true;
    items = [asynchronous ? { type: 'ai_overview', rank_group: 1, rank_absolute: 1, position: 'left', asynchronous_ai_overview: true, markdown: null, items: null, references: null } : overviewItem(answer), ...organic];
  }
  const result = {
    keyword, type: 'organic', se_domain: 'google.com', location_code: task.location_code ?? null, language_code: task.language_code ?? null,
    check_url: `https://www.google.com/search?q=${encodeURIComponent(keyword)}`, datetime: new Date().toISOString(),
    item_types: [...new Set(items.map((i) => i.type))], se_results_count: 1000, items_count: items.length, items,
  };
  return taskOf(20000, 'Ok.', task, [result]);
}

export function dataForSeoRoutes(inner: VendorFormat): VendorFormat {
  return {
    basePath: inner.basePath,
    error: inner.error,
    handle(req, ctx) {
      if (req.path !== LIVE_PATH) return inner.handle(req, ctx);
      if (req.method !== 'POST') return { status: 405, body: { status_code: 40500, status_message: 'Method Not Allowed.' } };
      if (req.headers.authorization !== `Basic ${Buffer.from(ctx.key ?? '').toString('base64')}`) {
        return { status: 401, body: { status_code: 40100, status_message: 'You are not authorized to access this resource.' } };
      }
      if (!Array.isArray(req.body) || req.body.length !== 1 || !isObject(req.body[0])) {
        return { status: 200, body: { status_code: 40000, status_message: 'The live endpoint takes one task: an array of one object.' } };
      }
      return envelope([liveTask(req.body[0], ctx)]);
    },
  };
}
