/** The fakes themselves: vendor error envelopes, credential checks, failure injection, request counting. */
import { PLATFORM_KEYS } from '../../../functions/core/constants';
import { startFakePlatform, startPlatformFakes } from '../../../functions/local/fakes/platforms';

async function call(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, body };
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

test('each fake rejects a wrong key with 401 in its vendor\'s error envelope', async () => {
  const fakes = await startPlatformFakes();
  try {
    const u = fakes.urls;
    const wrong = 'Bearer nope';
    expect(await call(`${u.platform_1}/responses`, post({ model: 'm', input: 'q' }, { authorization: wrong }))).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
    expect(await call(`${u.platform_2}/v1/messages`, post({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'q' }] }, { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' })))
      .toMatchObject({ status: 401, body: { type: 'error', error: { type: 'authentication_error' } } });
    expect(await call(`${u.platform_3}/v1beta/models/g:generateContent`, post({ contents: [{ parts: [{ text: 'q' }] }] }, { 'x-goog-api-key': 'nope' })))
      .toMatchObject({ status: 401, body: { error: { status: 'UNAUTHENTICATED' } } });
    expect(await call(`${u.platform_4}/agent`, post({ model: 'perplexity/sonar', input: 'q' }, { authorization: wrong }))).toMatchObject({ status: 401, body: { error: { type: 'forbidden', code: 401 } } });
    expect(await call(`${u.platform_5}/responses`, post({ model: 'parallel', input: 'q' }, { authorization: wrong }))).toMatchObject({ status: 401 });
    expect(await call(`${fakes.servers.platform_6.origin}/res/v1/web/search?q=x`, { headers: { 'x-subscription-token': 'nope' } }))
      .toMatchObject({ status: 401, body: { error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } } });
    expect(await call(`${u.platform_7}/responses`, post({ model: 'grok', input: 'q' }, { authorization: wrong }))).toMatchObject({ status: 401, body: { code: 'error' } });
    expect(await call(`${u.platform_8}/search.json?engine=google&q=x&api_key=nope`)).toMatchObject({ status: 401, body: { error: expect.stringContaining('Invalid API key') } });
    expect(fakes.requestCount()).toBe(8);
  } finally {
    await fakes.stop();
  }
});

test('vendor rules: Perplexity\'s Agent API refuses unknown fields and unprefixed models, and Sonar chat completions are gone', async () => {
  const p4 = await startFakePlatform('platform_4');
  try {
    const auth = { authorization: `Bearer ${p4.key}` };
    expect(await call(`${p4.url}/agent`, post({ model: 'perplexity/sonar', input: 'q', messages: [] }, auth)))
      .toMatchObject({ status: 400, body: { error: { type: 'invalid_request', param: 'messages', message: 'invalid request body: json: unknown field "messages"' } } });
    expect(await call(`${p4.url}/agent`, post({ model: 'sonar', input: 'q' }, auth))).toMatchObject({ status: 400, body: { error: { param: 'model' } } });
    expect(await call(`${p4.origin}/chat/completions`, post({ model: 'sonar', messages: [{ role: 'user', content: 'q' }] }, auth)))
      .toMatchObject({ status: 404, body: { error: { message: expect.stringContaining('retired') } } });
    // Web search only when the tool (or a preset) asks for it: a bare model answers ungrounded.
    const bare = await call(`${p4.url}/agent`, post({ model: 'perplexity/sonar', input: 'q' }, auth));
    expect((bare.body as { output: { type: string }[] }).output.map((o) => o.type)).toEqual(['message']);
    const grounded = await call(`${p4.url}/agent`, post({ model: 'perplexity/sonar', input: 'q', tools: [{ type: 'web_search' }] }, auth));
    expect((grounded.body as { output: { type: string }[] }).output.map((o) => o.type)).toEqual(['search_results', 'message']);
  } finally {
    await p4.close();
  }
});

test('vendor rules: xAI answers the deprecated search_parameters with 410; Anthropic needs anthropic-version; SerpApi needs q', async () => {
  const p7 = await startFakePlatform('platform_7');
  const p2 = await startFakePlatform('platform_2');
  const p8 = await startFakePlatform('platform_8');
  try {
    expect(await call(`${p7.url}/responses`, post({ model: 'grok', input: 'q', search_parameters: { mode: 'on' } }, { authorization: `Bearer ${p7.key}` })))
      .toMatchObject({ status: 410, body: { error: expect.stringContaining('Live search is deprecated') } });
    expect(await call(`${p2.url}/v1/messages`, post({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'q' }] }, { 'x-api-key': p2.key! })))
      .toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error' } } });
    expect(await call(`${p8.url}/search.json?engine=google&api_key=${p8.key}`)).toMatchObject({ status: 400 });
    expect(await call(`${p8.url}/search.json?engine=google_ai_overview&page_token=unknown&api_key=${p8.key}`)).toMatchObject({ status: 400 });
  } finally {
    await Promise.all([p7.close(), p2.close(), p8.close()]);
  }
});

test('failNext (with Retry-After), malformedNext, reset and request counts', async () => {
  const p4 = await startFakePlatform('platform_4');
  try {
    const req = () => call(`${p4.url}/agent`, post({ model: 'perplexity/sonar', input: 'q' }, { authorization: `Bearer ${p4.key}` }));
    p4.failNext(429, 2, { retryAfter: 4 });
    p4.malformedNext();
    const first = await req();
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('4');
    expect((await req()).status).toBe(429);
    const bad = await req();
    expect(bad.status).toBe(200);
    expect(typeof bad.body).toBe('string');
    expect((await req()).body).toMatchObject({ object: 'response', status: 'completed', model: 'perplexity/sonar', output: [{ type: 'message', role: 'assistant' }] });
    expect(p4.requestCount()).toBe(4);
    p4.failNext(500, 3);
    p4.reset();
    expect(p4.requestCount()).toBe(0);
    expect((await req()).status).toBe(200);
  } finally {
    await p4.close();
  }
});

test('startPlatformFakes: one server per platform, env for the service, the search API on the platform_6 fake', async () => {
  const fakes = await startPlatformFakes({ keys: { platform_1: 'custom-key-1234' }, searchKey: null });
  try {
    expect(Object.keys(fakes.servers)).toEqual([...PLATFORM_KEYS]);
    expect(new Set(PLATFORM_KEYS.map((p) => fakes.servers[p].port)).size).toBe(8);
    expect(fakes.env.PLATFORM_1_API_KEY).toBe('custom-key-1234');
    expect(fakes.env.PLATFORM_1_API_URL).toBe(`${fakes.servers.platform_1.origin}/v1`);
    expect(fakes.env.PLATFORM_6_API_KEY).toBeUndefined();
    expect(fakes.env.PLATFORM_8_MODEL).toBeUndefined();
    expect(fakes.searchEnv).toEqual({ SEARCH_API_URL: fakes.servers.platform_6.origin });
    const search = await call(`${fakes.searchEnv.SEARCH_API_URL}/res/v1/web/search?q=coffee&count=1`);
    expect(search).toMatchObject({ status: 200, body: { web: { results: [{ url: 'https://example.com/guide' }] } } });
  } finally {
    await fakes.stop();
  }
});
