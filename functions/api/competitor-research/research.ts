/**
 * POST /api/competitor-research?url= (PUBLIC, 10 requests/minute per IP by the manifest's
 * rate limit): top 5 competitors of a website. Answers `{success, data:{competitors}}`;
 * every expected failure answers `{success:false, error}` with an honest status (D15):
 * 400 missing/invalid/refused URL, 502 search API or network failure, 503 no search API,
 * 500 (no detail) for a bug.
 * (Failures before the handler, such as 429, keep the middleware's `{status, error}`.)
 */
import * as z from 'zod/mini';
import { researchCompetitors } from '../../app/competitors';
import { COMPETITOR_RESEARCH_RESULTS } from '../../core/constants';
import { AppError, ValidationError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { publicAuth } from '../../http/auth';

// Optional here so a missing url is answered in this route's own error shape.
const query = z.object({ url: z.optional(z.string()) });

/** The top 5 competitors (spec: Competitors). */
const found = z.object({
  success: z.literal(true),
  data: z.object({
    competitors: z.array(z.object({
      name: z.string(),
      website: z.string().check(z.describe('the competitor website\'s origin')),
      strengths: z.array(z.string()).check(z.describe('claims taken from its own page; empty when the page could not be read')),
      favicon_url: z.string(),
    })).check(z.maxLength(COMPETITOR_RESEARCH_RESULTS)),
  }),
});
// Failures are answered by the handler as `{success: false, error}` with their 4xx/5xx status
// (D15): the document's error shape, not this success contract.
export const handler = endpoint('POST /api/competitor-research', { authenticator: publicAuth, query, response: found }, async ({ query, container, log }) => {
  try {
    const url = query.url?.trim() ?? '';
    if (!url) throw new ValidationError('url is required (query parameter ?url=)');
    if (url.length > 2048) throw new ValidationError('url is longer than 2048 characters');
    const data = await researchCompetitors(container, url);
    return { body: { success: true, data } };
  } catch (err) {
    if (!(err instanceof AppError)) {
      // A bug, not a provider problem: logged in full, answered without detail.
      log.error('competitor research crashed', { error: err });
      return { statusCode: 500, body: { success: false, error: 'internal error' } };
    }
    log[err.status >= 500 ? 'error' : 'warn']('competitor research failed', { status: err.status, error: err.message });
    return { statusCode: err.status, headers: err.headers, body: { success: false, error: err.message } };
  }
});
