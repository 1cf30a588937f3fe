/**
 * The organization's payment customer id: the one place the billing use cases ask.
 * It is the organization record's `stripeCustomerId` (D11's record, `ORG#<slug>` /
 * `ORGANIZATION`, written by `organizations.setStripeCustomerId`). "Organization not found"
 * (spec Errors, 404) means no organization record: one is created with the business (D11)
 * or by the identity provider's organization events (D29).
 */
import { NotFoundError } from '../../core/errors';
import type { Container } from '../../container';
import { organizationsOf } from '../../engines/organizations';

/** The linked customer id, or null when none is linked; 404 when the organization has no record. */
export async function paymentCustomerOf(container: Container, orgSlug: string): Promise<string | null> {
  const record = await organizationsOf(container).get(orgSlug);
  if (!record) throw new NotFoundError(`organization ${orgSlug} not found`);
  return record.stripeCustomerId?.trim() || null;
}
