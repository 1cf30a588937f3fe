/** Resolves the entity an operation targets: the business, or one of its products. */
import { NotFoundError } from '../core/errors';
import type { Container } from '../container';
import { requireBusiness } from '../app/business';

export interface EntityRef {
  orgSlug: string;
  entityId: string;
  /** Product slug, null for the business. */
  productId: string | null;
  name: string;
}

export async function resolveEntity(container: Container, orgSlug: string, productId?: string | null): Promise<EntityRef> {
  const business = await requireBusiness(container, orgSlug);
  if (!productId) return { orgSlug, entityId: business.id, productId: null, name: business.name };
  const product = await container.products.find(orgSlug, productId);
  if (!product) throw new NotFoundError(`product ${productId} not found for business ${orgSlug}`);
  return { orgSlug, entityId: product.id, productId: product.productId, name: product.name };
}

