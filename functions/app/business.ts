import { NotFoundError } from '../core/errors';
import type { Business } from '../core/model';
import type { Container } from '../container';
import { organizationsOf } from '../engines/organizations';

/** The organization's business entity; 404 (NotFoundError) when it has none. */
export async function requireBusiness(container: Container, orgSlug: string): Promise<Business> {
  const business = await container.businesses.get(orgSlug);
  if (!business) throw new NotFoundError(`business ${orgSlug} not found`);
  return business;
}

/**
 * D11: creating the business creates the organization record too, or merges into the one
 * identity-provider events created first (D29): the business id is set, and the name when
 * the record has none yet (provider events keep the organization's name current).
 */
export async function mergeBusinessIntoOrganization(container: Container, business: Pick<Business, 'orgSlug' | 'id' | 'name'>): Promise<void> {
  await organizationsOf(container).mergeBusiness(business.orgSlug, { businessId: business.id, name: business.name, at: container.clock.now().toISOString() });
}
