/**
 * The demo store's admin API: add, edit and remove products and content pages at run time, so
 * the daily schedule (re-map, change detection, new-product discovery, re-scrape) has something
 * to find locally. `demo.admin` in-process; admin-http.ts serves the same calls as JSON over
 * HTTP on a loopback port of its own.
 *
 * Input is the JSON a client sends (snake_case, like Shopify's); everything is validated here,
 * whoever calls, and a refusal is a `DemoStoreAdminError` whose message names the problem.
 */
import { MAX_IMAGES, MAX_VARIANTS, type Page, type Product } from './catalogue';
import type { BaseVariant } from './catalogue-base';
import { productJson } from './shopify-json';
import { DemoStoreAdminError, type NewProduct, type PageEdit, type ProductEdit, type StoreChanges, type StoreState } from './store-state';

export { DemoStoreAdminError };

type Amount = string | number;

export interface VariantInput {
  title: string;
  price?: Amount;
  compare_at_price?: Amount | null;
  available?: boolean;
  sku?: string;
  grams?: number;
}

export interface ProductInput {
  handle: string;
  title: string;
  /** Every variant's price unless the variant has its own; required without `variants`. */
  price?: Amount;
  body_html?: string;
  product_type?: string;
  /** Default: the store name. */
  vendor?: string;
  /** An array, or Shopify's comma-separated string. */
  tags?: string[] | string;
  /** Handles of existing collections (every product is in `all`). */
  collections?: string[];
  /** Number of placeholder images, 0-4; default 1. */
  images?: number;
  /** Default availability of the variants; default true. */
  available?: boolean;
  /** Name of the variant option; default "Title" without `variants`, else "Size". */
  option_name?: string;
  /** 1-8 variants; default one "Default Title" variant at `price`. */
  variants?: VariantInput[];
}

export interface ProductPatch {
  title?: string;
  body_html?: string;
  /** Sets every variant's price. */
  price?: Amount;
  /** Sets every variant's availability. */
  available?: boolean;
}

export interface PageInput {
  /** Default when creating: from the handle ("wholesale-info" → "Wholesale Info"). */
  title?: string;
  /** Required when creating. */
  body_html?: string;
  /** Default when creating: the start of the page text. */
  meta_description?: string;
}

export type ProductJson = ReturnType<typeof productJson>;

export interface PageJson {
  id: number;
  handle: string;
  title: string;
  body_html: string;
  meta_description: string;
  in_sitemap: boolean;
  created_at: string;
  updated_at: string;
}

export interface StoreSummary {
  /** Incremented on every change; a no-op edit is not one. */
  version: number;
  products: number;
  /** Product count per collection handle. */
  collections: Record<string, number>;
  /** Handles of the content pages, in sitemap order (a page the merchant hid, brew-guide, included). */
  pages: string[];
  blog_posts: number;
  total_pages: number;
  /** Differences from the generated catalogue, since start or the last reset. */
  changes: StoreChanges;
}

export interface ProductResult {
  version: number;
  /** False when an edit set the values the product already had (no new version then). */
  changed: boolean;
  /** The storefront page. */
  url: string;
  /** As `/products/<handle>.json` serves it. */
  product: ProductJson;
}

export interface PageResult {
  version: number;
  created: boolean;
  changed: boolean;
  url: string;
  page: PageJson;
}

export interface RemovedResult {
  version: number;
  /** The storefront page, 404 from now on. */
  url: string;
  removed: { id: number; handle: string };
}

export interface DemoStoreAdmin {
  /** 409 when the handle exists, 400 on invalid fields. */
  addProduct(input: ProductInput): ProductResult;
  /** 404 when unknown. */
  editProduct(handle: string, patch: ProductPatch): ProductResult;
  removeProduct(handle: string): RemovedResult;
  /** Edits a content page, or creates it (then listed in the pages sitemap). */
  editPage(handle: string, input: PageInput): PageResult;
  removePage(handle: string): RemovedResult;
  state(): StoreSummary;
  /** Back to the catalogue generated at start. */
  reset(): StoreSummary;
}

export function createAdmin(store: StoreState, origin: () => string): DemoStoreAdmin {
  const productResult = (product: Product, changed = true): ProductResult => ({
    version: store.version,
    changed,
    url: `${origin()}/products/${product.handle}`,
    product: productJson(product, origin()),
  });
  const summary = (): StoreSummary => {
    const c = store.catalogue;
    return {
      version: store.version,
      products: c.stats.products,
      collections: Object.fromEntries(c.collections.map((x) => [x.handle, x.products.length])),
      pages: c.pages.map((p) => p.handle),
      blog_posts: c.stats.blogPosts,
      total_pages: c.stats.totalPages,
      changes: store.changes(),
    };
  };
  return {
    addProduct: (input) => productResult(store.addProduct(parseNewProduct(input))),
    editProduct: (handle, patch) => {
      const { product, changed } = store.editProduct(parseHandle(handle), parseProductPatch(patch));
      return productResult(product, changed);
    },
    removeProduct: (handle) => {
      const removed = store.removeProduct(parseHandle(handle));
      return { version: store.version, url: `${origin()}/products/${removed.handle}`, removed: { id: removed.id, handle: removed.handle } };
    },
    editPage: (handle, input) => {
      const { page, created, changed } = store.putPage(parseHandle(handle), parsePageInput(input));
      return { version: store.version, created, changed, url: `${origin()}/pages/${page.handle}`, page: pageJson(page) };
    },
    removePage: (handle) => {
      const removed = store.removePage(parseHandle(handle));
      return { version: store.version, url: `${origin()}/pages/${removed.handle}`, removed: { id: removed.id, handle: removed.handle } };
    },
    state: summary,
    reset: () => {
      store.reset();
      return summary();
    },
  };
}

const pageJson = (p: Page): PageJson => ({
  id: p.id,
  handle: p.handle,
  title: p.title,
  body_html: p.body,
  meta_description: p.metaDescription,
  in_sitemap: p.inSitemap,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

// ---------- validation ----------

type Fields = Record<string, unknown>;

const bad = (message: string) => new DemoStoreAdminError(400, message);
const show = (value: unknown) => (typeof value === 'string' ? `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"` : JSON.stringify(value) ?? String(value));

function fields(value: unknown, what: string, allowed: readonly string[]): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${what} must be a JSON object`);
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length) throw bad(`unknown field ${unknown.map((k) => `'${k}'`).join(', ')} in ${what} (allowed: ${allowed.join(', ')})`);
  return value as Fields;
}

const HANDLE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function parseHandle(value: unknown, field = 'handle'): string {
  if (typeof value !== 'string' || !value) throw bad(`${field} is required (a string such as "new-coffee")`);
  if (value.length > 255 || !HANDLE.test(value)) throw bad(`${field} ${show(value)} must be lowercase letters, digits and single hyphens, such as "new-coffee"`);
  return value;
}

function text(f: Fields, key: string, opts: { required?: boolean; nonEmpty?: boolean; max?: number } = {}): string | undefined {
  const value = f[key];
  if (value === undefined) {
    if (opts.required) throw bad(`${key} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw bad(`${key} must be a string (got ${show(value)})`);
  if ((opts.required || opts.nonEmpty) && !value.trim()) throw bad(`${key} must not be empty`);
  if (opts.max !== undefined && value.length > opts.max) throw bad(`${key} is longer than ${opts.max} characters`);
  return value;
}

function flag(f: Fields, key: string): boolean | undefined {
  const value = f[key];
  if (value !== undefined && typeof value !== 'boolean') throw bad(`${key} must be true or false (got ${show(value)})`);
  return value as boolean | undefined;
}

function integer(f: Fields, key: string, min: number, max: number): number | undefined {
  const value = f[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw bad(`${key} must be a whole number from ${min} to ${max} (got ${show(value)})`);
  return value;
}

/** Shopify's decimal-string money: 19 → "19.00", "4.5" → "4.50". */
function amount(value: unknown, field: string): string {
  const raw = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof raw !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(raw.trim())) {
    throw bad(`${field} must be an amount with at most 2 decimals, such as "19.00" or 19 (got ${show(value)})`);
  }
  return Number(raw).toFixed(2);
}

function tagList(value: unknown): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || list.some((t) => typeof t !== 'string')) throw bad(`tags must be an array of strings or a comma-separated string (got ${show(value)})`);
  return [...new Set((list as string[]).map((t) => t.trim()).filter(Boolean))];
}

const PRODUCT_FIELDS = ['handle', 'title', 'price', 'body_html', 'product_type', 'vendor', 'tags', 'collections', 'images', 'available', 'option_name', 'variants'] as const;
const VARIANT_FIELDS = ['title', 'price', 'compare_at_price', 'available', 'sku', 'grams'] as const;

function parseNewProduct(input: unknown): NewProduct {
  const f = fields(input, 'the product', PRODUCT_FIELDS);
  const handle = parseHandle(f.handle);
  const title = text(f, 'title', { required: true, max: 255 })!;
  const price = f.price === undefined ? undefined : amount(f.price, 'price');
  const available = flag(f, 'available') ?? true;
  const sku = handle.toUpperCase();

  let variants: BaseVariant[];
  if (f.variants === undefined) {
    if (price === undefined) throw bad('price is required (or give every variant a price)');
    variants = [{ title: 'Default Title', price, available, sku, grams: 0 }];
  } else {
    const list = f.variants;
    if (!Array.isArray(list) || list.length < 1 || list.length > MAX_VARIANTS) throw bad(`variants must be an array of 1 to ${MAX_VARIANTS} variants`);
    variants = list.map((raw: unknown, i) => {
      const where = `variants[${i}]`;
      const v = fields(raw, where, VARIANT_FIELDS);
      if (typeof v.title !== 'string' || !v.title.trim()) throw bad(`${where}.title is required (e.g. "12 oz")`);
      if (v.price === undefined && price === undefined) throw bad(`${where}.price is required when the product has no price`);
      if (v.sku !== undefined && typeof v.sku !== 'string') throw bad(`${where}.sku must be a string`);
      if (v.available !== undefined && typeof v.available !== 'boolean') throw bad(`${where}.available must be true or false`);
      if (v.grams !== undefined && (typeof v.grams !== 'number' || !Number.isInteger(v.grams) || v.grams < 0)) throw bad(`${where}.grams must be a whole number of grams`);
      return {
        title: v.title,
        price: v.price === undefined ? price! : amount(v.price, `${where}.price`),
        ...(v.compare_at_price === undefined || v.compare_at_price === null ? {} : { compareAt: amount(v.compare_at_price, `${where}.compare_at_price`) }),
        available: (v.available as boolean | undefined) ?? available,
        sku: (v.sku as string | undefined) ?? (list.length > 1 ? `${sku}-${i + 1}` : sku),
        grams: (v.grams as number | undefined) ?? 0,
      };
    });
    const titles = variants.map((v) => v.title);
    const duplicate = titles.find((t, i) => titles.indexOf(t) !== i);
    if (duplicate !== undefined) throw bad(`variants: two variants are titled "${duplicate}"`);
  }

  const collections = f.collections ?? [];
  if (!Array.isArray(collections) || collections.some((c) => typeof c !== 'string')) throw bad(`collections must be an array of collection handles (got ${show(f.collections)})`);
  return {
    handle,
    title,
    bodyHtml: text(f, 'body_html') ?? '',
    productType: text(f, 'product_type', { max: 255 }) ?? '',
    vendor: text(f, 'vendor', { nonEmpty: true, max: 255 }),
    tags: tagList(f.tags),
    collections: [...new Set(collections as string[])],
    images: integer(f, 'images', 0, MAX_IMAGES) ?? 1,
    optionName: text(f, 'option_name', { nonEmpty: true, max: 255 }) ?? (f.variants === undefined ? 'Title' : 'Size'),
    variants,
  };
}

const PATCH_FIELDS = ['title', 'body_html', 'price', 'available'] as const;

function parseProductPatch(input: unknown): ProductEdit {
  const f = fields(input, 'the product edit', PATCH_FIELDS);
  if (!Object.keys(f).length) throw bad(`nothing to change: give at least one of ${PATCH_FIELDS.join(', ')}`);
  return {
    title: text(f, 'title', { nonEmpty: true, max: 255 }),
    bodyHtml: text(f, 'body_html'),
    price: f.price === undefined ? undefined : amount(f.price, 'price'),
    available: flag(f, 'available'),
  };
}

const PAGE_FIELDS = ['title', 'body_html', 'meta_description'] as const;

function parsePageInput(input: unknown): PageEdit {
  const f = fields(input, 'the page', PAGE_FIELDS);
  if (!Object.keys(f).length) throw bad(`nothing to change: give at least one of ${PAGE_FIELDS.join(', ')}`);
  return {
    title: text(f, 'title', { nonEmpty: true, max: 255 }),
    bodyHtml: text(f, 'body_html'),
    metaDescription: text(f, 'meta_description', { max: 320 }),
  };
}
