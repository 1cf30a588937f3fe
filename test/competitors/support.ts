/**
 * Test doubles for the competitor tests: realistic competitor websites on loopback, a
 * search server speaking the Brave Search API, a tiny OpenAI-compatible model server, and
 * a container with the competitor settings.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildContainer, getContainer, setContainer, type Container } from '../../functions/container';

export interface Served {
  status?: number;
  type?: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface TestSite {
  origin: string;
  port: number;
  requests: string[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 answering from a path → response map (404 otherwise). */
export async function startSite(routes: Record<string, Served | ((req: IncomingMessage) => Served)>): Promise<TestSite> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = routes[path];
    const served = typeof route === 'function' ? route(req) : route;
    if (!served) {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
      return;
    }
    res.writeHead(served.status ?? 200, { 'Content-Type': served.type ?? 'text/html; charset=utf-8', ...served.headers });
    res.end(served.body ?? '');
  });
  return listen(server, requests);
}

async function listen(server: Server, requests: string[]): Promise<TestSite> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A loopback URL nothing listens on (connection refused). */
export async function deadOrigin(): Promise<string> {
  const site = await startSite({});
  await site.close();
  return site.origin;
}

export interface PageSpec {
  name: string;
  tagline: string;
  description: string;
  products: string[];
  claims: string[];
  audience?: string;
  /** Include schema.org JSON-LD (Organization + ItemList of Products). Default true. */
  jsonLd?: boolean;
  origin?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A store home page as real themes render it: head metadata, chrome, hero, product grid, USPs. */
export function competitorPage(spec: PageSpec): string {
  const jsonLd = spec.jsonLd === false ? '' : `
    <script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Organization', name: spec.name, url: spec.origin ?? 'https://example.invalid', logo: 'https://example.invalid/logo.png', sameAs: ['https://www.instagram.com/x'] })}</script>
    <script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'ItemList', itemListElement: spec.products.slice(0, 2).map((name, i) => ({ '@type': 'ListItem', position: i + 1, item: { '@type': 'Product', name, offers: { '@type': 'Offer', price: '18.00', priceCurrency: 'USD' } } })) })}</script>`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${esc(spec.name)} | ${esc(spec.tagline)}</title>
    <meta name="description" content="${esc(spec.description)}">
    <meta property="og:site_name" content="${esc(spec.name)}">
    <meta property="og:title" content="${esc(spec.name)}">
    <link rel="stylesheet" href="/assets/theme.css">
    <style>.product-card{display:grid}</style>${jsonLd}
    <script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} /* <h2>not content</h2> */</script>
  </head>
  <body class="template-index">
    <!-- announcement -->
    <div class="announcement-bar" role="region">Spring sale: 20% off everything</div>
    <header class="site-header">
      <a href="/" class="logo"><img src="/logo.png" alt="${esc(spec.name)}"></a>
      <nav><ul><li><a href="/collections/all">Shop</a></li><li><a href="/pages/about">About</a></li></ul></nav>
    </header>
    <main id="MainContent" role="main">
      <section class="hero">
        <h1>${esc(spec.tagline)}</h1>
        ${spec.audience ? `<p>${esc(spec.audience)}</p>` : ''}
      </section>
      <section class="featured-collection">
        <h2>Best sellers</h2>
        <ul class="grid">
          ${spec.products.map((p) => `<li class="grid__item"><div class="product-card"><a href="/products/${encodeURIComponent(p.toLowerCase().replace(/\s+/g, '-'))}"><img src="/p.jpg" alt=""><h3 class="product-card__title">${esc(p)}</h3></a><span class="price">$18.00</span><button type="button">Add to cart</button></div></li>`).join('\n          ')}
        </ul>
      </section>
      <section class="usp">
        <h2>Why shop with us</h2>
        <ul>${spec.claims.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>
      </section>
    </main>
    <footer class="site-footer">
      <p>&copy; 2024 ${esc(spec.name)}. All rights reserved.</p>
      <form class="newsletter"><label>Subscribe to our newsletter</label><input type="email" name="email"><button>Sign up</button></form>
    </footer>
    <div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience.</div>
  </body>
</html>`;
}

// ---------------------------------------------------------------------------------------
// Brave Search API double

export interface SearchRequest {
  path: string;
  query: string;
  count: number;
  token: string | undefined;
}

export interface SearchServer {
  url: string;
  requests: SearchRequest[];
  close(): Promise<void>;
}

export interface BraveResult {
  title: string;
  url: string;
  description?: string;
}

/**
 * `GET /res/v1/web/search?q=&count=` with `X-Subscription-Token`, answering
 * `{type:'search', web:{type:'search', results:[{title,url,description,...}]}}`.
 */
export async function startSearchServer(options: {
  key?: string;
  results: (query: string) => BraveResult[];
  respond?: (query: string) => { status: number; body?: string; headers?: Record<string, string> } | null;
}): Promise<SearchServer> {
  const requests: SearchRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const token = req.headers['x-subscription-token'] as string | undefined;
    const query = url.searchParams.get('q') ?? '';
    requests.push({ path: url.pathname, query, count: Number(url.searchParams.get('count')), token });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (url.pathname !== '/res/v1/web/search' || req.method !== 'GET') return send(404, { type: 'ErrorResponse', error: { code: 'NOT_FOUND', status: 404 } });
    if (options.key !== undefined && token !== options.key) {
      return send(401, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', status: 401 } });
    }
    const custom = options.respond?.(query);
    if (custom) return send(custom.status, custom.body ?? '', custom.headers);
    const count = Math.min(20, Number(url.searchParams.get('count')) || 20);
    const results = options.results(query).slice(0, count).map((r) => ({
      type: 'search_result', title: r.title, url: r.url, is_source_local: false, description: r.description ?? '', language: 'en', family_friendly: true,
      meta_url: { scheme: r.url.split(':')[0], netloc: new URL(r.url).host, hostname: new URL(r.url).hostname, path: '' },
    }));
    send(200, { type: 'search', query: { original: query, more_results_available: false }, mixed: { type: 'mixed', main: [] }, web: { type: 'search', results, family_friendly: true } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// ---------------------------------------------------------------------------------------
// OpenAI-compatible model double

export async function startFakeModel(answer: (userMessage: string) => string): Promise<{ baseUrl: string; calls: number; close(): Promise<void> }> {
  const state = { calls: 0 };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      state.calls++;
      const body = JSON.parse(raw) as { messages: Array<{ role: string; content: string }> };
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer(user) }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get calls() { return state.calls; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

// ---------------------------------------------------------------------------------------

export interface CompetitorTestSettings {
  search?: { apiUrl?: string; apiKey?: string };
  faviconServiceUrl?: string;
  llm?: { baseUrl?: string; apiKey?: string; model?: string };
}

/** Installs a container built from the stack's config plus competitor settings; returns it. */
export function installContainer(base: Container['config'], settings: CompetitorTestSettings): Container {
  const container = buildContainer({
    ...base,
    search: settings.search ?? {},
    faviconServiceUrl: settings.faviconServiceUrl,
    llm: settings.llm ?? base.llm,
  });
  setContainer(container);
  return container;
}

export const currentConfig = () => getContainer().config;
