/**
 * A sibling-heavy store (issue 46), generated as the acceptance suite's outdoor store is: 15
 * line words ("Boreal", "Ember" ...) times 15 kinds ("Hiking Sock" ...), numbered past the
 * first round ("Boreal Hiking Sock 2" ... "5"), one description template, different prices.
 * Its generic prompts are every sibling's, so only prompts that name a product tell them apart.
 * `siblingPromptCoverage(n)` runs the offline prompt generator over it with onboarding's counts
 * and says how many products got fewer than their 5.
 */
import { toCatalogProduct, type StorefrontProduct } from '../functions/core/products/catalog';
import { buildOfflinePrompts } from '../functions/core/prompts/offline-prompts';
import { onboardingProductPromptCounts } from '../functions/core/prompts/strategy';
import type { StoreSnapshot } from '../functions/core/site/types';

const LINES = ['Alpine', 'Harbor', 'Cedar', 'Summit', 'Drift', 'Ember', 'Granite', 'Meadow', 'Tidal', 'Willow', 'Boreal', 'Canyon', 'Fjord', 'Juniper', 'Maple'];
const KINDS = ['Rain Jacket', 'Trail Runner', 'Wool Beanie', 'Camp Mug', 'Day Pack', 'Fleece Vest', 'Hiking Sock', 'Down Parka', 'Water Bottle', 'Headlamp', 'Trekking Pole', 'Sleeping Bag', 'Dry Bag', 'Sun Hat', 'Base Layer'];
export const SIBLING_STORE_NAME = 'Harborline Goods';

export function siblingStoreSnapshot(n: number, seed = 1): StoreSnapshot {
  const origin = 'https://harborline.example';
  const products = Array.from({ length: n }, (_, i): StorefrontProduct => {
    const kind = KINDS[(i * 3 + seed) % KINDS.length]!;
    const title = `${LINES[(i * 7 + seed) % LINES.length]} ${kind}${i >= LINES.length ? ` ${Math.floor(i / LINES.length) + 1}` : ''}`;
    const handle = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    return {
      id: 7000000000 + i * 17 + seed, title, handle,
      body_html: `<p>The ${title} is built for cold, wet days on the trail. Recycled fabric, lifetime repairs. Made by ${SIBLING_STORE_NAME}.</p>`,
      vendor: SIBLING_STORE_NAME, product_type: kind, tags: ['outdoor', 'hiking'],
      variants: [{ id: 4000000000 + i, title: 'Default Title', price: (29 + i * 3).toFixed(2), sku: `NW-${1000 + i}`, available: i % 5 !== 0 }],
      images: [{ src: `https://cdn.example-shop.test/files/${handle}.jpg` }], options: [{ name: 'Title', values: ['Default Title'] }],
    } as unknown as StorefrontProduct;
  });
  return {
    business: { name: SIBLING_STORE_NAME, orgSlug: 'harborline', url: origin, domain: 'harborline.example' },
    pages: [], products: products.map((p) => toCatalogProduct(p, origin, 'USD')), collections: [], storeSitemapUrls: [],
  };
}

export interface PromptCoverage {
  products: number;
  requested: number;
  productPrompts: number;
  /** Products that got fewer than their count. */
  short: number;
  ms: number;
  heapMb: number;
}

export function siblingPromptCoverage(n: number): PromptCoverage {
  const snapshot = siblingStoreSnapshot(n);
  const each = onboardingProductPromptCounts(n);
  const t0 = performance.now();
  const set = buildOfflinePrompts({ snapshot, business: { count: 50 }, products: snapshot.products.map((product) => ({ product, count: each })) });
  const ms = performance.now() - t0;
  const counts = snapshot.products.map((p) => set.products[p.productId]?.length ?? 0);
  return {
    products: n, requested: each * n, productPrompts: counts.reduce((a, b) => a + b, 0),
    short: counts.filter((c) => c < each).length, ms, heapMb: process.memoryUsage().heapUsed / 2 ** 20,
  };
}

export function coverageLine(c: PromptCoverage): string {
  return `sibling store of ${c.products.toLocaleString('en-US')} products: ${c.productPrompts.toLocaleString('en-US')} of ${c.requested.toLocaleString('en-US')} product prompts, ${c.short} products short; ${(c.ms / 1000).toFixed(1)} s, heap ${c.heapMb.toFixed(0)} MB`;
}

if (require.main === module) {
  for (const n of (process.env.BENCH_SIBLING_SIZES ?? '75,20000').split(',').map(Number)) console.log(coverageLine(siblingPromptCoverage(n)));
}
