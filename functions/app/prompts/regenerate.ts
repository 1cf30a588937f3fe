/**
 * Prompt regeneration from a URL (spec: regenerate-prompts and `POST /api/cron/generate-prompts`;
 * the regenerate-prompts workflow's task): map the given website and scrape its pages with the
 * engines onboarding uses (robots.txt, sitemaps and links through the guarded client, D24; at
 * most 5,000 pages, D22), build the prompt evidence from those pages and the stored catalogue,
 * and add `prompt_count` NEW prompts for the business or one product through the same
 * generator and uniqueness rules as every other prompt (D33, `regeneratePrompts`).
 *
 * - Existing prompts, the search-API ones included, are kept: prompts are only added.
 * - New prompts are untested: their platform results stay null until a visibility check.
 * - The business's stored scrape (the AI site is built from it) and site map are NOT
 *   touched: these pages serve as evidence for this regeneration only.
 * - A failure (refused URL, nothing mapped, no page scraped, a provider down) is the spec's
 *   failure body — counts 0 and the reason — with an honest HTTP status (D15): 400 refused
 *   URL or invalid input, 404 unknown business or product, 502 the site or a provider
 *   failed, 503 a provider not configured, 500 anything else.
 */
import { artifactKeys } from '../../core/artifacts';
import { MAX_PAGES_MAPPED } from '../../core/constants';
import { AppError, UpstreamError } from '../../core/errors';
import type { StoreSnapshot } from '../../core/site/types';
import type { Container } from '../../container';
import type { Scraper, SiteMapper } from '../../ports';
import { scraperOf } from '../../engines/scraper';
import { siteMapperOf } from '../../engines/site-mapper';
import { createLogger } from '../../logger';
import { regeneratePrompts, type PromptDeps, type RegenerateResult } from './generate';
import { checkRegenerateRequest, defaultPromptCount, regenerateError, type RegenerateExecutionInput, type RegenerateResponse } from './regenerate-run';
import { scrapeMapped } from '../onboarding';
import { snapshotBusiness, type CatalogArtifact } from '../site';

const log = createLogger({ component: 'regenerate-prompts' });

export interface RegenerateDeps extends PromptDeps {
  /** Overrides the configured engines (tests). */
  mapper?: SiteMapper;
  scraper?: Scraper;
  /** Fewer pages than the 5,000 cap (never more). */
  maxPages?: number;
}

export interface RegenerateFromUrlResult extends RegenerateResult {
  pages: { mapped: number; scraped: number; failed: number; truncated: boolean };
}

/** Maps and scrapes `url`, then regenerates; throws AppErrors (the caller turns them into the failure body). */
export async function regeneratePromptsFromUrl(
  container: Container,
  request: { orgSlug: string; url: string; productId?: string | null; productName?: string | null; count?: number | null },
  deps: RegenerateDeps = {},
): Promise<RegenerateFromUrlResult> {
  const { orgSlug } = request;
  const { business, url } = await checkRegenerateRequest(container, request);

  const scraper = deps.scraper ?? scraperOf(container);
  const mapper = deps.mapper ?? siteMapperOf(container);
  const maxPages = Math.min(deps.maxPages ?? MAX_PAGES_MAPPED, MAX_PAGES_MAPPED);
  const map = await mapper.map(url, { maxPages, capturePages: scraper.name === 'builtin' });
  if (map.urls.length === 0) {
    throw new UpstreamError(`could not map ${url}: ${map.errors[0]?.reason ?? 'no pages found'}`);
  }
  const { scraped } = await scrapeMapped(scraper, map);
  if (scraped.pages.length === 0) {
    const first = scraped.failures[0];
    throw new UpstreamError(`could not scrape any of the ${map.urls.length} pages mapped on ${url}${first ? `: ${first.url}: ${first.reason}` : ''}`);
  }

  // The evidence: this site's pages, with the stored catalogue (its products and collections).
  const catalog = await container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
  const snapshot: StoreSnapshot = {
    business: snapshotBusiness(business),
    pages: scraped.pages,
    products: catalog?.products ?? [],
    collections: catalog?.collections ?? [],
    storeSitemapUrls: map.urls.map((u) => ({ loc: u.url, ...(u.lastmod ? { lastmod: u.lastmod } : {}) })),
  };
  const result = await regeneratePrompts(container, {
    orgSlug,
    productId: request.productId ?? null,
    count: request.count ?? defaultPromptCount(request.productId),
    snapshot,
    productName: request.productName ?? null,
  }, deps);
  const pages = { mapped: map.urls.length, scraped: scraped.pages.length, failed: scraped.failures.length, truncated: map.truncated };
  log.info('prompts regenerated from a URL', { orgSlug, productId: request.productId ?? null, url, pages, status: result.status, generated: result.generated, saved: result.saved, shortfall: result.shortfall, engine: result.engine });
  return { ...result, pages };
}

/**
 * The task's work: the spec response and its HTTP status, whatever happens. Known failures
 * keep their message and status; anything else is a 500 whose detail goes to the log only.
 */
export async function runPromptRegeneration(
  container: Container,
  input: RegenerateExecutionInput & { execution_id: string },
  deps: RegenerateDeps = {},
): Promise<{ httpStatus: number; body: RegenerateResponse }> {
  try {
    const result = await regeneratePromptsFromUrl(container, {
      orgSlug: input.org_slug, url: input.url, productId: input.product_id, productName: input.product_name, count: input.prompt_count,
    }, deps);
    const body: RegenerateResponse = {
      status: result.status,
      prompts_generated: result.generated,
      prompts_saved: result.saved,
      ...(result.skippedReason ? { skipped_reason: result.skippedReason } : {}),
      pages_scraped: result.pages.scraped,
    };
    return { httpStatus: 200, body };
  } catch (err) {
    if (err instanceof AppError) {
      log.warn('prompt regeneration failed', { org: input.org_slug, execution_id: input.execution_id, error: { name: err.name, message: err.message } });
      return { httpStatus: err.status, body: regenerateError(err.message) };
    }
    log.error('prompt regeneration failed', { org: input.org_slug, execution_id: input.execution_id, error: err });
    return { httpStatus: 500, body: regenerateError(`internal error (execution ${input.execution_id}; details in the task log)`) };
  }
}
