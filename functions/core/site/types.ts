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
  /** `<image:image>` entries of the store's sitemap for this URL (D114). */
  images?: SitemapImage[];
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

/** One purchasable variant of a product (a Shopify variant: one combination of option values). */
export interface CatalogVariant {
  /** The store's variant id, when it gave one (`?variant=<id>` selects it on the store page). */
  id: string | null;
  /** Option values joined by " / " ("Matte Black / 6 mm"); empty for a product without options. */
  title: string;
  /** Option values in option order; empty for a product without options. */
  options: string[];
  /** Decimal string as the store gives it, e.g. "48.00"; null without a usable price. */
  price: string | null;
  compareAtPrice: string | null;
  available: boolean;
  sku: string | null;
  /** The barcode when it is a valid GTIN-8/12/13/14 (check digit verified); null otherwise. */
  gtin: string | null;
}

export interface CatalogProduct {
  /** Slugified product identifier: the store handle. */
  productId: string;
  name: string;
  /** Product page on the store. */
  url: string;
  /**
   * Markdown of the store's description (core/text/markdown.ts: lists, headings and emphasis
   * kept, entities decoded). Catalogues stored before that hold plain text, which is markdown too.
   */
  description: string;
  productType: string;
  vendor: string;
  tags: string[];
  /**
   * Decimal string as the store gives it, e.g. "24.00": a summary of `variants`, the lowest
   * price among available variants (among all when none is available).
   */
  price: string | null;
  /** The compare-at price of the variant that gave `price`. */
  compareAtPrice: string | null;
  /** ISO 4217 code the store states for its prices; null when the store does not say. */
  currency: string | null;
  /** A summary of `variants`: at least one variant can be bought. */
  available: boolean;
  /** Option names in order ("Color", "Thickness"); absent in catalogues stored before variants. */
  optionNames?: string[];
  /** Every variant; absent in catalogues stored before variants (then price/available stand alone). */
  variants?: CatalogVariant[];
  imageUrls: string[];
  updatedAt: string | null;
}

export interface CatalogCollection {
  handle: string;
  title: string;
  url: string;
  /** Markdown of the store's description (converted once, in the storefront adapter). */
  description: string;
}

export interface StoreIdentity {
  name: string;
  orgSlug: string;
  /** Store origin, e.g. https://shop.example. */
  url: string;
  domain: string;
  /** Absolute URL of the store's own icon or logo, when one was found (onboarding 1d). */
  logoUrl?: string | null;
}

/** Everything known about a store after mapping, scraping and product discovery. */
export interface StoreSnapshot {
  business: StoreIdentity;
  pages: ScrapedPage[];
  products: CatalogProduct[];
  collections: CatalogCollection[];
  /** Store URLs for the unified sitemap (spec: `store_sitemap_urls`). */
  storeSitemapUrls: StoreSitemapUrl[];
  /** Files the store itself serves for AI agents (D114); absent in older scrape artifacts. */
  storeAgentFiles?: StoreAgentFile[];
}

/** A store URL of the unified sitemap, with the image entries the store's sitemap gave it (D114). */
export interface StoreSitemapUrl {
  loc: string;
  lastmod?: string;
  images?: SitemapImage[];
}

/** One `<image:image>` of a sitemap entry (Google image sitemap extension). */
export interface SitemapImage {
  loc: string;
  title?: string;
  caption?: string;
}

/** A file the store serves for AI agents at a well-known path (`/llms.txt`, `/agents.md`, ...). */
export interface StoreAgentFile {
  /** Path on the store, e.g. `/llms-full.txt`. */
  path: string;
  /** Absolute URL it answered at. */
  url: string;
  contentType?: string;
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
  /**
   * Which engine produced it, and why the offline one was used when a model was configured.
   * `grounding` (model engine, D36): sentences of model-written text checked against the
   * store's content, how many were dropped as unsupported, and a few of them.
   */
  engine: {
    name: 'offline' | 'model';
    model?: string;
    fallbackReason?: string;
    grounding?: { checked: number; dropped: number; examples: string[] };
  };
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
  storeSitemapUrls: StoreSitemapUrl[];
  /** ISO timestamp of this deploy. */
  deployedAt: string;
}
