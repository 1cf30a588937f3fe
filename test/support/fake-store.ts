/** A tiny store-platform server on loopback: `/products.json` with real pagination. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStore {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeStore(options: { products?: number; status?: number } = {}): Promise<FakeStore> {
  const products = Array.from({ length: options.products ?? 3 }, (_, i) => ({
    id: i + 1, handle: `product-${i + 1}`, title: `Product ${i + 1}`, product_type: 'Widget', vendor: 'Acme',
  }));
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/products.json') {
      res.writeHead(404).end();
      return;
    }
    if (options.status && options.status !== 200) {
      res.writeHead(options.status, { 'Content-Type': 'text/plain' }).end('no');
      return;
    }
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 30), 250);
    const page = Math.max(Number(url.searchParams.get('page') ?? 1), 1);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ products: products.slice((page - 1) * limit, page * limit) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
