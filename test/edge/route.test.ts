import type { CloudFrontRequest, CloudFrontRequestEvent } from 'aws-lambda';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AI_SITE_HOST_HEADER, handler, routeRequest } from '../../edge-function/index';
import { route } from '../../edge-function/route';

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
