/**
 * The bundled demo store: a Shopify-shaped storefront on loopback (JSON feeds, sitemaps,
 * robots.txt, themed HTML with real per-request noise) for a small coffee roaster. `npm start`
 * onboards it by default; tests and benchmarks use it with `size` for thousands of pages.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCatalogue } from './catalogue';
import { createHandler } from './server';
import { closeServer } from '../close-server';

export interface DemoStoreOptions {
  port?: number; // default 0 (random)
  host?: string; // default '127.0.0.1'
  /** Number of catalogue products; default 24 (the base catalogue). Fewer takes the first N. */
  products?: number;
  /** Target total page count (products + collections + pages + blog posts); when larger than the base catalogue, deterministic extra products are generated to reach it (5,000+ for benchmarks). */
  size?: number;
  name?: string; // store name, default "Harbor & Pine Coffee Co."
}

export interface DemoStore {
  origin: string;
  port: number;
  stats: { products: number; collections: number; pages: number; blogPosts: number; totalPages: number };
  requests: () => number;
  close(): Promise<void>;
}

export async function startDemoStore(options: DemoStoreOptions = {}): Promise<DemoStore> {
  const catalogue = buildCatalogue({ products: options.products, size: options.size, name: options.name });
  const host = options.host ?? '127.0.0.1';
  let origin = '';
  let count = 0;
  const server = createServer(createHandler(catalogue, () => origin, () => { count++; }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    origin,
    port,
    stats: { ...catalogue.stats },
    requests: () => count,
    close: () => closeServer(server),
  };
}
