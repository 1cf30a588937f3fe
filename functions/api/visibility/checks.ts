/**
 * GET /api/visibility/{business_id}/checks?date=&platform= (JWT, same org): the checks of
 * one day behind the score: each sampled prompt on each platform, with the answer, its
 * citations, the labels and who decided, or why there is no result. Kept 90 days (D119).
 */
import * as z from 'zod/mini';
import { PLATFORM_KEYS } from '../../core/constants';
import { requireBusiness } from '../../app/business';
import { visibilityRunDate } from '../cron/visibility-schemas';
import { endpoint } from '../../http/endpoint';
import { visibilityChecksResponse } from './visibility-responses';
import { isoDate, orgSlug } from '../../http/schemas';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('GET /api/visibility/{business_id}/checks', { authenticator: jwtAuth,
  path: z.object({ business_id: orgSlug }),
  response: visibilityChecksResponse,
  query: z.object({ date: z.optional(isoDate), platform: z.optional(z.enum(PLATFORM_KEYS)) }),
}, async ({ path, query, container }) => {
  await requireBusiness(container, path.business_id);
  const runDate = visibilityRunDate(container, query.date, 'date');
  const [checks, report] = await Promise.all([
    container.visibilityChecks.listChecks(path.business_id, runDate),
    container.visibilityChecks.getReport(path.business_id, runDate),
  ]);
  const selected = checks
    .filter((c) => !query.platform || c.platform === query.platform)
    .sort((a, b) => a.prompt_id.localeCompare(b.prompt_id) || a.platform.localeCompare(b.platform));
  return { body: { business_id: path.business_id, date: runDate, checks: selected, total: selected.length, report } };
});
