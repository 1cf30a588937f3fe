/**
 * Run the demo store on its own, to browse it or point a crawler at it:
 *   npx tsx functions/local/demo-store/run.ts [--port 8090] [--admin-port 8091] [--size 5000] [--products 6] [--name "..."]
 */
import { startDemoStore } from './index';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const num = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
  const store = await startDemoStore({ port: num('port') ?? 8090, adminPort: num('admin-port') ?? 8091, size: num('size'), products: num('products'), name: arg('name') });
  console.log(`demo store at ${store.origin}  (${JSON.stringify(store.stats)})\nadmin at ${store.adminUrl}  (GET /state, POST /products, PATCH|DELETE /products/<handle>, PUT|DELETE /pages/<handle>, POST /reset)`);
  const stop = () => void store.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
