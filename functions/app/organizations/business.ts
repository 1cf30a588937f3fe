/**
 * The organization record's side of business creation (D11): its own module, so the many
 * bundles that only read the business (app/business.ts) do not carry the organization
 * repository (the 250 KB route budget).
 */
import type { Business } from '../../core/model';
import type { Container } from '../../container';
import { organizationsOf } from '../../engines/organizations';

/**
 * D11: creating the business creates the organization record too, or merges into the one
 * identity-provider events created first (D29): the business id is set, and the name when
 * the record has none yet (provider events keep the organization's name current).
 */
export async function mergeBusinessIntoOrganization(container: Container, business: Pick<Business, 'orgSlug' | 'id' | 'name'>): Promise<void> {
  await organizationsOf(container).mergeBusiness(business.orgSlug, { businessId: business.id, name: business.name, at: container.clock.now().toISOString() });
}
