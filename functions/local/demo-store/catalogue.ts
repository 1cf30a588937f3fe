/**
 * Builds the store's catalogue for a given size: Shopify-like ids and timestamps, collection
 * membership and lookups. Data only (a few hundred bytes per product); HTML and JSON are
 * rendered per request from this, so 25,000 products stay cheap to hold.
 */
import { BASE_COLLECTIONS, BASE_PRODUCTS, type BaseProduct } from './catalogue-base';
import { BLOG, DEFAULT_STORE_NAME, PAGES, POSTS, type BlogPost, type ContentPage } from './content';
import { GENERATED_COLLECTIONS, generatedProduct } from './generated';

export interface Variant {
  id: number;
  title: string;
  price: string;
  compareAtPrice: string | null;
  available: boolean;
  sku: string;
  grams: number;
  requiresShipping: boolean;
  position: number;
}

export interface Image {
  id: number;
  /** Store-relative, with its stable `?v=` cache-buster. */
  path: string;
  width: number;
  height: number;
  position: number;
  alt: string;
}

export interface Product {
  id: number;
  handle: string;
  title: string;
  bodyHtml: string;
  vendor: string;
  productType: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  optionName: string;
  variants: Variant[];
  images: Image[];
  collections: string[];
}

export interface Collection {
  id: number;
  handle: string;
  title: string;
  descriptionHtml: string;
  plainDescription: string;
  publishedAt: string;
  updatedAt: string;
  image: Image | null;
  products: Product[];
}

export interface Page extends ContentPage {
  id: number;
}

export interface Post extends BlogPost {
  id: number;
}

export interface Catalogue {
  storeName: string;
  products: Product[];
  collections: Collection[];
  pages: Page[];
  posts: Post[];
  blog: typeof BLOG & { id: number };
  productByHandle: Map<string, Product>;
  collectionByHandle: Map<string, Collection>;
  stats: { products: number; collections: number; pages: number; blogPosts: number; totalPages: number };
}

export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Store name into HTML content (the name itself may hold `&`). */
export const withBrand = (html: string, storeName: string): string => html.split('{brand}').join(escapeHtml(storeName));

// Shopify ids grow with creation time; these bases look like a store opened in 2016.
const PRODUCT_ID_BASE = 7_481_293_000_000;
const VARIANT_ID_BASE = 42_118_530_000_000;
const IMAGE_ID_BASE = 31_904_477_000_000;
const COLLECTION_ID_BASE = 262_117_400_000;
const PAGE_ID_BASE = 84_112_300_000;
const ARTICLE_ID_BASE = 557_031_200_000;
const BLOG_ID = 80_214_555_000;
/** Variant and image ids are spaced per product, which bounds how many one product can have. */
export const MAX_VARIANTS = 8;
export const MAX_IMAGES = 4;

/** Shopify formats shop-local times with the shop's offset; the demo shop is on US Eastern (-05:00). */
export function shopTime(epochMs: number): string {
  return new Date(epochMs - 5 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-05:00');
}

const BASE_EPOCH = Date.UTC(2023, 1, 6, 14, 30); // the store's re-platform date
const HOUR = 3600_000;

/** A product's source data: a base or generated product, or one added through the admin endpoint. */
export type ProductSource = Omit<BaseProduct, 'optionName'> & { optionName: string };

/**
 * The catalogue entry for `source` at creation `index` (ids grow with it, as Shopify's grow with
 * creation time). Timestamps come from the index, except for products created at run time
 * (`createdAtMs`: the admin endpoint), which were created and last updated then.
 */
export function buildProduct(source: ProductSource, index: number, storeName: string, createdAtMs?: number): Product {
  const id = PRODUCT_ID_BASE + index * 65_537;
  // Base products are spread over 2023; generated ones follow 20 minutes apart, so even 30,000
  // products end in the past (late 2024) and sitemap lastmods never lie about the future.
  const baseSpan = BASE_PRODUCTS.length * 11 * 24 * HOUR;
  const created = createdAtMs ?? BASE_EPOCH + (index < BASE_PRODUCTS.length ? index * 11 * 24 * HOUR : baseSpan + (index - BASE_PRODUCTS.length) * 20 * 60_000);
  const updated = createdAtMs ?? created + ((index * 37) % 300) * 24 * HOUR + 7 * HOUR;
  const version = Math.floor(updated / 1000); // Shopify's ?v= is the file's upload time: stable
  const requiresShipping = !source.giftCard;
  return {
    id,
    handle: source.handle,
    title: source.title,
    bodyHtml: withBrand(source.body, storeName),
    vendor: source.vendor ?? storeName,
    productType: source.productType,
    tags: source.tags,
    createdAt: shopTime(created),
    updatedAt: shopTime(updated),
    publishedAt: shopTime(createdAtMs ?? created + HOUR),
    optionName: source.optionName,
    variants: source.variants.map((v, i) => ({
      id: VARIANT_ID_BASE + index * MAX_VARIANTS + i,
      title: v.title,
      price: v.price,
      compareAtPrice: v.compareAt ?? null,
      available: v.available ?? true,
      sku: v.sku,
      grams: v.grams,
      requiresShipping,
      position: i + 1,
    })),
    images: Array.from({ length: source.images }, (_, i) => ({
      id: IMAGE_ID_BASE + index * MAX_IMAGES + i,
      path: `/cdn/shop/files/${source.handle}${i === 0 ? '' : `-${i + 1}`}.jpg?v=${version}`,
      width: 1600,
      height: 1600,
      position: i + 1,
      alt: i === 0 ? source.title : `${source.title}, view ${i + 1}`,
    })),
    collections: ['all', ...source.collections],
  };
}

export interface CatalogueOptions {
  products?: number;
  size?: number;
  name?: string;
}

/** What a collection is regardless of its members (they, its image and updatedAt derive from the products). */
export type CollectionDefinition = Omit<Collection, 'updatedAt' | 'image' | 'products'>;

/**
 * The independent data a catalogue is assembled from. Everything else (collection members,
 * lookups, stats) is derived by `assembleCatalogue`, so a changed product list can never leave
 * a stale index behind.
 */
export interface CatalogueParts {
  storeName: string;
  collections: CollectionDefinition[];
  products: Product[];
  pages: Page[];
  posts: Post[];
  blog: Catalogue['blog'];
}

/** The generated catalogue's parts for the size options. */
export function catalogueParts(options: CatalogueOptions = {}): CatalogueParts {
  const storeName = options.name ?? DEFAULT_STORE_NAME;
  const pagesCount = PAGES.length;
  const postsCount = POSTS.length;
  let productCount = Math.max(0, Math.floor(options.products ?? BASE_PRODUCTS.length));
  if (options.size !== undefined) {
    // Generated collections appear once there are generated products, so count them in.
    const fixedWithGenerated = BASE_COLLECTIONS.length + GENERATED_COLLECTIONS.length + pagesCount + postsCount;
    const fixedBase = BASE_COLLECTIONS.length + pagesCount + postsCount;
    if (options.size > productCount + fixedBase) {
      const wanted = options.size - (options.size - fixedBase > BASE_PRODUCTS.length ? fixedWithGenerated : fixedBase);
      productCount = Math.max(productCount, wanted);
    }
  }
  const sources: BaseProduct[] = [];
  for (let i = 0; i < productCount; i++) sources.push(i < BASE_PRODUCTS.length ? BASE_PRODUCTS[i] : generatedProduct(i - BASE_PRODUCTS.length));
  const products = sources.map((s, i) => buildProduct(s, i, storeName));

  const hasGenerated = productCount > BASE_PRODUCTS.length;
  const collectionSources = [...BASE_COLLECTIONS, ...(hasGenerated ? GENERATED_COLLECTIONS : [])];
  const collections: CollectionDefinition[] = collectionSources.map((c, i) => ({
    id: COLLECTION_ID_BASE + i * 3_271,
    handle: c.handle,
    title: c.title,
    descriptionHtml: `<p>${withBrand(c.description, storeName)}</p>`,
    plainDescription: c.description.split('{brand}').join(storeName),
    publishedAt: shopTime(BASE_EPOCH - 30 * 24 * HOUR + i * HOUR),
  }));

  const pages: Page[] = PAGES.map((p, i) => pageWithId(p, i));
  const posts: Post[] = POSTS.map((p, i) => ({ ...p, id: ARTICLE_ID_BASE + i * 2_048 }));
  return { storeName, collections, products, pages, posts, blog: { ...BLOG, id: BLOG_ID } };
}

/** A content page with the id of page number `index` (in creation order). */
export const pageWithId = (page: ContentPage, index: number): Page => ({ ...page, id: PAGE_ID_BASE + index * 1_024 });

/** The catalogue the storefront renders: the parts plus collection members, lookups and stats. */
export function assembleCatalogue(parts: CatalogueParts): Catalogue {
  const { storeName, products, pages, posts, blog } = parts;
  const members = new Map<string, Product[]>(parts.collections.map((c) => [c.handle, []]));
  for (const p of products) for (const handle of p.collections) members.get(handle)?.push(p);
  const collections: Collection[] = parts.collections.map((c) => {
    const list = members.get(c.handle)!;
    const latest = list.reduce((max, p) => (p.updatedAt > max ? p.updatedAt : max), shopTime(BASE_EPOCH));
    const cover = list[0]?.images[0];
    return { ...c, updatedAt: latest, image: cover ? { ...cover, alt: c.title } : null, products: list };
  });
  return {
    storeName,
    products,
    collections,
    pages,
    posts,
    blog,
    productByHandle: new Map(products.map((p) => [p.handle, p])),
    collectionByHandle: new Map(collections.map((c) => [c.handle, c])),
    stats: {
      products: products.length,
      collections: collections.length,
      pages: pages.length,
      blogPosts: posts.length,
      totalPages: products.length + collections.length + pages.length + posts.length,
    },
  };
}

export function buildCatalogue(options: CatalogueOptions = {}): Catalogue {
  return assembleCatalogue(catalogueParts(options));
}
