import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSearchApi, createBraveSearchApi, SearchError } from '../../functions/adapters/external/search';
import { UpstreamError } from '../../functions/core/errors';
import { startSearchServer, type SearchServer } from './support';

const KEY = 'brave-test-key-0123456789';
let server: SearchServer;

beforeAll(async () => {
  server = await startSearchServer({
    key: KEY,
    results: (q) => [
      { title: `<strong>${q}</strong> &amp; more`, url: 'https://rival.example/', description: 'The <strong>best</strong> rival &#39;shop&#39;.' },
      { title: 'Second', url: 'https://second.example/page' },
      { title: 'Not web', url: 'mailto:someone@example.com' },
      { title: 'Third', url: 'https://third.example/' },
    ],
    respond: (q) => {
      if (q === 'rate limited') return { status: 429, body: JSON.stringify({ type: 'ErrorResponse', error: { code: 'RATE_LIMITED', status: 429 } }), headers: { 'Retry-After': '7' } };
      if (q === 'server error') return { status: 503, body: 'unavailable' };
      if (q === 'request timeout') return { status: 408, body: '' };
      if (q === 'bad request') return { status: 422, body: '{}' };
      if (q === 'garbage') return { status: 200, body: '<html>not json</html>' };
      if (q === 'wrong shape') return { status: 200, body: JSON.stringify({ web: { results: 'nope' } }) };
      return null;
    },
  });
});
afterAll(() => server.close());

describe('search API adapter (Brave Search API shape)', () => {
  test('GET /res/v1/web/search with q, count and the X-Subscription-Token header; plain-text results', async () => {
    const api = createSearchApi({ apiUrl: server.url, apiKey: KEY })!;
    const results = await api.search('coffee roasters', { limit: 10 });
    expect(results).toEqual([
      { title: 'coffee roasters & more', url: 'https://rival.example/', snippet: "The best rival 'shop'." },
      { title: 'Second', url: 'https://second.example/page', snippet: '' },
      { title: 'Third', url: 'https://third.example/', snippet: '' },
    ]);
    expect(server.requests.at(-1)).toEqual({ path: '/res/v1/web/search', query: 'coffee roasters', count: 10, token: KEY });
  });

  test('count is capped at the API maximum of 20 and results at the limit asked', async () => {
    const api = createSearchApi({ apiUrl: `${server.url}/res/v1/web/search/`, apiKey: KEY })!;
    expect(await api.search('x', { limit: 2 })).toHaveLength(2);
    await api.search('x', { limit: 100 });
    expect(server.requests.at(-1)?.count).toBe(20);
    expect(server.requests.at(-1)?.path).toBe('/res/v1/web/search');
  });

  test('no SEARCH_API_URL → no search API at all', () => {
    expect(createSearchApi(undefined)).toBeNull();
    expect(createSearchApi({})).toBeNull();
    expect(createSearchApi({ apiKey: KEY })).toBeNull();
    expect(createSearchApi({ apiUrl: '  ' })).toBeNull();
  });

  test('401 for a wrong key is an UpstreamError naming SEARCH_API_KEY, never echoing the key', async () => {
    const api = createSearchApi({ apiUrl: server.url, apiKey: 'wrong-key-abcdef' })!;
    const err = await api.search('x', { limit: 5 }).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toMatch(/rejected the API key \(HTTP 401\).*SEARCH_API_KEY/);
    expect(err.message).not.toContain('wrong-key-abcdef');
    expect(server.requests.at(-1)?.token).toBe('wrong-key-abcdef');
  });

  test('429 (with Retry-After), 5xx, invalid JSON and an unexpected shape are UpstreamErrors', async () => {
    const api = createSearchApi({ apiUrl: server.url, apiKey: KEY })!;
    await expect(api.search('rate limited', { limit: 5 })).rejects.toThrow(/rate limit or quota reached \(HTTP 429\); retry after 7 s/);
    await expect(api.search('server error', { limit: 5 })).rejects.toThrow(/failed \(HTTP 503\)/);
    await expect(api.search('garbage', { limit: 5 })).rejects.toThrow(/invalid JSON/);
    await expect(api.search('wrong shape', { limit: 5 })).rejects.toThrow(UpstreamError);
  });

  test('errors are typed SearchErrors: kind, the HTTP status and Retry-After, for callers to branch on', async () => {
    const api = createSearchApi({ apiUrl: server.url, apiKey: KEY })!;
    const fail = (q: string, a = api): Promise<SearchError> =>
      a.search(q, { limit: 5 }).then(() => { throw new Error(`expected "${q}" to fail`); }, (e: unknown) => e as SearchError);
    const typed = (e: SearchError) => ({ kind: e.kind, httpStatus: e.httpStatus, retryAfterSeconds: e.retryAfterSeconds, name: e.name, status: e.status });
    const rateLimited = await fail('rate limited');
    expect(rateLimited).toBeInstanceOf(SearchError);
    expect(rateLimited).toBeInstanceOf(UpstreamError);
    expect(typed(rateLimited)).toEqual({ kind: 'rate_limited', httpStatus: 429, retryAfterSeconds: 7, name: 'UpstreamError', status: 502 });
    expect(typed(await fail('server error'))).toMatchObject({ kind: 'failed', httpStatus: 503, retryAfterSeconds: undefined });
    expect(typed(await fail('request timeout'))).toMatchObject({ kind: 'timeout', httpStatus: 408 });
    const refused = await fail('bad request');
    expect(typed(refused)).toMatchObject({ kind: 'refused', httpStatus: 422 });
    expect(refused.message).toMatch(/refused the request \(HTTP 422\)$/);
    expect(typed(await fail('garbage'))).toMatchObject({ kind: 'malformed', httpStatus: undefined });
    expect(typed(await fail('wrong shape'))).toMatchObject({ kind: 'malformed', httpStatus: undefined });
    expect(typed(await fail('x', createSearchApi({ apiUrl: server.url, apiKey: 'wrong-key-abcdef' })!))).toMatchObject({ kind: 'unauthorized', httpStatus: 401 });
    const badUrl = await fail('x', createBraveSearchApi({ apiUrl: 'not a url' }));
    expect(typed(badUrl)).toMatchObject({ kind: 'unconfigured', httpStatus: undefined });
    expect(badUrl.message).toBe('search API: SEARCH_API_URL is not a valid URL');
  });

  test('timeouts and unreachable servers are UpstreamErrors', async () => {
    const hanging = createServer(() => { /* never answers */ });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as AddressInfo).port;
    try {
      const api = createBraveSearchApi({ apiUrl: `http://127.0.0.1:${port}`, apiKey: KEY, timeoutMs: 200 });
      await expect(api.search('x', { limit: 5 })).rejects.toThrow(/timed out after 200 ms/);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
    const api = createBraveSearchApi({ apiUrl: `http://127.0.0.1:${port}`, apiKey: KEY, timeoutMs: 2000 });
    await expect(api.search('x', { limit: 5 })).rejects.toThrow(/unreachable/);
  });
});
