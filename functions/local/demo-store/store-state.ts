/**
 * The demo store's mutable state: the catalogue the storefront renders, changed at run time
 * through the admin API (admin.ts) so the daily schedule has new, changed and removed pages to
 * find locally.
 *
 * Copy-on-write: every change builds new parts (products, pages) and re-derives the whole
 * catalogue (collection members, lookups, stats) with `assembleCatalogue`, so no index can go
 * stale. Requests read one snapshot each, and objects that did not change are shared between
 * snapshots: a page renders identical content (noise aside) until its own data changes.
 */
import type { BaseVariant } from './catalogue-base';
import {
  assembleCatalogue,
  buildProduct,
  catalogueParts,
  pageWithId,
  shopTime,
  withBrand,
  type Catalogue,
  type CatalogueOptions,
  type CatalogueParts,
  type Page,
  type Product,
} from './catalogue';
import { plainText } from './views';

/** A refused change, with the HTTP status the admin endpoint answers. */
export class DemoStoreAdminError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'DemoStoreAdminError';
  }
}

/** A validated new product (admin.ts turns request JSON into this). */
export interface NewProduct {
  handle: string;
  title: string;
  bodyHtml: string;
  productType: string;
  vendor?: string;
  tags: string[];
  /** Collection handles besides `all` (every product is in `all`). */
  collections: string[];
  images: number;
  optionName: string;
  variants: BaseVariant[];
}

export interface ProductEdit {
  title?: string;
  bodyHtml?: string;
  /** Every variant's price. */
  price?: string;
  /** Every variant's availability. */
  available?: boolean;
}

export interface PageEdit {
  title?: string;
  bodyHtml?: string;
  metaDescription?: string;
}

/** What differs from the initial catalogue (since start or the last reset), by handle. */
export interface StoreChanges {
  products: { added: string[]; edited: string[]; removed: string[] };
  pages: { added: string[]; edited: string[]; removed: string[] };
}

export class StoreState {
  private readonly initial: CatalogueParts;
  private parts: CatalogueParts;
  private current: Catalogue;
  private changeCount = 0;
  // Creation indexes for run-time products and pages: never reused, even after a reset, so a
  // product or page id always means one thing for the life of the process.
  private nextProductIndex: number;
  private nextPageIndex: number;

  constructor(
    options: CatalogueOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.initial = catalogueParts(options);
    this.parts = this.initial;
    this.current = assembleCatalogue(this.parts);
    this.nextProductIndex = this.initial.products.length;
    this.nextPageIndex = this.initial.pages.length;
  }

  /** The catalogue to render now. Take it once per request: a change replaces it whole. */
  get catalogue(): Catalogue {
    return this.current;
  }

  /** Incremented on every change (no-op edits are not changes). */
  get version(): number {
    return this.changeCount;
  }

  addProduct(input: NewProduct): Product {
    if (this.current.productByHandle.has(input.handle)) throw new DemoStoreAdminError(409, `product '${input.handle}' already exists`);
    for (const c of input.collections) {
      if (!this.current.collectionByHandle.has(c)) {
        throw new DemoStoreAdminError(400, `collections: unknown collection '${c}' (known: ${[...this.current.collectionByHandle.keys()].join(', ')})`);
      }
    }
    const product = buildProduct({ ...input, body: input.bodyHtml, collections: input.collections.filter((c) => c !== 'all') }, this.nextProductIndex++, this.parts.storeName, this.now());
    this.commit({ products: [...this.parts.products, product] });
    return product;
  }

  /** The edited product and whether anything changed (an edit to the same values is no change). */
  editProduct(handle: string, edit: ProductEdit): { product: Product; changed: boolean } {
    const old = this.product(handle);
    const variants = old.variants.map((v) => ({ ...v, price: edit.price ?? v.price, available: edit.available ?? v.available }));
    const bodyHtml = edit.bodyHtml === undefined ? old.bodyHtml : withBrand(edit.bodyHtml, this.parts.storeName); // as buildProduct does
    const next: Product = { ...old, title: edit.title ?? old.title, bodyHtml, variants };
    const changed =
      next.title !== old.title ||
      next.bodyHtml !== old.bodyHtml ||
      variants.some((v, i) => v.price !== old.variants[i].price || v.available !== old.variants[i].available);
    if (!changed) return { product: old, changed };
    next.updatedAt = shopTime(this.now());
    this.commit({ products: this.parts.products.map((p) => (p === old ? next : p)) });
    return { product: next, changed };
  }

  removeProduct(handle: string): Product {
    const old = this.product(handle);
    this.commit({ products: this.parts.products.filter((p) => p !== old) });
    return old;
  }

  /** Edits the page, or creates it when there is none with that handle (then listed in the pages sitemap). */
  putPage(handle: string, edit: PageEdit): { page: Page; created: boolean; changed: boolean } {
    const old = this.parts.pages.find((p) => p.handle === handle);
    const at = shopTime(this.now());
    if (!old) {
      if (edit.bodyHtml === undefined) throw new DemoStoreAdminError(400, `body_html is required to create page '${handle}'`);
      const title = edit.title ?? titleFromHandle(handle);
      const page = pageWithId(
        { handle, title, body: edit.bodyHtml, metaDescription: edit.metaDescription ?? describe(edit.bodyHtml, title), inSitemap: true, createdAt: at, updatedAt: at },
        this.nextPageIndex++,
      );
      this.commit({ pages: [...this.parts.pages, page] });
      return { page, created: true, changed: true };
    }
    const next: Page = { ...old, title: edit.title ?? old.title, body: edit.bodyHtml ?? old.body, metaDescription: edit.metaDescription ?? old.metaDescription };
    const changed = next.title !== old.title || next.body !== old.body || next.metaDescription !== old.metaDescription;
    if (!changed) return { page: old, created: false, changed };
    next.updatedAt = at;
    this.commit({ pages: this.parts.pages.map((p) => (p === old ? next : p)) });
    return { page: next, created: false, changed };
  }

  removePage(handle: string): Page {
    const old = this.parts.pages.find((p) => p.handle === handle);
    if (!old) throw new DemoStoreAdminError(404, `no page '${handle}' (pages: ${this.parts.pages.map((p) => p.handle).join(', ')})`);
    this.commit({ pages: this.parts.pages.filter((p) => p !== old) });
    return old;
  }

  /** Back to the catalogue generated at start. */
  reset(): void {
    this.parts = this.initial;
    this.current = assembleCatalogue(this.parts);
    this.changeCount++;
  }

  changes(): StoreChanges {
    return {
      products: diff(this.initial.products, this.parts.products),
      pages: diff(this.initial.pages, this.parts.pages),
    };
  }

  private product(handle: string): Product {
    const product = this.current.productByHandle.get(handle);
    if (!product) throw new DemoStoreAdminError(404, `no product '${handle}'`);
    return product;
  }

  private commit(change: Partial<Pick<CatalogueParts, 'products' | 'pages'>>): void {
    this.parts = { ...this.parts, ...change };
    this.current = assembleCatalogue(this.parts);
    this.changeCount++;
  }
}

/** Unchanged entries are the very objects of the initial catalogue; edits replace them. */
function diff<T extends { handle: string }>(initial: T[], current: T[]): StoreChanges['products'] {
  const before = new Map(initial.map((x) => [x.handle, x]));
  const now = new Set(current.map((x) => x.handle));
  const added: string[] = [];
  const edited: string[] = [];
  for (const x of current) {
    const original = before.get(x.handle);
    if (!original) added.push(x.handle);
    else if (original !== x) edited.push(x.handle);
  }
  return { added, edited, removed: initial.filter((x) => !now.has(x.handle)).map((x) => x.handle) };
}

const titleFromHandle = (handle: string) => handle.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

/** A meta description from the page's text, as Shopify fills an empty SEO description. */
function describe(bodyHtml: string, title: string): string {
  const text = plainText(bodyHtml);
  if (!text) return title;
  return text.length <= 155 ? text : `${text.slice(0, 154).replace(/\s+\S*$/, '')}…`;
}
