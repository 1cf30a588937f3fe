import { UpstreamError } from '../../core/errors';
import { digestChanges } from '../../core/site/digests';
import type { Container } from '../../container';
import { searchNotifyEnginesOf, type SearchNotifyEngines } from '../../engines/search-notify';
import { dailyBaseline, publishedDigests, resubmitSitemap, submitIndexNow } from '../site';
import type { BusinessRun } from '../../core/daily/run';
import type { BusinessTaskInput, SkippedDailyStep } from './business-run';

/**
 * Batch 3 of the daily run: after the day's deploys, notify once, and resubmit the sitemap
 * when verified. What is announced is what this execution changed: the AI-site pages added,
 * changed or removed since it took the business's day (digests, app/site/digests.ts; a
 * removed page is announced once, when it leaves, and the engine finds it gone) and the
 * store URLs 1a found changed. A run that changed nothing announces nothing.
 */
export async function notifySearchEngines(
  container: Container, input: BusinessTaskInput, run: BusinessRun, engines: SearchNotifyEngines = searchNotifyEnginesOf(container),
): Promise<Record<string, unknown> | SkippedDailyStep> {
  const { org_slug: orgSlug, execution_id: executionId } = input;
  const [site, baseline] = await Promise.all([container.aiSites.get(orgSlug), dailyBaseline(container, orgSlug, executionId)]);
  const changedUrls = run.changed_urls;
  const siteChanges = baseline ? digestChanges(baseline, await publishedDigests(container, orgSlug, site)) : { changed: [], removed: [] };
  const counts = { ai_paths_changed: siteChanges.changed.length, ai_paths_removed: siteChanges.removed.length, store_urls_changed: changedUrls.length };
  const sitemap = await resubmitSitemap(container, orgSlug, engines.webmaster, site);
  if (changedUrls.length === 0 && siteChanges.changed.length === 0 && siteChanges.removed.length === 0) {
    return { skipped: 'this run published and found no change: no IndexNow submission', result: { ...counts, sitemap } };
  }
  const aiPaths = [...siteChanges.changed, ...siteChanges.removed];
  const indexNow = await submitIndexNow(container, { orgSlug, changedUrls, aiPaths }, engines, site);
  if (indexNow.skipped) return { skipped: indexNow.skipped, result: { ...counts, index_now: indexNow, sitemap } };
  if (!indexNow.ok) {
    const errors = indexNow.submissions.filter((s) => 'error' in s);
    const message = `IndexNow: ${errors.map((s) => ('error' in s ? s.error : '')).join('; ')}`;
    // Worth another attempt only when the engine was busy or unreachable; a refusal (400/403/422) is not.
    const transient = errors.some((s) => s.status === null || s.status === 429 || s.status >= 500);
    throw transient ? new UpstreamError(message) : Object.assign(new Error(message), { name: 'IndexNowRejected' });
  }
  return { ...counts, index_now: indexNow, sitemap };
}
