/** GET /api/explore/competitors (JWT): the token organization's competitors, oldest first. */
import { competitorEnginesOf } from '../../engines/competitors';
import { endpoint } from '../../http/endpoint';
import { requireBusiness } from '../../app/business';
import { listCompetitorsResponse } from './explore-responses';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('GET /api/explore/competitors', { authenticator: jwtAuth, response: listCompetitorsResponse }, async ({ auth, container }) => {
  await requireBusiness(container, auth.orgId);
  const competitors = await competitorEnginesOf(container).repo.list(auth.orgId);
  return {
    body: {
      status: 'success',
      competitors: competitors.map((c) => ({ id: c.id, name: c.name, url: c.url, favicon_url: c.faviconUrl, source: c.source })),
      count: competitors.length,
    },
  };
});
