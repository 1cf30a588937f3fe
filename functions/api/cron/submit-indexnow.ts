/**
 * POST /api/cron/submit-indexnow (KEY) `{urls: string[] (paths), source_url: string (customer
 * domain URL)}`: one IndexNow notification of those paths on the business whose customer
 * domain (or AI site, or store) `source_url` names. Paths take the form that resolves on the
 * host submitted (D28); what cannot be submitted comes back under `excluded` with the reason.
 */
import * as z from 'zod/mini';
import { businessOfSourceUrl } from '../../app/business-lookup';
import { submitIndexNow } from '../../app/search-notify';
import { endpoint } from '../../http/endpoint';
import { requiredText } from '../../http/schemas';

const path = z.string().check(z.regex(/^\/[^\s]*$/, 'each url must be a path starting with /'), z.maxLength(2048));
const body = z.strictObject({
  urls: z.array(path).check(z.minLength(1, 'urls must hold at least one path'), z.maxLength(10_000, 'urls: at most 10,000 per submission')),
  source_url: requiredText('source_url', 2048),
});

export const handler = endpoint('POST /api/cron/submit-indexnow', { body }, async ({ body, container }) => {
  const orgSlug = await businessOfSourceUrl(container, body.source_url);
  const result = await submitIndexNow(container, { orgSlug, aiPaths: body.urls });
  return {
    statusCode: result.ok ? 200 : 502,
    body: { status: result.skipped ? 'skipped' : result.ok ? 'success' : 'error', business_id: orgSlug, ...result },
  };
});
