/**
 * POST /api/cron/deploy-site (KEY): deploys files in one release, generating the AI home,
 * the unified sitemap and robots.txt. The files are a site part like every producer's
 * (D109): `merge` (default) adds them to the files deployed through this route before,
 * `replace` replaces those; the generated parts are always published with them. Returns
 * only after the release is live.
 */
import * as z from 'zod/mini';
import { deployFilesAsPart } from '../../app/site-parts';
import { contentTypeOf } from '../../core/site/content-types';
import { releaseRelativePath } from '../../core/site/release';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';

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

export const handler = endpoint('POST /api/cron/deploy-site', { body }, async ({ body, container }) => {
  const result = await deployFilesAsPart(container, {
    orgSlug: body.business_id,
    files: body.files.map((f) => ({ path: f.path, content: f.content, contentType: contentTypeOf(f.path) })),
    mode: body.mode,
    storeSitemapUrls: body.store_sitemap_urls?.map((u) => (typeof u === 'string' ? { loc: u } : u)),
  });
  return {
    body: {
      status: 'success',
      deployment_url: result.deploymentUrl,
      release_id: result.releaseId,
      files_deployed: result.fileCount,
      deployed_at: result.deployedAt,
    },
  };
});
