/** Records the service stores, as the core and the handlers see them. */
import type { PlatformKey } from './constants';
import type { ProductSnapshotItem } from './products/catalog';
import type { HistoryEntry } from './visibility/score';

export interface Business {
  /** Business entity id (UUID). */
  id: string;
  /** Organization slug: the single organization identifier (D5). */
  orgSlug: string;
  name: string;
  url: string;
  /** Normalized store domain (lowercase host without `www.`). */
  domain: string;
  faviconUrl: string | null;
  /** AI articles created for the business entity itself (weekly-100 policy); absent until the first. */
  articleCount?: number;
  createdAt: string;
  updatedAt: string;
}

export interface Product {
  id: string;
  orgSlug: string;
  /** Slugified product identifier (the store handle). */
  productId: string;
  name: string;
  url: string | null;
  citationCount: number;
  articleCount: number;
  createdAt: string;
  updatedAt: string;
}

export type PlatformResults = Record<PlatformKey, boolean | null>;

export interface TrackedPrompt extends PlatformResults {
  id: string;
  orgSlug: string;
  prompt: string;
  /** The business or product entity the prompt tests. */
  entityId: string;
  /** Product slug, null for the business. */
  productId: string | null;
  source: 'search_api' | 'generated';
  lastTestedAt: string | null;
  createdAt: string;
}

export interface VisibilityHistory {
  entityId: string;
  recentScore: number;
  history: HistoryEntry[];
  /** Optimistic-concurrency version: every write checks and bumps it. */
  version: number;
}

/** The `ai_sites` record (one per business). Domain-connection fields arrive with later work. */
/** The AI-site record's lists that grow with the store (D39): stored apart, read when asked for. */
export type AiSiteList = 'storeSitemapUrls' | 'productsSnapshot';

export interface AiSiteRecord {
  orgSlug: string;
  entityId: string;
  /** Hosting project name: the organization slug. */
  projectName: string | null;
  deploymentUrl: string | null;
  deployedAt: string | null;
  /** The last publish that moved every page's check date (D180); older records: `deployedAt`. */
  checkedAt?: string;
  /** The release the AI-site host serves. */
  releaseId: string | null;
  fileCount: number | null;
  sourceUrl: string | null;
  /** Read only when asked for (`AiSiteRepository.get`'s `lists`), else null: it grows with the store. */
  storeSitemapUrls: Array<{ loc: string; lastmod?: string }> | null;
  productsHash: string | null;
  /** Read only when asked for, as `storeSitemapUrls`. */
  productsSnapshot: ProductSnapshotItem[] | null;
  /** The store's own robots.txt, whose rules the served robots.txt keeps. */
  storeRobotsTxt?: string;
  /** The site's IndexNow key, created once. */
  indexNowKey?: string;
  /** The origin the site is published under once a customer domain serves it (D28). */
  publicOrigin?: string;
  [field: string]: unknown;
}
