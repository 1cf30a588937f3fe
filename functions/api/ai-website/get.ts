/** GET /api/ai-website/{org_slug} (PUBLIC, D7): errors are `{detail}` with 404 (D15). */
import * as z from 'zod/mini';
import { NotFoundError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { nullableString, orgSlug } from '../../http/schemas';
import { publicAuth } from '../../http/auth';

export const handler = endpoint('GET /api/ai-website/{org_slug}', { authenticator: publicAuth,
  path: z.object({ org_slug: orgSlug }),
  errorShape: 'detail',
  response: z.object({
    status: z.literal('success'),
    deployment_url: z.string(),
    project_name: nullableString.check(z.describe('hosting project name (the organization slug); null on a site record that never named one')),
    deployed_at: z.string().check(z.describe('ISO timestamp of the last deployment')),
    business_name: z.string(),
    source_url: z.string().check(z.describe('the website the AI site mirrors')),
  }),
}, async ({ path, container }) => {
  const business = await container.businesses.get(path.org_slug);
  if (!business) throw new NotFoundError(`Business ${path.org_slug} not found`);
  const site = await container.aiSites.get(path.org_slug);
  if (!site?.deployedAt || !site.deploymentUrl) throw new NotFoundError(`No AI website has been deployed for ${path.org_slug} yet`);
  return {
    body: {
      status: 'success',
      deployment_url: site.deploymentUrl,
      project_name: site.projectName,
      deployed_at: site.deployedAt,
      business_name: business.name,
      source_url: site.sourceUrl ?? business.url,
    },
  };
});
