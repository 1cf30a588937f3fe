import { NotFoundError } from '../core/errors';
import type { Business } from '../core/model';
import type { Container } from '../container';

/** The organization's business entity; 404 (NotFoundError) when it has none. */
export async function requireBusiness(container: Container, orgSlug: string): Promise<Business> {
  const business = await container.businesses.get(orgSlug);
  if (!business) throw new NotFoundError(`business ${orgSlug} not found`);
  return business;
}
