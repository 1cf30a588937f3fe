/** Per-site values: the AI-site host name, and the IndexNow key the site proves ownership with (created once and kept). */
import { randomBytes } from 'node:crypto';
import { aiSiteOrigin, type Container } from '../../container';
import { requireBusiness } from '../business';

/**
 * The AI-site host name of a business (`{slug}.{AI_SITE_DOMAIN}`, no scheme, no port). Here, not
 * in app/domain/cdn.ts, so readers of the name do not carry the CDN engine in their bundles.
 */
export const aiSiteHostOf = (container: Container, orgSlug: string): string => new URL(aiSiteOrigin(container.config, orgSlug)).hostname;

export async function siteIdentity(container: Container, orgSlug: string): Promise<{ indexNowKey: string }> {
  const site = await container.aiSites.get(orgSlug);
  if (site?.indexNowKey) return { indexNowKey: site.indexNowKey };
  const business = await requireBusiness(container, orgSlug);
  const indexNowKey = container.config.indexNowKey ?? randomBytes(16).toString('hex');
  await container.aiSites.patch(orgSlug, business.id, { indexNowKey });
  return { indexNowKey };
}
