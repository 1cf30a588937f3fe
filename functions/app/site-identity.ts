/** Per-site values created once and kept: the IndexNow key the site proves ownership with. */
import { randomBytes } from 'node:crypto';
import type { Container } from '../container';
import { requireBusiness } from './business';

export async function siteIdentity(container: Container, orgSlug: string): Promise<{ indexNowKey: string }> {
  const site = await container.aiSites.get(orgSlug);
  if (site?.indexNowKey) return { indexNowKey: site.indexNowKey };
  const business = await requireBusiness(container, orgSlug);
  const indexNowKey = container.config.indexNowKey ?? randomBytes(16).toString('hex');
  await container.aiSites.patch(orgSlug, business.id, { indexNowKey });
  return { indexNowKey };
}
