/** Per-site values created once and kept: the IndexNow key the site proves ownership with. */
import { randomBytes } from 'node:crypto';
import { NotFoundError } from '../core/errors';
import type { Container } from '../container';

export async function siteIdentity(container: Container, orgSlug: string): Promise<{ indexNowKey: string }> {
  const site = await container.aiSites.get(orgSlug);
  if (typeof site?.indexNowKey === 'string') return { indexNowKey: site.indexNowKey };
  const business = await container.businesses.get(orgSlug);
  if (!business) throw new NotFoundError(`business ${orgSlug} not found`);
  const indexNowKey = container.config.indexNowKey ?? randomBytes(16).toString('hex');
  await container.aiSites.patch(orgSlug, business.id, { indexNowKey });
  return { indexNowKey };
}
