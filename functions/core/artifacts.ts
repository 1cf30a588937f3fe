/** Artifact keys of the workflow steps, built in one place. */
import { ValidationError } from './errors';

export const artifactKeys = {
  /** 1a: mapped URLs with fingerprints, and the scraped pages. */
  scrape: (slug: string) => `scrape/${slug}`,
  /** 1c: the product catalogue and collections. */
  catalog: (slug: string) => `catalog/${slug}`,
  /** 1a: the `<image:image>` entries of the store's sitemap, by store URL (D115: too big for the site record). */
  storeSitemapImages: (slug: string) => `store-sitemap/${slug}`,
  /** 2a: the generated narrative, reused by later steps (product files, articles). */
  narrative: (slug: string) => `narrative/${slug}`,
  /** Generated site files, one artifact per producing step (2a main, 3b product llms, ...). */
  siteParts: (slug: string) => `site-parts/${slug}`,
  sitePart: (slug: string, part: string) => `site-parts/${slug}/${part}`,
  /** A big part's files, a few MB at a time, by content hash (app/site/part-store.ts); outside `site-parts/` so its listing names parts only. */
  sitePartChunks: (slug: string, part: string) => `site-part-chunks/${slug}/${part}`,
  sitePartChunk: (slug: string, part: string, hash: string) => `site-part-chunks/${slug}/${part}/${hash}`,
  /** 2a: the day's article plan (entities and counts), written once per business and day. */
  articlePlan: (slug: string, runDate: string) => `article-plans/${slug}/${runDate}`,
  /** 2a: what one planned entity published that day, and why the rest was not (D35). */
  articleOutcomes: (slug: string, runDate: string) => `article-outcomes/${slug}/${runDate}`,
  articleOutcome: (slug: string, runDate: string, entity: string) => `article-outcomes/${slug}/${runDate}/${entity}`,
  /** What articles quote from a release (app/articles/materials.ts), parsed once and kept by release id. */
  articleSources: (slug: string) => `article-sources/${slug}`,
  /** What the live release says, page by page (core/site/digests.ts), and the release it describes. */
  siteDigests: (slug: string) => `site-digests/${slug}`,
  /** The site's digests when a daily execution took the business's day: batch 3 announces what changed since. */
  dailyBaseline: (slug: string, executionId: string) => `daily-baselines/${slug}/${executionId}`,
  /** The site as last announced to search engines, while an execution's changes wait for a batch 3 that succeeds. */
  unannouncedBaseline: (slug: string) => `daily-baselines/${slug}/unannounced`,
  /**
   * A list of the AI-site record too big to sit in its item (D39: 20,000 products' snapshot),
   * by content hash: the record points at one version, so a write that stopped half way never
   * pairs a new list with an old record.
   */
  aiSiteField: (slug: string, field: string, hash: string) => `ai-site-fields/${slug}/${field}/${hash}`,
  /** 2b: why a day's visibility analysis checked nothing (no platform configured, no prompts), for its read-back. */
  skippedAnalysis: (slug: string, runDate: string) => `visibility-outcomes/${slug}/${runDate}`,
};

/** The site part holding one AI article's files (one part per article: parallel creates never overwrite each other). */
export const articlePart = (articleSlug: string): string => `article-${articleSlug}`;

/** Keys are slash-separated slugs: nothing that could leave the artifact root. */
export function artifactPath(key: string): string {
  const parts = key.replace(/\/$/, '').split('/');
  if (!parts.every((p) => /^[a-z0-9][a-z0-9_.-]*$/i.test(p) && p !== '..')) throw new ValidationError(`invalid artifact key: ${key}`);
  return parts.join('/');
}
