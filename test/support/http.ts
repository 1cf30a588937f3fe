import { request } from 'node:http';

export interface SimpleResponse {
  status: number;
  type: string;
  text: string;
  cache: string | null;
  headers: Record<string, string | string[] | undefined>;
}

/** GET on loopback with an explicit Host header (what a CDN or a browser with DNS would send). */
export function getWithHost(port: number, path: string, host: string): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { Host: host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({
        status: res.statusCode ?? 0,
        type: String(res.headers['content-type'] ?? ''),
        text: Buffer.concat(chunks).toString('utf8'),
        cache: (res.headers['cache-control'] as string | undefined) ?? null,
        headers: res.headers,
      }));
    });
    req.on('error', reject);
    req.end();
  });
}
