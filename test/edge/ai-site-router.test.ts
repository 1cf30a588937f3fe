/** The AI-site distribution's CloudFront Function, run on realistic viewer-request events. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Handler = (event: unknown) => Promise<any>;

function loadRouter(releases: Record<string, string>, domain = 'aisites.example'): Handler {
  const source = readFileSync(join(__dirname, '../../edge-function/ai-site-router.js'), 'utf8')
    .replace("import cf from 'cloudfront';", '')
    .replace('__AI_SITE_DOMAIN__', domain);
  const cf = { kvs: () => ({ get: async (key: string) => { if (!(key in releases)) throw new Error('key not found'); return releases[key]; } }) };
  return new Function('cf', `${source}\nreturn handler;`)(cf) as Handler;
}

const event = (host: string, uri: string) => ({ request: { method: 'GET', uri, headers: { host: { value: host } }, querystring: {} } });

describe('AI-site router (CloudFront Function)', () => {
  const handler = loadRouter({ 'demo-store': 'R2' });

  test.each([
    ['/', '/sites/demo-store/releases/R2/index.html'],
    ['/llms.txt', '/sites/demo-store/releases/R2/llms.txt'],
    ['/ai/products/blue-mug/', '/sites/demo-store/releases/R2/ai/products/blue-mug/index.html'],
    ['/ai/products/blue-mug', '/sites/demo-store/releases/R2/ai/products/blue-mug/index.html'],
    ['/llms/blue-mug.txt', '/sites/demo-store/releases/R2/llms/blue-mug.txt'],
  ])('%s → %s', async (uri, key) => {
    expect((await handler(event('demo-store.aisites.example', uri))).uri).toBe(key);
  });

  test('the host picks the site case-insensitively; unknown sites and foreign hosts are 404', async () => {
    expect((await handler(event('Demo-Store.AISITES.example', '/'))).uri).toBe('/sites/demo-store/releases/R2/index.html');
    expect((await handler(event('other.aisites.example', '/'))).statusCode).toBe(404);
    expect((await handler(event('aisites.example', '/'))).statusCode).toBe(404);
    expect((await handler(event('demo-store.evil.example', '/'))).statusCode).toBe(404);
    expect((await handler(event('x.y.aisites.example', '/'))).statusCode).toBe(404);
  });

  test('paths trying to leave the release are refused', async () => {
    expect((await handler(event('demo-store.aisites.example', '/../other/current'))).statusCode).toBe(404);
  });
});
