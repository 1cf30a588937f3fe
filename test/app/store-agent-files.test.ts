/**
 * The store's own agent files (D114, D115): probed through the guarded client on a real local
 * server. 200 with a fitting content type counts; 404, HTML soft-404s and redirects off-site
 * do not; a store that refuses HEAD is asked with a capped GET; an unanswered probe keeps what
 * was recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGuardedFetch } from '../../functions/adapters/external/guarded-fetch';
import { agentFilesAfter, probeStoreAgentFiles, sameAgentFiles, STORE_AGENT_FILES } from '../../functions/app/site/store-agent-files';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const servers: http.Server[] = [];

async function serve(handler: Handler): Promise<{ base: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const fetchUrl = createGuardedFetch({ allowPrivateNetwork: true });

test('records the files answering 200 with a fitting type; 404, HTML and off-site redirects are left out', async () => {
  const elsewhere = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('# someone else\n'));
  const store = await serve((req, res) => {
    const send = (type: string, body: string) => res.writeHead(200, { 'content-type': type }).end(req.method === 'HEAD' ? undefined : body);
    switch (req.url) {
      case '/agents.md': return send('text/markdown; charset=utf-8', '# Agent Instructions\n');
      case '/.well-known/ucp': return send('application/json', '{"ucp":{}}');
      // A theme that answers every path with an HTML page is no agent file.
      case '/llms-full.txt': return send('text/html; charset=utf-8', '<html>not found</html>');
      // Off-site: the final answer is another site's.
      case '/llms.txt': return res.writeHead(302, { location: `${elsewhere.base}/llms.txt` }).end();
      default: return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
    }
  });

  const probe = await probeStoreAgentFiles(fetchUrl, `${store.base}/`);
  expect(probe.files).toEqual([
    { path: '/agents.md', url: `${store.base}/agents.md`, contentType: 'text/markdown' },
    { path: '/.well-known/ucp', url: `${store.base}/.well-known/ucp`, contentType: 'application/json' },
  ]);
  expect(probe.unknown).toEqual([]);
  // One HEAD per known path, no body read.
  expect(probe.requests).toBe(STORE_AGENT_FILES.length);
  expect(store.seen.filter((r) => r.startsWith('HEAD ')).sort()).toEqual(STORE_AGENT_FILES.map((f) => `HEAD ${f.path}`).sort());
});

test('a same-site redirect is followed; the file is recorded at the path probed', async () => {
  const store = await serve((req, res) => {
    if (req.url === '/llms.txt') return res.writeHead(301, { location: '/agents.md' }).end();
    if (req.url === '/agents.md') return res.writeHead(200, { 'content-type': 'text/markdown' }).end();
    res.writeHead(404).end();
  });
  const probe = await probeStoreAgentFiles(fetchUrl, store.base);
  expect(probe.files.map((f) => [f.path, f.url])).toEqual([
    ['/llms.txt', `${store.base}/llms.txt`],
    ['/agents.md', `${store.base}/agents.md`],
  ]);
});

test('a store refusing HEAD is asked with a capped GET; a file past the cap is left out', async () => {
  const store = await serve((req, res) => {
    if (req.method === 'HEAD') return res.writeHead(405, { allow: 'GET' }).end();
    if (req.url === '/agents.md') return res.writeHead(200, { 'content-type': 'text/plain' }).end('# Agents\n');
    if (req.url === '/llms-full.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(300 * 1024));
    res.writeHead(404).end();
  });
  const probe = await probeStoreAgentFiles(fetchUrl, store.base);
  expect(probe.files.map((f) => f.path)).toEqual(['/agents.md']);
  expect(probe.requests).toBe(2 * STORE_AGENT_FILES.length);
});

test('an unanswered probe (5xx, network error) is no evidence: the recorded file is kept', async () => {
  const store = await serve((req, res) => {
    if (req.url === '/agents.md') return res.writeHead(503).end();
    if (req.url === '/llms.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end();
    res.writeHead(404).end();
  });
  const recorded = [
    { path: '/llms.txt', url: `${store.base}/llms.txt`, contentType: 'text/plain' },
    { path: '/agents.md', url: `${store.base}/agents.md`, contentType: 'text/markdown' },
    { path: '/llms-full.txt', url: `${store.base}/llms-full.txt`, contentType: 'text/plain' },
  ];
  const probe = await probeStoreAgentFiles(fetchUrl, store.base);
  expect(probe.unknown).toEqual(['/agents.md']);
  // /agents.md kept (no answer), /llms-full.txt dropped (a clean 404).
  const after = agentFilesAfter(recorded, probe);
  expect(after.map((f) => f.path)).toEqual(['/llms.txt', '/agents.md']);
  expect(sameAgentFiles(recorded, after)).toBe(false);
  expect(sameAgentFiles(recorded.slice(0, 2), after)).toBe(true);
  expect(sameAgentFiles(undefined, [])).toBe(true);

  const down = await probeStoreAgentFiles(fetchUrl, 'http://127.0.0.1:1/');
  expect(down.files).toEqual([]);
  expect(down.unknown).toEqual(STORE_AGENT_FILES.map((f) => f.path));
});
