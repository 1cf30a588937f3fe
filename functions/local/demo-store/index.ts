/**
 * The bundled demo store: a Shopify-shaped storefront on loopback (JSON feeds, sitemaps,
 * robots.txt, themed HTML with real per-request noise) for a small coffee roaster. `npm start`
 * onboards it by default; tests and benchmarks use it with `size` for thousands of pages.
 * Its catalogue changes at run time through `admin` (in-process) or the admin port (HTTP,
 * admin-http.ts), so the daily schedule has new, changed and removed pages to find.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdmin, type DemoStoreAdmin } from './admin';
import { createAdminHandler } from './admin-http';
import { createHandler } from './server';
import { StoreState } from './store-state';
import { closeServer } from '../runtime/close-server';

export { DemoStoreAdminError } from './admin';
export type { DemoStoreAdmin, PageInput, PageResult, ProductInput, ProductPatch, ProductResult, RemovedResult, StoreSummary, VariantInput } from './admin';

export interface DemoStoreOptions {
  port?: number; // default 0 (random)
  host?: string; // default '127.0.0.1'
  /** Port of the admin endpoint, always on 127.0.0.1; default 0 (random). */
  adminPort?: number;
  /** Number of catalogue products; default 24 (the base catalogue). Fewer takes the first N. */
  products?: number;
  /** Target total page count (products + collections + pages + blog posts); when larger than the base catalogue, deterministic extra products are generated to reach it (5,000+ for benchmarks). */
  size?: number;
  name?: string; // store name, default "Harbor & Pine Coffee Co."
}

export interface DemoStore {
  origin: string;
  port: number;
  /** The admin endpoint, e.g. http://127.0.0.1:8084 (admin-http.ts lists its routes). */
  adminUrl: string;
  /** Change the catalogue in-process: the same calls the admin endpoint serves. */
  admin: DemoStoreAdmin;
  /** Current counts (they follow admin changes). */
  readonly stats: { products: number; collections: number; pages: number; blogPosts: number; totalPages: number };
  requests: () => number;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

const urlOf = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

export async function startDemoStore(options: DemoStoreOptions = {}): Promise<DemoStore> {
  const state = new StoreState({ products: options.products, size: options.size, name: options.name });
  const host = options.host ?? '127.0.0.1';
  let origin = '';
  let count = 0;
  const admin = createAdmin(state, () => origin);
  const server = createServer(createHandler(() => state.catalogue, () => origin, () => { count++; }));
  const adminServer = createServer(createAdminHandler(admin));
  const port = await listen(server, options.port ?? 0, host);
  origin = urlOf(host, port);
  let adminPort: number;
  try {
    adminPort = await listen(adminServer, options.adminPort ?? 0, '127.0.0.1');
  } catch (err) {
    await closeServer(server);
    throw err;
  }
  return {
    origin,
    port,
    adminUrl: urlOf('127.0.0.1', adminPort),
    admin,
    get stats() {
      return { ...state.catalogue.stats };
    },
    requests: () => count,
    close: async () => {
      await Promise.all([closeServer(server), closeServer(adminServer)]);
    },
  };
}
