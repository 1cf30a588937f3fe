/**
 * What the AI site is built from, and what it was last built and published from, so the
 * daily schedule regenerates and deploys only when something really changed (and a retry
 * or a second run the same day does neither again).
 *
 * - Inputs: the scraped pages (`scrape`) and the catalogue (`catalog`) artifacts. Each write
 *   records a digest of its content on the AI-site record, digest first: a crash between
 *   the two leaves a digest that differs from what the parts were built from, so the next
 *   deploy rebuilds rather than missing the change.
 * - Parts: the `main` part records the input digests it was built from, the `product-llms`
 *   part the catalogue digest, and each publish the parts' version tokens it published.
 */
import { createHash } from 'node:crypto';
import { artifactKeys } from '../../core/artifacts';
import type { AiSiteRecord } from '../../core/model';
import type { CatalogCollection, CatalogProduct, MappedUrl, ScrapedPage, StoreAgentFile } from '../../core/site/types';
import type { Container } from '../../container';

export type SiteInput = 'scrape' | 'catalog';

export interface ScrapeArtifact {
  mappedAt: string;
  urls: MappedUrl[];
  pages: ScrapedPage[];
  storeRobotsTxt: string | null;
  /** Files the store serves for AI agents (`/llms.txt`, `/agents.md`, ...), D114/D115; absent in older artifacts. */
  agentFiles?: StoreAgentFile[];
}

export interface CatalogArtifact {
  products: CatalogProduct[];
  collections: CatalogCollection[];
}

const DIGEST_FIELD = { scrape: 'scrapeDigest', catalog: 'catalogDigest' } as const;

export const contentDigest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** Saves a step's artifact and records its digest; false (nothing written) when the content is what is stored. */
export async function saveSiteInput(container: Container, orgSlug: string, entityId: string, input: SiteInput, value: unknown): Promise<boolean> {
  const digest = contentDigest(value);
  const site = await container.aiSites.get(orgSlug);
  if (site?.[DIGEST_FIELD[input]] === digest) return false;
  await container.aiSites.patch(orgSlug, entityId, { [DIGEST_FIELD[input]]: digest });
  await container.artifacts.put(input === 'scrape' ? artifactKeys.scrape(orgSlug) : artifactKeys.catalog(orgSlug), value);
  return true;
}

/** The inputs the main part is built from, as one comparable token. */
export const mainPartInputs = (site: AiSiteRecord | null): string => `${site?.scrapeDigest ?? '-'}|${site?.catalogDigest ?? '-'}`;
export const productPartInputs = (site: AiSiteRecord | null): string => String(site?.catalogDigest ?? '-');

export const mainPartIsCurrent = (site: AiSiteRecord | null): boolean => site?.mainPartBuiltFrom === mainPartInputs(site);
export const productPartIsCurrent = (site: AiSiteRecord | null): boolean => site?.productPartBuiltFrom === productPartInputs(site);
