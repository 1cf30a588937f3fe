import type { CloudFrontRequest, CloudFrontRequestEvent } from 'aws-lambda';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AI_SITE_HOST_HEADER, handler, routeRequest } from '../../edge-function/index';
import { route } from '../../edge-function/route';
import documentedEvent from './fixtures/origin-request.json';

describe('route(uri): AI origin vs store origin (D28)', () => {
  test.each([
    ['/ai', 'ai'],
    ['/ai/', 'ai'],
    ['/ai/x', 'ai'],
    ['/ai/some-article/', 'ai'],
    ['/ai/llms/deep/a.txt', 'ai'],
    ['/AI/x', 'store'],
    ['/aiX', 'store'],
    ['/ai-tools', 'store'],
    ['/llms.txt', 'ai'],
    ['/llms.txt.bak', 'store'],
    ['/LLMS.txt', 'store'],
    ['/llms', 'ai'],
    ['/llms/', 'ai'],
    ['/llms/a.txt', 'ai'],
    ['/llmsX/a.txt', 'store'],
    ['/robots.txt', 'ai'],
    ['/robots.txt/', 'store'],
    ['/sitemap.xml', 'ai'],
    ['/sitemap.xml.gz', 'store'],
    ['/sitemap_products_1.xml', 'store'],
    ['/indexing-key.txt', 'ai'],
    ['/x/robots.txt', 'store'],
    ['/', 'store'],
    ['', 'store'],
    ['/products/x', 'store'],
    ['/collections/ai', 'store'],
    ['/LLMS.TXT', 'store'],
    ['/Robots.txt', 'store'],
    ['/%61i/x', 'store'],
    ['/ai%2Fx', 'store'],
    ['/llms%2Etxt', 'store'],
    ['/ai/%2E%2E/x', 'ai'],
  ])('%s -> %s', (uri, expected) => {
    expect(route(uri)).toBe(expected);
  });
});

function event(uri: string, aiHost: string | undefined, querystring = 'utm=1&x=%2F'): CloudFrontRequestEvent {
  const request: CloudFrontRequest = {
    clientIp: '203.0.113.10',
    method: 'GET',
    uri,
    querystring,
    headers: {
      host: [{ key: 'Host', value: 'shop.example.com' }],
      cookie: [{ key: 'Cookie', value: 'session=abc' }],
    },
    origin: {
      custom: {
        domainName: 'store-origin.example.net',
        port: 443,
        protocol: 'https',
        path: '',
        sslProtocols: ['TLSv1.2'],
        readTimeout: 30,
        keepaliveTimeout: 5,
        customHeaders: aiHost ? { [AI_SITE_HOST_HEADER]: [{ key: 'X-AI-Site-Host', value: aiHost }] } : {},
      },
    },
  };
  return {
    Records: [{
      cf: {
        config: { distributionDomainName: 'd111111abcdef8.cloudfront.net', distributionId: 'EDFDVBD6EXAMPLE', eventType: 'origin-request', requestId: 'r-1' },
        request,
      },
    }],
  };
}

describe('origin-request handler', () => {
  test('AI paths switch to the AI-site host and set Host; query string and cookies untouched', async () => {
    const out = (await handler(event('/llms.txt', 'demo-store.ai-sites.example.com'))) as CloudFrontRequest;
    expect(out.origin).toEqual({
      custom: expect.objectContaining({ domainName: 'demo-store.ai-sites.example.com', port: 443, protocol: 'https', path: '' }),
    });
    expect(out.headers.host).toEqual([{ key: 'Host', value: 'demo-store.ai-sites.example.com' }]);
    expect(out.querystring).toBe('utm=1&x=%2F');
    expect(out.headers.cookie).toEqual([{ key: 'Cookie', value: 'session=abc' }]);
    expect(out.uri).toBe('/llms.txt');
  });

  test('store paths leave the request exactly as it came', () => {
    const original = event('/products/x', 'demo-store.ai-sites.example.com').Records[0].cf.request;
    const copy = JSON.parse(JSON.stringify(original));
    expect(routeRequest(original)).toEqual(copy);
  });

  test('without the x-ai-site-host header even AI paths stay on the store', () => {
    const request = event('/ai/x', undefined).Records[0].cf.request;
    const out = routeRequest(request);
    expect(out.origin?.custom?.domainName).toBe('store-origin.example.net');
    expect(out.headers.host[0].value).toBe('shop.example.com');
  });

  test('the edge function reads no environment and imports nothing at run time', () => {
    for (const file of ['index.ts', 'route.ts']) {
      const source = fs.readFileSync(path.join(__dirname, '../../edge-function', file), 'utf8');
      expect(source).not.toMatch(/process\.env/);
      const imports = [...source.matchAll(/^import\s+(type\s+)?.*from\s+'([^']+)'/gm)].filter((m) => !m[1]).map((m) => m[2]);
      expect(imports.every((spec) => spec.startsWith('./'))).toBe(true);
    }
  });
});

describe('edge bundle', () => {
  test('bundles to a small self-contained file (fits even a viewer trigger\'s 1 MB)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    const result = esbuild.buildSync({
      entryPoints: [path.join(__dirname, '../../edge-function/index.ts')],
      bundle: true, platform: 'node', target: 'node22', format: 'cjs', minify: true, write: false,
    });
    const code = result.outputFiles[0].text;
    expect(code.length).toBeLessThan(1024 * 1024);
    expect(code).not.toMatch(/require\(/);
  });
});

/**
 * The documented Lambda@Edge origin-request event (AWS "Lambda@Edge event structure"),
 * as a distribution of ours delivers it: the Managed-AllViewer policy forwards the
 * viewer's headers (Host = the customer's domain) and the store origin carries the
 * `x-ai-site-host` custom header.
 */
function documented(overrides: { uri: string; querystring?: string; userAgent?: string | null; customHeaders?: Record<string, Array<{ key: string; value: string }>> }): CloudFrontRequestEvent {
  const event = JSON.parse(JSON.stringify(documentedEvent)) as CloudFrontRequestEvent;
  const request = event.Records[0].cf.request;
  request.uri = overrides.uri;
  request.querystring = overrides.querystring ?? '';
  if (overrides.userAgent === null) delete request.headers['user-agent'];
  else if (overrides.userAgent) request.headers['user-agent'] = [{ key: 'User-Agent', value: overrides.userAgent }];
  if (overrides.customHeaders) request.origin!.custom!.customHeaders = overrides.customHeaders;
  return event;
}

const AI_HOST = 'demo-store.aisites.example';
const USER_AGENTS: Array<string | null> = [
  'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'curl/8.7.1',
  null,
];

describe('origin-request handler on the documented event shape', () => {
  test.each([
    ['/ai/', ''],
    ['/ai/x/', ''],
    ['/ai', ''],
    ['/ai/products/blue-mug/', 'utm_source=chatgpt.com'],
    ['/llms.txt', ''],
    ['/llms/a.txt', ''],
    ['/llms', ''],
    ['/robots.txt', 'x=1'],
    ['/sitemap.xml', ''],
    ['/indexing-key.txt', ''],
  ])('%s?%s → AI origin, Host = AI host, everything else as it came', async (uri, querystring) => {
    const event = documented({ uri, querystring });
    const before = JSON.parse(JSON.stringify(event.Records[0].cf.request)) as CloudFrontRequest;
    const out = (await handler(event)) as CloudFrontRequest;
    expect(out.origin).toEqual({
      custom: {
        domainName: AI_HOST, port: 443, protocol: 'https', path: '', sslProtocols: ['TLSv1.2'],
        readTimeout: 30, keepaliveTimeout: 5, customHeaders: {},
      },
    });
    expect(out.headers.host).toEqual([{ key: 'Host', value: AI_HOST }]);
    // Only origin and Host change.
    expect({ ...out, origin: undefined, headers: { ...out.headers, host: undefined } })
      .toEqual({ ...before, origin: undefined, headers: { ...before.headers, host: undefined } });
    expect(out.uri).toBe(uri);
    expect(out.querystring).toBe(querystring);
  });

  test.each([
    ['/', ''],
    ['/products/x', 'variant=1'],
    ['/llms.txt.bak', ''],
    ['/AI/x', ''],
    ['/LLMS.TXT', ''],
    ['/Robots.txt', ''],
    ['/%61i/x', ''],
    ['/ai%2Fx', ''],
    ['/sitemap.xml.gz', ''],
    ['/aiX', ''],
    ['/collections/all', 'page=2'],
  ])('%s?%s → store origin, untouched (original Host, custom header kept)', async (uri, querystring) => {
    const event = documented({ uri, querystring });
    const before = JSON.parse(JSON.stringify(event.Records[0].cf.request));
    const out = (await handler(event)) as CloudFrontRequest;
    expect(out).toEqual(before);
    expect(out.origin?.custom?.domainName).toBe('shop.example');
    expect(out.headers.host).toEqual([{ key: 'Host', value: 'www.shop.example' }]);
  });

  test('/robots.txt?x=1 keeps the query string for the AI origin', async () => {
    const out = (await handler(documented({ uri: '/robots.txt', querystring: 'x=1' }))) as CloudFrontRequest;
    expect(out.origin?.custom?.domainName).toBe(AI_HOST);
    expect(out.uri).toBe('/robots.txt');
    expect(out.querystring).toBe('x=1');
  });

  test('percent-encoded paths are compared as received, never decoded', async () => {
    const encoded = (await handler(documented({ uri: '/%61i/x' }))) as CloudFrontRequest;
    expect(encoded.origin?.custom?.domainName).toBe('shop.example');
    expect(encoded.uri).toBe('/%61i/x');
    // An encoded character below /ai/ stays encoded and still goes to the AI origin.
    const below = (await handler(documented({ uri: '/ai/caf%C3%A9/' }))) as CloudFrontRequest;
    expect(below.origin?.custom?.domainName).toBe(AI_HOST);
    expect(below.uri).toBe('/ai/caf%C3%A9/');
  });

  test.each(['/llms.txt', '/ai/x/', '/products/x', '/AI/x'])('%s: the User-Agent has no influence', async (uri) => {
    const results = await Promise.all(USER_AGENTS.map(async (userAgent) => {
      const out = (await handler(documented({ uri, userAgent }))) as CloudFrontRequest;
      return { origin: out.origin, host: out.headers.host };
    }));
    for (const result of results) expect(result).toEqual(results[0]);
  });

  test.each([
    ['missing', {}],
    ['empty', { 'x-ai-site-host': [{ key: 'x-ai-site-host', value: '  ' }] }],
    ['with a path', { 'x-ai-site-host': [{ key: 'x-ai-site-host', value: 'evil.example/x' }] }],
    ['with a port', { 'x-ai-site-host': [{ key: 'x-ai-site-host', value: 'demo.aisites.example:8443' }] }],
    ['a URL', { 'x-ai-site-host': [{ key: 'x-ai-site-host', value: 'https://demo.aisites.example' }] }],
    ['a single label', { 'x-ai-site-host': [{ key: 'x-ai-site-host', value: 'localhost' }] }],
  ])('custom header %s: AI paths fail safe to the store', async (_why, customHeaders) => {
    for (const uri of ['/llms.txt', '/ai/x/', '/robots.txt']) {
      const event = documented({ uri, customHeaders });
      const before = JSON.parse(JSON.stringify(event.Records[0].cf.request));
      expect(await handler(event)).toEqual(before);
    }
  });

  test('the AI host from the header is used as given, in lowercase', async () => {
    const out = (await handler(documented({
      uri: '/llms.txt', customHeaders: { 'x-ai-site-host': [{ key: 'X-AI-Site-Host', value: ' Demo_Store.AISites.example ' }] },
    }))) as CloudFrontRequest;
    expect(out.origin?.custom?.domainName).toBe('demo_store.aisites.example');
    expect(out.headers.host).toEqual([{ key: 'Host', value: 'demo_store.aisites.example' }]);
  });
});
