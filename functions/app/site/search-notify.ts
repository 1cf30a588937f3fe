/**
 * Telling search engines about the AI site (spec: after all content is deployed, one IndexNow
 * submission per business and one sitemap resubmission to the webmaster console): the URLs
 * given, in the URL form that resolves on the host submitted (D28; rules in
 * core/indexnow/submission.ts), and the sitemap only once the site is verified. Used by the
 * daily run's batch 3 (daily/notify-search-engines.ts), the domain connection and the route.
 */
import { isPubliclyReachableHost, planIndexNowSubmissions } from '../../core/indexnow/submission';
import { aiSiteOrigin, type Container } from '../../container';
import { searchNotifyEnginesOf, type SearchNotifyEngines, type SitemapResubmission, type WebmasterClient } from '../../engines/search-notify';
import type { AiSiteRecord } from '../../core/model';
import { createLogger } from '../../logger';
import { siteIdentity } from './identity';
import { countMetric } from '../../metrics';

const log = createLogger({ component: 'search-notify' });

export interface NotifyInput {
  orgSlug: string;
  changedUrls?: readonly string[];
  /** Other changed AI-site paths (as on the AI-site host). */
  aiPaths?: readonly string[];
}

/** One IndexNow notification of a business's URLs (submit-indexnow, batch 3). */
export async function submitIndexNow(
  container: Container, input: NotifyInput, engines: SearchNotifyEngines = searchNotifyEnginesOf(container),
  /** The AI-site record when the caller has just read it. */
  known?: AiSiteRecord | null,
) {
  const site = known !== undefined ? known : await container.aiSites.get(input.orgSlug);
  const indexNowKey = site?.indexNowKey ?? (await siteIdentity(container, input.orgSlug)).indexNowKey;
  const plan = planIndexNowSubmissions({
    changedUrls: input.changedUrls, aiPaths: input.aiPaths,
    publicOrigin: site?.publicOrigin ?? null, aiSiteOrigin: aiSiteOrigin(container.config, input.orgSlug), key: indexNowKey,
  });
  // The public endpoint (no INDEXNOW_ENDPOINT set) is never sent a local site's URLs.
  const skipped = !container.config.indexNowEndpoint && !isPubliclyReachableHost(plan.host)
    ? `${plan.host} is not a public host: search engines could not fetch it, so nothing was sent (INDEXNOW_ENDPOINT sends anyway)`
    : null;
  const results = [];
  if (!skipped) for (const submission of plan.submissions) results.push(await engines.indexNow.submit(submission));
  const failed = results.filter((r) => !r.ok);
  if (failed.length) {
    log.warn('IndexNow submission failed', { org: input.orgSlug, reasons: failed.map((r) => (r.ok ? '' : r.reason)) });
    countMetric('VendorErrors', failed.length, { vendor: 'indexnow' });
  }
  return {
    host: plan.host,
    key_location: plan.keyLocation,
    urls_submitted: results.filter((r) => r.ok).reduce((n, r) => n + r.urlCount, 0),
    submissions: results.map((r) => (r.ok ? { status: r.status, urls: r.urlCount } : { status: r.status ?? null, urls: r.urlCount, error: r.reason })),
    excluded: [...plan.excluded, ...plan.refused],
    ok: failed.length === 0,
    skipped,
  };
}

/**
 * The sitemap to the webmaster console (batch 3, domain connection, resubmit-sitemap): only
 * for a property domain connection verified (`sc-domain:<naked domain>`) and a site served on
 * that domain (its sitemap URL must be inside the property); otherwise skipped with the reason.
 */
export async function resubmitSitemap(
  container: Container,
  orgSlug: string,
  webmaster: Pick<WebmasterClient, 'resubmitSitemap'> = searchNotifyEnginesOf(container).webmaster,
  known?: AiSiteRecord | null,
): Promise<SitemapResubmission> {
  const site = known === undefined ? await container.aiSites.get(orgSlug) : known;
  const verified = site?.webmasterVerified === true;
  const publicOrigin = site?.publicOrigin ?? null;
  if (verified && !publicOrigin) return { status: 'skipped', reason: 'the site is not served on the verified domain (the domain is not connected)' };
  const origin = publicOrigin ?? aiSiteOrigin(container.config, orgSlug);
  // The Domain property domain connection verified, else the URL-prefix property of the origin.
  const siteUrl = typeof site?.webmasterSiteUrl === 'string' ? site.webmasterSiteUrl : origin;
  return webmaster.resubmitSitemap({ siteUrl, sitemapUrl: `${origin}/sitemap.xml`, verified });
}
