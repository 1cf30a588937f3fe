/**
 * The eight vendor wire formats the fakes speak, one VendorFormat per platform, matching
 * what the clients in functions/adapters/external/platforms/ send and parse (their module
 * headers name the vendor documentation). Each checks the credentials the real vendor
 * requires and answers with that vendor's error envelope when they are wrong.
 *
 * Simplifications: a wrong key is always 401 (the real Gemini API answers 400
 * API_KEY_INVALID); Gemini's grounding chunks carry the cited URLs directly (the real API
 * gives vertexaisearch redirect links); token counts are characters / 4.
 */
import { randomUUID } from 'node:crypto';
import type { PlatformKey } from '../../../core/constants';
import { anthropicBatchRoutes, anthropicCredentialsRefusal } from './batch-anthropic';
import { geminiBatchRoutes } from './batch-gemini';
import { openAiBatchRoutes } from './batch-openai';
import { dataForSeoRoutes } from './serp-dataforseo';
import { parallelTaskRoutes } from './task-parallel';
import { bearerOf, hostOf, tokensOf, isObject, type FakeAnswer, type VendorContext, type VendorFormat, type VendorReply, type Json } from './server';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const ok = (body: unknown): VendorReply => ({ status: 200, body });

function answerOf(ctx: VendorContext, prompt: string): FakeAnswer {
  return ctx.answerFor(prompt, ctx.platform) ?? { text: '', citations: [] };
}

// ---------------------------------------------------------------------------------------
// OpenAI Responses (platform_1), Parallel Responses (platform_5), xAI Responses (platform_7)

const openAiError = (status: number, message: string) => ({
  error: { message, type: status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: status === 401 ? 'invalid_api_key' : null },
});

/** A completed Responses body: the output items, and token usage counted from the prompt and the answer text. */
function completedResponse(model: string | undefined, prompt: string, text: string, output: unknown[], extra: Json = {}): Json {
  const input = tokensOf(prompt);
  const generated = tokensOf(text);
  return {
    id: `resp_${randomUUID()}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model,
    output,
    usage: { input_tokens: input, output_tokens: generated, total_tokens: input + generated },
    ...extra,
  };
}

function responsesFormat(options: { search: 'tool' | 'builtin'; topLevelCitations: boolean; inlineLinks: boolean; error?: (status: number, message: string) => unknown }): VendorFormat {
  const error = options.error ?? openAiError;
  return {
    basePath: '/v1',
    error,
    handle(req, ctx) {
      if (req.method !== 'POST' || req.path !== '/v1/responses') return { status: 404, body: error(404, `no route ${req.method} ${req.path}`) };
      if (bearerOf(req.headers) !== ctx.key) return { status: 401, body: error(401, 'Incorrect API key provided.') };
      const body = req.body;
      if (!isObject(body) || !str(body.model) || !str(body.input)) return { status: 400, body: error(400, 'model and input are required') };
      if (ctx.platform === 'platform_7' && body.search_parameters !== undefined) {
        return { status: 410, body: error(410, 'Live search is deprecated. Please switch to the Agent Tools API: https://docs.x.ai/docs/guides/tools/overview') };
      }
      const prompt = str(body.input)!;
      const searched = options.search === 'builtin' || (Array.isArray(body.tools) && body.tools.some((t) => isObject(t) && t.type === 'web_search'));
      const answer = answerOf(ctx, prompt);
      const cited = searched ? answer.citations : [];
      const text = answer.text && options.inlineLinks && cited.length ? `${answer.text} ${cited.map((url, i) => `[[${i + 1}]](${url})`).join('')}` : answer.text;
      const output: unknown[] = [];
      if (searched && options.search === 'tool') output.push({ type: 'web_search_call', id: `ws_${randomUUID()}`, status: 'completed', action: { type: 'search', query: prompt } });
      output.push({
        type: 'message',
        id: `msg_${randomUUID()}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: cited.map((url, i) => ({ type: 'url_citation', start_index: 0, end_index: text.length, url, title: `Source ${i + 1} (${hostOf(url)})` })) }],
      });
      return ok(completedResponse(str(body.model), prompt, text, output,
        options.topLevelCitations ? { citations: searched ? [...answer.citations, ...(answer.searchResults ?? [])] : [] } : {}));
    },
  };
}

// ---------------------------------------------------------------------------------------
// Anthropic Messages + web_search tool (platform_2)

const anthropicError = (status: number, message: string) => ({
  type: 'error',
  error: {
    type: status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : status === 404 ? 'not_found_error' : 'invalid_request_error',
    message,
  },
});

const anthropicFormat: VendorFormat = {
  basePath: '',
  error: anthropicError,
  handle(req, ctx) {
    if (req.method !== 'POST' || req.path !== '/v1/messages') return { status: 404, body: anthropicError(404, `no route ${req.method} ${req.path}`) };
    const refused = anthropicCredentialsRefusal(req.headers, ctx.key);
    if (refused) return { status: refused.status, body: anthropicError(refused.status, refused.message) };
    if (!req.headers['anthropic-version']) return { status: 400, body: anthropicError(400, 'anthropic-version: header is required') };
    const body = req.body;
    const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
    const last = messages[messages.length - 1];
    const prompt = isObject(last) ? str(last.content) : undefined;
    if (!isObject(body) || !str(body.model) || typeof body.max_tokens !== 'number' || !prompt) {
      return { status: 400, body: anthropicError(400, 'model, max_tokens and messages are required') };
    }
    const searched = Array.isArray(body.tools) && body.tools.some((t) => isObject(t) && t.type === 'web_search_20250305' && t.name === 'web_search');
    const answer = answerOf(ctx, prompt);
    const content: unknown[] = [];
    if (searched) {
      const toolId = `srvtoolu_${randomUUID()}`;
      content.push({ type: 'server_tool_use', id: toolId, name: 'web_search', input: { query: prompt } });
      content.push({
        type: 'web_search_tool_result',
        tool_use_id: toolId,
        content: [...(answer.searchResults ?? []), ...answer.citations].map((url, i) => ({ type: 'web_search_result', url, title: `Result ${i + 1} (${hostOf(url)})`, encrypted_content: 'ZmFrZQ==', page_age: null })),
      });
    }
    // The API splits the answer into text blocks at citation boundaries: the first sentence cites the first source, the rest the others.
    const cut = answer.text.indexOf('. ');
    const pieces = cut > 0 ? [answer.text.slice(0, cut + 2), answer.text.slice(cut + 2)] : [answer.text];
    const cited = searched ? answer.citations : [];
    pieces.forEach((text, i) => {
      const urls = pieces.length === 1 ? cited : i === 0 ? cited.slice(0, 1) : cited.slice(1);
      const citations = urls.map((url) => ({ type: 'web_search_result_location', url, title: hostOf(url), encrypted_index: 'ZmFrZQ==', cited_text: text.slice(0, 150) }));
      content.push(citations.length ? { type: 'text', text, citations } : { type: 'text', text });
    });
    return ok({
      id: `msg_${randomUUID()}`,
      type: 'message',
      role: 'assistant',
      model: str(body.model),
      content,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: tokensOf(prompt), output_tokens: tokensOf(answer.text), server_tool_use: { web_search_requests: searched ? 1 : 0 } },
    });
  },
};

// ---------------------------------------------------------------------------------------
// Gemini generateContent + google_search (platform_3)

const googleError = (status: number, message: string) => ({
  error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : status === 429 ? 'RESOURCE_EXHAUSTED' : status === 503 ? 'UNAVAILABLE' : status >= 500 ? 'INTERNAL' : status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT' },
});

const geminiFormat: VendorFormat = {
  basePath: '',
  error: googleError,
  handle(req, ctx) {
    // the Gemini API's path, or a Vertex AI project's publisher model (D239): same request and answer
    const route = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(req.path)
      ?? /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\/([^/:]+):generateContent$/.exec(req.path);
    if (req.method !== 'POST' || !route) return { status: 404, body: googleError(404, `no route ${req.method} ${req.path}`) };
    const key = (req.headers['x-goog-api-key'] as string | undefined) ?? req.query.key;
    if (key !== ctx.key) return { status: 401, body: googleError(401, 'API key not valid. Please pass a valid API key.') };
    const body = req.body;
    const contents = isObject(body) && Array.isArray(body.contents) ? body.contents : [];
    const lastContent = contents[contents.length - 1];
    const parts = isObject(lastContent) && Array.isArray(lastContent.parts) ? lastContent.parts : [];
    const prompt = parts.map((p) => (isObject(p) ? str(p.text) ?? '' : '')).join('');
    if (!prompt) return { status: 400, body: googleError(400, 'contents[].parts[].text is required') };
    const searched = isObject(body) && Array.isArray(body.tools) && body.tools.some((t) => isObject(t) && isObject(t.google_search));
    const answer = answerOf(ctx, prompt);
    const model = decodeURIComponent(route[1]);
    const cited = searched ? answer.citations : [];
    return ok({
      candidates: [{
        content: { role: 'model', parts: answer.text ? [{ text: answer.text }] : [] },
        finishReason: 'STOP',
        index: 0,
        ...(searched ? {
          groundingMetadata: {
            webSearchQueries: [prompt],
            searchEntryPoint: { renderedContent: '<div class="fake-search-entry-point"></div>' },
            // Chunks the search found that no support ties to the text follow the cited ones.
            groundingChunks: [...cited, ...(answer.searchResults ?? [])].map((uri) => ({ web: { uri, title: hostOf(uri) } })),
            groundingSupports: cited.length ? [{ segment: { startIndex: 0, endIndex: answer.text.length, text: answer.text }, groundingChunkIndices: cited.map((_, i) => i) }] : [],
          },
        } : {}),
      }],
      usageMetadata: { promptTokenCount: tokensOf(prompt), candidatesTokenCount: tokensOf(answer.text), totalTokenCount: tokensOf(prompt) + tokensOf(answer.text) },
      modelVersion: model,
      responseId: randomUUID(),
    });
  },
};

// ---------------------------------------------------------------------------------------
// Perplexity's Agent API (platform_4) and the open model's OpenAI-compatible chat completions (platform_6)

function promptOfChat(body: unknown): string | undefined {
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
  const users = messages.filter((m) => isObject(m) && m.role === 'user');
  const last = users[users.length - 1];
  return isObject(last) ? str(last.content) : undefined;
}

function chatCompletion(model: string, prompt: string, content: string): Json {
  const p = tokensOf(prompt);
  const c = tokensOf(content);
  return {
    id: randomUUID(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
  };
}

const perplexityError = (status: number, message: string, param?: string) => ({
  error: { message, type: status === 401 || status === 403 ? 'forbidden' : status === 429 ? 'request_rate_limit_exceeded' : status >= 500 ? 'internal_error' : status === 404 ? 'not_found' : 'invalid_request', code: status, ...(param ? { param } : {}) },
});

/** The request fields the Agent API knows; it refuses any other with a 400 naming it (strict mode). */
const AGENT_API_FIELDS = new Set(['model', 'models', 'preset', 'input', 'instructions', 'tools', 'tool_choice', 'max_output_tokens', 'max_steps', 'max_tool_calls', 'reasoning', 'response_format', 'stream', 'stream_options', 'background', 'store', 'language_preference']);

/** Perplexity's Agent API (platform_4): Responses-shaped, sources in a `search_results` output item, [n] markers in the text. */
const perplexityFormat: VendorFormat = {
  basePath: '/v1',
  error: perplexityError,
  handle(req, ctx) {
    if (req.method === 'POST' && req.path === '/chat/completions') return { status: 404, body: perplexityError(404, 'Sonar chat completions were retired on 27 September 2026: use the Agent API (POST /v1/agent)') };
    if (req.method !== 'POST' || (req.path !== '/v1/agent' && req.path !== '/v1/responses')) return { status: 404, body: perplexityError(404, `no route ${req.method} ${req.path}`) };
    if (bearerOf(req.headers) !== ctx.key) return { status: 401, body: perplexityError(401, 'Invalid API key') };
    const body = req.body;
    if (!isObject(body)) return { status: 400, body: perplexityError(400, 'invalid request body') };
    const unknown = Object.keys(body).find((k) => !AGENT_API_FIELDS.has(k));
    if (unknown) return { status: 400, body: perplexityError(400, `invalid request body: json: unknown field "${unknown}"`, unknown) };
    const prompt = str(body.input);
    const model = str(body.model);
    if (!prompt || (!model && !str(body.preset))) return { status: 400, body: perplexityError(400, 'input and a model or preset are required') };
    if (model && !model.includes('/')) return { status: 400, body: perplexityError(400, `invalid model "${model}": Agent API models are provider-prefixed, e.g. perplexity/sonar`, 'model') };
    const searched = str(body.preset) !== undefined || (Array.isArray(body.tools) && body.tools.some((t) => isObject(t) && t.type === 'web_search'));
    const answer = answerOf(ctx, prompt);
    const results = searched ? [...answer.citations, ...(answer.searchResults ?? [])] : [];
    const markers = searched ? answer.citations.map((_, i) => `[${i + 1}]`).join('') : '';
    const text = answer.text && markers ? `${answer.text} ${markers}` : answer.text;
    const output: unknown[] = [];
    if (searched) {
      output.push({ type: 'search_results', queries: [prompt], results: results.map((url, i) => ({ id: i + 1, url, title: `Result ${i + 1} (${hostOf(url)})`, snippet: '', date: null, last_updated: null, source: 'web' })) });
    }
    output.push({ type: 'message', id: `msg_${randomUUID()}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
    return ok(completedResponse(model ?? 'perplexity/sonar', prompt, text, output));
  },
};

/** The Brave Search API shape (search/brave.ts), served next to the open model's chat endpoint. */
const BRAVE_PATH = '/res/v1/web/search';

const openModelFormat: VendorFormat = {
  basePath: '/v1',
  error: openAiError,
  handle(req, ctx) {
    if (req.method === 'GET' && req.path === BRAVE_PATH) {
      if (ctx.searchKey !== undefined && req.headers['x-subscription-token'] !== ctx.searchKey) {
        return { status: 401, body: { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', status: 401 } } };
      }
      const q = req.query.q ?? '';
      const count = Math.min(20, Number(req.query.count) || 20);
      const answer = answerOf(ctx, q);
      const results = [...answer.citations, ...(answer.searchResults ?? [])].slice(0, count).map((url, i) => ({
        type: 'search_result', title: `Result ${i + 1} (${hostOf(url)})`, url, description: `What <strong>${hostOf(url)}</strong> says about ${q.slice(0, 60)}`,
      }));
      return ok({ type: 'search', query: { original: q }, web: { type: 'search', results } });
    }
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions') return { status: 404, body: openAiError(404, `no route ${req.method} ${req.path}`) };
    if (ctx.key !== undefined && bearerOf(req.headers) !== ctx.key) return { status: 401, body: openAiError(401, 'Incorrect API key provided.') };
    const prompt = promptOfChat(req.body);
    if (!isObject(req.body) || !str(req.body.model) || !prompt) return { status: 400, body: openAiError(400, 'model and messages are required') };
    // The model cites the given results by number: `[n]` for each answer citation it was given.
    const messages = Array.isArray(req.body.messages) ? req.body.messages : [];
    const system = messages.filter((m) => isObject(m) && m.role === 'system').map((m) => str((m as Json).content) ?? '').join('\n');
    const given = [...system.matchAll(/^URL: (\S+)$/gm)].map((m) => m[1]);
    const answer = answerOf(ctx, prompt);
    const refs = answer.citations.map((url) => given.indexOf(url)).filter((i) => i >= 0).map((i) => `[${i + 1}]`).join(' ');
    const content = answer.text && refs ? `${answer.text} ${refs}` : answer.text;
    return ok(chatCompletion(str(req.body.model)!, prompt, content));
  },
};

// ---------------------------------------------------------------------------------------
// SerpApi Google search with ai_overview (platform_8)

const serpError = (_status: number, message: string) => ({ error: message });

function textBlocks(text: string): unknown[] {
  return text.split(/\n{2,}/).map((chunk) => chunk.trim()).filter(Boolean).map((chunk) => {
    const lines = chunk.split('\n');
    if (lines.every((l) => /^\s*[-*] /.test(l))) {
      return { type: 'list', list: lines.map((l) => ({ snippet: l.replace(/^\s*[-*] /, ''), reference_indexes: [0] })) };
    }
    return { type: 'paragraph', snippet: chunk, reference_indexes: [0] };
  });
}

function overview(answer: FakeAnswer): Json {
  return {
    text_blocks: textBlocks(answer.text),
    references: answer.citations.map((link, index) => ({ title: `Reference ${index + 1}`, link, snippet: `From ${hostOf(link)}`, source: hostOf(link), index })),
  };
}

const serpApiFormat: VendorFormat = {
  basePath: '',
  error: serpError,
  handle(req, ctx) {
    if (req.method !== 'GET' || (req.path !== '/search.json' && req.path !== '/search')) return { status: 404, body: serpError(404, 'Not found') };
    if (req.query.api_key !== ctx.key) return { status: 401, body: serpError(401, 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key') };
    const metadata = { id: randomUUID().replace(/-/g, '').slice(0, 24), status: 'Success', created_at: new Date().toISOString(), total_time_taken: 0.42 };
    if (req.query.engine === 'google_ai_overview') {
      const token = req.query.page_token;
      const answer = token ? (ctx.state.get(`token:${token}`) as FakeAnswer | undefined) : undefined;
      if (!answer) return { status: 400, body: serpError(400, 'Invalid or expired page_token.') };
      return ok({ search_metadata: metadata, search_parameters: { engine: 'google_ai_overview' }, ai_overview: overview(answer) });
    }
    if (req.query.engine !== 'google') return { status: 400, body: serpError(400, 'Unsupported `engine` parameter.') };
    const q = req.query.q;
    if (!q) return { status: 400, body: serpError(400, 'Missing query `q` parameter.') };
    const answer = ctx.answerFor(q, ctx.platform);
    const organic = (answer ? [...answer.citations, ...(answer.searchResults ?? [])] : ['https://example.org/']).map((link, i) => ({ position: i + 1, title: `Result ${i + 1}`, link, source: hostOf(link) }));
    const base = { search_metadata: metadata, search_parameters: { engine: 'google', q, google_domain: 'google.com', device: 'desktop' }, organic_results: organic };
    if (!answer || !answer.text) return ok(base);
    if (answer.deferred) {
      const token = Buffer.from(`${randomUUID()}:${q}`).toString('base64url');
      ctx.state.set(`token:${token}`, answer);
      return ok({ ...base, ai_overview: { page_token: token, serpapi_link: `https://serpapi.com/search.json?engine=google_ai_overview&page_token=${token}` } });
    }
    return ok({ ...base, ai_overview: overview(answer) });
  },
};

/** The wire format of each platform's fake, in PLATFORM_KEYS order. */
export const VENDOR_FORMATS: Record<PlatformKey, VendorFormat> = {
  platform_1: openAiBatchRoutes(responsesFormat({ search: 'tool', topLevelCitations: false, inlineLinks: false })),
  platform_2: anthropicBatchRoutes(anthropicFormat),
  platform_3: geminiBatchRoutes(geminiFormat),
  platform_4: perplexityFormat,
  platform_5: parallelTaskRoutes(responsesFormat({ search: 'builtin', topLevelCitations: false, inlineLinks: false })),
  platform_6: openModelFormat,
  platform_7: responsesFormat({ search: 'tool', topLevelCitations: true, inlineLinks: true, error: (_status, message) => ({ code: 'error', error: message }) }),
  platform_8: dataForSeoRoutes(serpApiFormat),
};
