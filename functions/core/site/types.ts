/**
 * The vocabulary of the AI site, shared by the crawler, the generator, the file builders
 * and the deploy step. Pure data: no I/O here.
 */

export type PageKind = 'home' | 'product' | 'collection' | 'page' | 'blog' | 'article' | 'other';

/** One URL the mapper found on the store. */
export interface MappedUrl {
  url: string;
  kind: PageKind;
  /** W3C datetime from the sitemap, when it gave one. */
  lastmod?: string;
  source: 'sitemap' | 'link' | 'root';
  /** Content fingerprint (core/crawl/fingerprint.ts) when the mapper fetched the page as HTML. */
  fingerprint?: string;
  /** HTTP status of the mapper's fetch; absent when not fetched, unreachable or blocked. */
  statusCode?: number;
}

/** One store page after scraping: main content as markdown, plus a noise-free fingerprint. */
export interface ScrapedPage {
  url: string;
  kind: PageKind;
  title: string;
  description: string;
  markdown: string;
  /** sha256 of the normalized main content: equal when only per-request noise differs. */
  fingerprint: string;
  statusCode: number;
  lastmod?: string;
}

export interface CatalogProduct {
  /** Slugified product identifier: the store handle. */
  productId: string;
  name: string;
  /** Product page on the store. */
  url: string;
  /** Plain text (HTML stripped). */
  description: string;
  productType: string;
  vendor: string;
  tags: string[];
  /** Decimal string as the store gives it, e.g. "24.00". */
  price: string | null;
  compareAtPrice: string | null;
  currency: string | null;
  available: boolean;
  imageUrls: string[];
  updatedAt: string | null;
}

export interface CatalogCollection {
  handle: string;
  title: string;
  url: string;
  description: string;
}

export interface StoreIdentity {
  name: string;
  orgSlug: string;
  /** Store origin, e.g. https://shop.example. */
  url: string;
  domain: string;
}

/** Everything known about a store after mapping, scraping and product discovery. */
export interface StoreSnapshot {
  business: StoreIdentity;
  pages: ScrapedPage[];
  products: CatalogProduct[];
  collections: CatalogCollection[];
  /** Store URLs for the unified sitemap (spec: `store_sitemap_urls`). */
  storeSitemapUrls: Array<{ loc: string; lastmod?: string }>;
}

export interface FaqEntry {
  question: string;
  answer: string;
}

/** What a generator engine (offline or model) writes about a store; files are rendered from it. */
export interface SiteNarrative {
  /** One or two sentences: the llms.txt blockquote and the meta descriptions. */
  summary: string;
  /** A paragraph or three about the business. */
  description: string;
  /** Inferred industry, e.g. "specialty coffee". */
  industry: string;
  audience: string;
  categories: string[];
  keyFacts: string[];
  faqs: FaqEntry[];
  /** Per product (by productId): a short AI-friendly summary. */
  productSummaries: Record<string, string>;
  /** Which engine produced it, and why the offline one was used when a model was configured. */
  engine: { name: 'offline' | 'model'; model?: string; fallbackReason?: string };
}

/** A file of the AI site: a path on the AI-site host and its content. */
export interface SiteFile {
  /** Absolute path on the AI-site host, e.g. `/llms.txt`, `/ai/products/blue-mug/index.html`. */
  path: string;
  content: string;
  contentType: string;
}

/** Metadata a deploy needs besides the files. */
export interface DeployMetadata {
  orgSlug: string;
  businessName: string;
  /** Store origin: canonical targets and store sitemap URLs live here. */
  sourceUrl: string;
  /**
   * The origin the site is published under: the customer domain once connected,
   * otherwise the AI-site host. Sitemap and robots.txt URLs use it (D28).
   */
  publicOrigin: string;
  storeSitemapUrls: Array<{ loc: string; lastmod?: string }>;
  /** ISO timestamp of this deploy. */
  deployedAt: string;
}
