/**
 * The local AI-site host hands every answered request that can become a visit to the visit
 * recorder once the response has finished, and a recorder that fails never touches the response.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServedRequestSeen } from '../../functions/app/visits/record';
import { startSitesHost } from '../../functions/local/runtime/sites-host';

function get(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'visit-rec-'));
  mkdirSync(join(dir, 'shop', 'releases', 'r1', 'ai'), { recursive: true });
  writeFileSync(join(dir, 'shop', 'current'), 'r1');
  writeFileSync(join(dir, 'shop', 'releases', 'r1', 'ai', 'index.html'), '<h1>AI</h1>');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the recorder sees what an access log line holds, after the response', async () => {
  const seen: ServedRequestSeen[] = [];
  const host = await startSitesHost({ sitesDir: dir, aiSiteDomain: 'localhost', recordVisit: (s) => seen.push(s) });
  try {
    const res = await get(host.port, '/ai/?x=1', { Host: `shop.localhost:${host.port}`, 'User-Agent': 'GPTBot/1.1', 'X-Forwarded-For': '203.0.113.9', 'Signature-Agent': '"https://chatgpt.com"' });
    expect(res.status).toBe(200);
    await get(host.port, '/missing', { Host: `shop.localhost:${host.port}`, 'User-Agent': 'GPTBot/1.1' });
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([
      {
        host: `shop.localhost:${host.port}`, path: '/ai/?x=1', method: 'GET', status: 200, contentType: 'text/html; charset=utf-8',
        userAgent: 'GPTBot/1.1', signatureAgent: '"https://chatgpt.com"', peer: '127.0.0.1', forwardedFor: '203.0.113.9', referrer: null,
        at: expect.any(Date), scheme: 'http',
      },
      expect.objectContaining({ path: '/missing', status: 404 }),
    ]);
  } finally {
    await host.close();
  }
});

test('only what can become a visit is observed: a browser\'s GET and a crawler\'s POST are not', async () => {
  const seen: ServedRequestSeen[] = [];
  const host = await startSitesHost({ sitesDir: dir, aiSiteDomain: 'localhost', recordVisit: (s) => seen.push(s) });
  try {
    const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    expect((await get(host.port, '/ai/', { Host: `shop.localhost:${host.port}`, 'User-Agent': browser })).status).toBe(200);
    await get(host.port, '/ai/', { Host: `shop.localhost:${host.port}`, 'User-Agent': 'GPTBot/1.1' }, 'POST');
    await get(host.port, '/ai/', { Host: `shop.localhost:${host.port}`, 'User-Agent': 'ClaudeBot/1.0' });
    // The recorder runs when the server side of the response has finished: wait for the crawler's.
    for (let tick = 0; tick < 200 && seen.length === 0; tick++) await new Promise((r) => setTimeout(r, 5));
    expect(seen.map((s) => [s.method, s.userAgent])).toEqual([['GET', 'ClaudeBot/1.0']]);
  } finally {
    await host.close();
  }
});

test('a recorder that throws, or no container installed, never breaks the response', async () => {
  const failing = await startSitesHost({ sitesDir: dir, aiSiteDomain: 'localhost', recordVisit: () => { throw new Error('store down'); } });
  const unconfigured = await startSitesHost({ sitesDir: dir, aiSiteDomain: 'localhost' });
  try {
    for (const server of [failing, unconfigured]) {
      const res = await get(server.port, '/ai/', { Host: `shop.localhost:${server.port}`, 'User-Agent': 'GPTBot/1.1' });
      expect([res.status, res.body]).toEqual([200, '<h1>AI</h1>']);
    }
  } finally {
    await failing.close();
    await unconfigured.close();
  }
});
