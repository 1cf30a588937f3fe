/**
 * POST /api/cron/submit-indexnow (KEY) `{urls: string[] (paths), source_url: string (customer
 * domain URL)}`: one IndexNow notification of those paths on the business whose customer
 * domain (or AI site, or store) `source_url` names. Paths take the form that resolves on the
 * host submitted (D28); what cannot be submitted comes back under `excluded` with the reason.
 */
import * as z from 'zod/mini';
import { businessOfSourceUrl } from '../../app/business-lookup';
import { submitIndexNow } from '../../app/site/search-notify';
import { endpoint } from '../../http/endpoint';
import { nullableString, requiredText } from '../../http/schemas';
import { keyAuth } from '../../http/auth/key';

const path = z.string().check(z.regex(/^\/[^\s]*$/, 'each url must be a path starting with /'), z.maxLength(2048));
const body = z.strictObject({
  urls: z.array(path).check(z.minLength(1, 'urls must hold at least one path'), z.maxLength(10_000, 'urls: at most 10,000 per submission')),
  source_url: requiredText('source_url', 2048),
});

/** 200: submitted, or `skipped` (a host search engines cannot fetch; nothing sent). A refused submission is a 502. */
const response = z.object({
  status: z.enum(['success', 'skipped']),
  business_id: z.string(),
  host: z.string().check(z.describe('the host the URLs were submitted for (the customer domain when one serves the site, else the AI-site host)')),
  key_location: z.string(),
  urls_submitted: z.number(),
  submissions: z.array(z.object({ status: z.number(), urls: z.number() })).check(z.describe('one per IndexNow request (at most 10,000 URLs each): the engine\'s HTTP status (200/202) and the URLs sent')),
  excluded: z.array(z.object({ url: z.string(), reason: z.string() })).check(z.describe('paths that could not be submitted on that host, with the reason (D28)')),
  ok: z.literal(true),
  skipped: nullableString.check(z.describe('why nothing was sent; null when submitted')),
});

export const handler = endpoint('POST /api/cron/submit-indexnow', { authenticator: keyAuth, body, response }, async ({ body, container }) => {
  const orgSlug = await businessOfSourceUrl(container, body.source_url);
  const result = await submitIndexNow(container, { orgSlug, aiPaths: body.urls });
  if (!result.ok) {
    // The error shape (its `error` says what the engine answered), with the submissions beside it.
    const reasons = result.submissions.flatMap((s) => ('error' in s && s.error ? [s.error] : []));
    return { statusCode: 502, body: { status: 'error', error: `IndexNow refused the submission: ${reasons.join('; ')}`, business_id: orgSlug, ...result } };
  }
  return { body: { status: result.skipped ? 'skipped' : 'success', business_id: orgSlug, ...result } };
});
