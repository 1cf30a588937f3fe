/**
 * GET /api/explore/competitor/{competitor_id} (JWT): one competitor of the token's
 * organization. A non-UUID id is 400; an unknown id, or another organization's, is 404
 * `competitor not found` (the lookup is scoped to the token's partition, so another
 * organization's competitor is simply not there).
 */
import * as z from 'zod/mini';
import { UUID_PATTERN } from '../../core/competitors/rules';
import { NotFoundError } from '../../core/errors';
import { competitorEnginesOf } from '../../engines/competitors';
import { endpoint } from '../../http/endpoint';
import { competitorDetailView } from './competitor-view';
import { requireBusiness } from '../../app/business';
import { competitorDetailResponse } from './explore-responses';
import { jwtAuth } from '../../http/auth/jwt';

const path = z.object({ competitor_id: z.string().check(z.regex(UUID_PATTERN, 'must be a UUID')) });

export const handler = endpoint('GET /api/explore/competitor/{competitor_id}', { authenticator: jwtAuth, path, response: competitorDetailResponse }, async ({ path, auth, container }) => {
  await requireBusiness(container, auth.orgId);
  const competitor = await competitorEnginesOf(container).repo.get(auth.orgId, path.competitor_id.toLowerCase());
  if (!competitor) throw new NotFoundError('competitor not found');
  return {
    body: {
      status: 'success',
      competitor: competitorDetailView(competitor),
    },
  };
});
