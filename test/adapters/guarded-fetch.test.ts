import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { BlockedUrlError, UpstreamError } from '../../functions/core/errors';
import { createGuardedFetch, resolveRedirectTarget } from '../../functions/adapters/external/guarded-fetch';
import { assertFetchableUrl } from '../../functions/core/net/url-policy';

interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real server on 127.0.0.1:0 that records what reached it. */
async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void) {
  const seen: SeenRequest[] = [];
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  servers.push({ close: () => new Promise<void>((resolve) => { sockets.forEach((s) => s.destroy()); server.close(() => resolve()); }) });
  return { port, base: `http://127.0.0.1:${port}`, seen, connections: () => connections };
}

const servers: Array<{ close: () => Promise<void> }> = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  timers.splice(0).forEach(clearInterval);
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const local = createGuardedFetch({ allowPrivateNetwork: true });
const strict = createGuardedFetch({ allowPrivateNetwork: false });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('default mode (no private network)', () => {
  it('refuses loopback without any connection reaching the server', async () => {
    const srv = await startServer((_req, res) => res.end('secret'));
    const err = await rejection(strict(`${srv.base}/`));
    expect(err).toBeInstanceOf(BlockedUrlError);
    expect(err.message).toMatch(/127\.0\.0\.1.*loopback/);
    expect(srv.connections()).toBe(0);
    expect(srv.seen).toHaveLength(0);
  });

  it('refuses a hostname that resolves to loopback (checked at connect time)', async () => {
    // Port 80 so only the DNS answer can be the reason; were it not blocked this would be ECONNREFUSED.
    const err = await rejection(strict('http://localhost/'));
    expect(err).toBeInstanceOf(BlockedUrlError);
    expect(err.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/);
  });

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://2130706433/', 'decimal'],
    ['http://0x7f.1/', 'hex'],
    ['http://0x7f000001/', 'hex'],
    ['http://0177.0.0.1/', 'octal'],
    ['http://127.1/', 'short form'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://10.0.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://100.64.0.1/', 'CGNAT'],
    ['http://[fd12::1]/', 'unique-local'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[2002:7f00:1::]/', '6to4 of loopback'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'NAT64 of metadata'],
  ])('refuses IP literal %s (%s)', async (url) => {
    await expect(strict(url)).rejects.toBeInstanceOf(BlockedUrlError);
    expect(() => assertFetchableUrl(url, { allowPrivateNetwork: false })).toThrow(BlockedUrlError);
  });

  it('sees IP literals the way the WHATWG parser normalizes them', () => {
    for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://127.1/']) {
      expect(() => assertFetchableUrl(url, { allowPrivateNetwork: false })).toThrow(/127\.0\.0\.1 is not allowed \(loopback\)/);
    }
    expect(() => assertFetchableUrl('http://[::ffff:127.0.0.1]/', { allowPrivateNetwork: false })).toThrow(
      /::ffff:7f00:1 is not allowed \(loopback\)/,
    );
  });

  it('allows public hosts on default ports only', () => {
    for (const url of ['https://shop.example.com/products.json', 'http://shop.example.com:80/', 'https://93.184.216.34/', 'http://shop.example.com:443/']) {
      expect(assertFetchableUrl(url, { allowPrivateNetwork: false })).toBeInstanceOf(URL);
    }
    expect(() => assertFetchableUrl('https://shop.example.com:8443/', { allowPrivateNetwork: false })).toThrow(/port 8443/);
    expect(() => assertFetchableUrl('http://shop.example.com:22/', { allowPrivateNetwork: false })).toThrow(BlockedUrlError);
  });

  describe('redirect hop validator', () => {
    const current = new URL('https://shop.example.com/dir/page');
    const hop = (location: string) => resolveRedirectTarget(location, current, { allowPrivateNetwork: false });

    it('resolves relative locations against the current URL', () => {
      expect(hop('next').href).toBe('https://shop.example.com/dir/next');
      expect(hop('/root?a=1').href).toBe('https://shop.example.com/root?a=1');
      expect(hop('//cdn.example.com/x').href).toBe('https://cdn.example.com/x');
    });

    it.each([
      'http://127.0.0.1/',
      '//169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://0x7f.1/',
      'http://10.0.0.1/',
      'https://shop.example.com:8443/',
      'file:///etc/passwd',
      'gopher://shop.example.com/',
      'http://user:pass@shop.example.com/',
    ])('refuses %s', (location) => {
      expect(() => hop(location)).toThrow(BlockedUrlError);
    });

    it('reports an unparsable location as an upstream fault', () => {
      expect(() => hop('http://[oops/')).toThrow(UpstreamError);
    });
  });
});

describe('URL shape', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'data:text/plain,hi', 'gopher://example.com/', 'javascript:alert(1)', 'ws://example.com/'])(
    'refuses scheme of %s, naming it',
    async (url) => {
      const scheme = url.split(':')[0];
      const err = await rejection(local(url));
      expect(err).toBeInstanceOf(BlockedUrlError);
      expect(err.message).toContain(`"${scheme}"`);
    },
  );

  it('refuses credentials in the URL', async () => {
    const srv = await startServer((_req, res) => res.end('ok'));
    for (const url of [`http://user:pass@127.0.0.1:${srv.port}/`, `http://user@127.0.0.1:${srv.port}/`]) {
      await expect(local(url)).rejects.toThrow(/credentials/);
    }
    expect(srv.connections()).toBe(0);
  });

  it('refuses garbage', async () => {
    await expect(local('not a url')).rejects.toThrow(BlockedUrlError);
  });
});

describe('allowPrivateNetwork', () => {
  it('allows loopback on any port and returns the response', async () => {
    const srv = await startServer((_req, res) => {
      res.setHeader('X-Thing', 'yes');
      res.end('hello');
    });
    const res = await local(`${srv.base}/hello?x=1`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe('hello');
    expect(res.headers['x-thing']).toBe('yes');
    expect(res.url).toBe(`${srv.base}/hello?x=1`);
    expect(srv.seen[0].url).toBe('/hello?x=1');
    expect(srv.seen[0].headers['user-agent']).toBe('AIVisibilityBot/1.0 (+https://example.invalid/bot)');
  });

  it('connects to a normalized decimal IPv4 literal', async () => {
    const srv = await startServer((_req, res) => res.end('ok'));
    expect((await local(`http://2130706433:${srv.port}/`)).text()).toBe('ok');
  });

  it('allows RFC 1918 / unique-local addresses (checked without connecting)', () => {
    for (const url of ['http://10.0.0.1:8080/', 'http://192.168.1.1/', 'http://[fd12::1]/', 'http://100.64.0.1/']) {
      expect(assertFetchableUrl(url, { allowPrivateNetwork: true })).toBeInstanceOf(URL);
    }
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://100.100.100.200/',
    'http://192.0.0.192/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::ffff:169.254.169.254]/',
  ])('still refuses %s', async (url) => {
    await expect(local(url)).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it('uses the configured User-Agent and never forwards cookies', async () => {
    const srv = await startServer((_req, res) => res.end('ok'));
    const fetcher = createGuardedFetch({ allowPrivateNetwork: true, userAgent: 'TestBot/2' });
    await fetcher(`${srv.base}/`, { headers: { Cookie: 'session=abc', 'X-Custom': '1', 'User-Agent': 'spoof' } });
    expect(srv.seen[0].headers['user-agent']).toBe('TestBot/2');
    expect(srv.seen[0].headers.cookie).toBeUndefined();
    expect(srv.seen[0].headers['x-custom']).toBe('1');
  });

  it('returns non-2xx statuses instead of throwing', async () => {
    const srv = await startServer((_req, res) => {
      res.statusCode = 404;
      res.end('nope');
    });
    const res = await local(`${srv.base}/products.json`);
    expect(res.status).toBe(404);
  });

  it('parses JSON and reports invalid JSON without echoing the body', async () => {
    const srv = await startServer((req, res) => res.end(req.url === '/good' ? '{"a":1}' : 'SECRET-BODY'));
    expect((await local(`${srv.base}/good`)).json()).toEqual({ a: 1 });
    const bad = await local(`${srv.base}/bad`);
    let err: unknown;
    try {
      bad.json();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toBe('invalid JSON from 127.0.0.1');
  });

  it('sends a POST body', async () => {
    const srv = await startServer((_req, res) => res.end('ok'));
    await local(`${srv.base}/p`, { method: 'POST', body: '{"x":"é"}', headers: { 'Content-Type': 'application/json' } });
    expect(srv.seen[0]).toMatchObject({ method: 'POST', body: '{"x":"é"}' });
    expect(srv.seen[0].headers['content-type']).toBe('application/json');
  });

  it('reports a refused connection as UpstreamError', async () => {
    const srv = await startServer(() => undefined);
    const port = srv.port;
    await Promise.all(servers.splice(0).map((s) => s.close()));
    const err = await rejection(local(`http://127.0.0.1:${port}/`));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toBe('could not reach 127.0.0.1: connection refused');
  });
});

describe('redirects', () => {
  it('follows relative redirects and reports the final URL', async () => {
    const srv = await startServer((req, res) => {
      if (req.url === '/dir/start') {
        res.writeHead(302, { Location: 'next?q=1' });
        res.end('ignored');
      } else res.end(`at ${req.url}`);
    });
    const res = await local(`${srv.base}/dir/start`);
    expect(res.text()).toBe('at /dir/next?q=1');
    expect(res.url).toBe(`${srv.base}/dir/next?q=1`);
  });

  it('refuses a hop into the metadata address, without connecting anywhere else', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(301, { Location: 'http://169.254.169.254/latest/meta-data/iam/' });
      res.end();
    });
    const err = await rejection(local(`${srv.base}/`));
    expect(err).toBeInstanceOf(BlockedUrlError);
    expect(err.message).toMatch(/169\.254\.169\.254/);
  });

  it.each(['http://[fe80::1]/', 'http://[fd00:ec2::254]/', 'file:///etc/passwd'])('refuses a hop to %s', async (location) => {
    const srv = await startServer((_req, res) => {
      res.writeHead(307, { Location: location });
      res.end();
    });
    await expect(local(`${srv.base}/`)).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it('stops after maxRedirects', async () => {
    const srv = await startServer((req, res) => {
      const n = Number(req.url?.slice(1));
      res.writeHead(302, { Location: `/${n + 1}` });
      res.end();
    });
    const err = await rejection(local(`${srv.base}/0`));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toMatch(/too many redirects \(more than 3\)/);
    expect(srv.seen.map((r) => r.url)).toEqual(['/0', '/1', '/2', '/3']);
  });

  it('follows exactly maxRedirects hops', async () => {
    const srv = await startServer((req, res) => {
      const n = Number(req.url?.slice(1));
      if (n < 2) res.writeHead(302, { Location: `/${n + 1}` });
      res.end(`done ${n}`);
    });
    const fetcher = createGuardedFetch({ allowPrivateNetwork: true, maxRedirects: 2 });
    expect((await fetcher(`${srv.base}/0`)).text()).toBe('done 2');
    await expect(createGuardedFetch({ allowPrivateNetwork: true, maxRedirects: 1 })(`${srv.base}/0`)).rejects.toThrow(
      /too many redirects/,
    );
  });

  it('turns POST into a bodiless GET on 303', async () => {
    const srv = await startServer((req, res) => {
      if (req.url === '/submit') res.writeHead(303, { Location: '/result' });
      res.end('ok');
    });
    await local(`${srv.base}/submit`, { method: 'POST', body: 'payload', headers: { 'Content-Type': 'text/plain' } });
    expect(srv.seen[1]).toMatchObject({ method: 'GET', url: '/result', body: '' });
    expect(srv.seen[1].headers['content-type']).toBeUndefined();
    expect(srv.seen[1].headers['content-length']).toBeUndefined();
  });

  it('replays method and body on 307', async () => {
    const srv = await startServer((req, res) => {
      if (req.url === '/submit') res.writeHead(307, { Location: '/again' });
      res.end('ok');
    });
    await local(`${srv.base}/submit`, { method: 'POST', body: 'payload' });
    expect(srv.seen[1]).toMatchObject({ method: 'POST', url: '/again', body: 'payload' });
  });

  it('drops Authorization when a redirect leaves the origin', async () => {
    const other = await startServer((_req, res) => res.end('other'));
    const srv = await startServer((req, res) => {
      if (req.url === '/same') res.writeHead(302, { Location: '/cross' });
      else if (req.url === '/cross') res.writeHead(302, { Location: `${other.base}/x` });
      res.end();
    });
    await local(`${srv.base}/same`, { headers: { Authorization: 'Bearer t' } });
    expect(srv.seen[1].headers.authorization).toBe('Bearer t');
    expect(other.seen[0].headers.authorization).toBeUndefined();
  });
});

describe('caps', () => {
  it('refuses early when Content-Length exceeds maxBytes', async () => {
    const srv = await startServer((_req, res) => {
      res.setHeader('Content-Length', '5000');
      res.end('x'.repeat(5000));
    });
    const err = await rejection(local(`${srv.base}/`, { maxBytes: 1000 }));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toBe('response from 127.0.0.1 exceeds the 1000-byte limit');
  });

  it('cuts a streamed body without Content-Length as soon as it passes maxBytes', async () => {
    const srv = await startServer((_req, res) => {
      // Chunked and endless: only the cap can end this.
      const timer = setInterval(() => res.write('y'.repeat(512)), 5);
      timers.push(timer);
      res.on('close', () => clearInterval(timer));
    });
    const fetcher = createGuardedFetch({ allowPrivateNetwork: true, maxBytes: 2000 });
    await expect(fetcher(`${srv.base}/`)).rejects.toThrow(/exceeds the 2000-byte limit/);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const srv = await startServer((_req, res) => res.end('z'.repeat(1000)));
    expect((await local(`${srv.base}/`, { maxBytes: 1000 })).body).toHaveLength(1000);
  });

  it('cuts a slow drip of bytes with the overall deadline', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      // A byte every 50 ms keeps any idle timeout happy forever.
      const timer = setInterval(() => res.write('.'), 50);
      timers.push(timer);
      res.on('close', () => clearInterval(timer));
    });
    const err = await rejection(local(`${srv.base}/`, { timeoutMs: 300 }));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toBe('timed out after 300 ms fetching 127.0.0.1');
  });

  it('times out a server that never answers', async () => {
    const srv = await startServer(() => undefined);
    const fetcher = createGuardedFetch({ allowPrivateNetwork: true, timeoutMs: 300 });
    await expect(fetcher(`${srv.base}/`)).rejects.toThrow(/timed out after 300 ms/);
  });
});

describe('content-encoding', () => {
  const text = 'compressible '.repeat(200);

  it.each([
    ['gzip', zlib.gzipSync],
    ['br', zlib.brotliCompressSync],
    ['deflate', zlib.deflateSync],
  ] as const)('decodes %s', async (encoding, compress) => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Encoding': encoding });
      res.end(compress(Buffer.from(text)));
    });
    const res = await local(`${srv.base}/`);
    expect(res.text()).toBe(text);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(srv.seen[0].headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('counts decompressed bytes against maxBytes (gzip bomb)', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024));
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) });
      res.end(bomb);
    });
    expect(bomb.length).toBeLessThan(64 * 1024);
    const fetcher = createGuardedFetch({ allowPrivateNetwork: true, maxBytes: 64 * 1024 });
    await expect(fetcher(`${srv.base}/`)).rejects.toThrow(/exceeds the 65536-byte limit/);
  });

  it('reports a corrupt gzip body as UpstreamError', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end('definitely not gzip');
    });
    const err = await rejection(local(`${srv.base}/`));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toBe('invalid compressed response from 127.0.0.1');
  });
});
