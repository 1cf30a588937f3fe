/**
 * POST /api/cron/deploy-site (KEY): deploys files in one release, generating the AI home,
 * the unified sitemap and robots.txt. The files are a site part like every producer's
 * (D109): `merge` (default) adds them to the files deployed through this route before,
 * `replace` replaces those; the generated parts are always published with them. Runs as a
 * site-publish execution (D20, D149): the response once the release is live, within 20 s,
 * else 202 and the read-back URL.
 */
import * as z from 'zod/mini';
import { awaitSitePublish, startSitePublish } from '../../app/site/publish-run';
import { contentTypeOf } from '../../core/site/content-types';
import { releaseRelativePath } from '../../core/site/release';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { toApiResult, waitBudget } from '../../http/workflow-http';
import { deploySiteResponse } from './publish-schemas';
import { keyAuth } from '../../http/auth/key';

const file = z.object({
  path: z.string().check(z.refine((p) => { try { releaseRelativePath(p); return true; } catch { return false; } }, 'must be an absolute file path like /llms.txt or /ai/x/index.html')),
  content: z.string(),
});
const sitemapUrl = z.union([z.url(), z.object({ loc: z.url(), lastmod: z.optional(z.string()) })]);

const body = z.object({
  business_id: orgSlug,
  files: z.array(file).check(z.minLength(1, 'files must contain at least one file'), z.maxLength(20_000)),
  mode: z.optional(z.enum(['merge', 'replace'])),
  store_sitemap_urls: z.optional(z.array(sitemapUrl).check(z.maxLength(50_000))),
});

export const handler = endpoint('POST /api/cron/deploy-site', { authenticator: keyAuth, body, response: deploySiteResponse }, async ({ body, headers, container, route }) => {
  const executionId = await startSitePublish(container, 'deploy-site', body.business_id, {
    orgSlug: body.business_id,
    files: body.files.map((f) => ({ path: f.path, content: f.content, contentType: contentTypeOf(f.path) })),
    mode: body.mode,
    storeSitemapUrls: body.store_sitemap_urls?.map((u) => (typeof u === 'string' ? { loc: u } : u)),
  });
  const { budgetMs, applied } = waitBudget(headers);
  return toApiResult(await awaitSitePublish(container, executionId, `${route.path}/${executionId}`, budgetMs), applied);
});
