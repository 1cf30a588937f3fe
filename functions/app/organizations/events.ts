/**
 * What each identity-provider event does (spec: Events table; D29), once its signature is
 * verified and its body parsed (functions/api/webhooks/idp.ts):
 *
 * - organization.created: create (or revive) the record, link the provider id, set the name,
 *   fetch and store all members;
 * - organization.updated: update the name (unless the event is older than the stored name),
 *   refresh the members;
 * - organization.deleted: members become an empty list; the record is kept;
 * - organizationMembership.created / updated / deleted: refresh the members.
 *
 * The organization is found by the provider's id (GSI1), else by the event's slug. An
 * organization the service has never seen gets its record (D29); that needs the slug, the
 * service's only organization identifier. A slug changed at the provider is not followed:
 * the record keeps the slug it was created with (tokens and every other record use it).
 */
import { ValidationError } from '../../core/errors';
import { isMembershipEvent, type IdpEvent, type IdpEventOutcome } from '../../core/organizations/events';
import type { Container } from '../../container';
import { organizationsOf } from '../../engines/organizations';
import { ORGANIZATION_GONE_NOTE, refreshMembers } from './member-cache';

export async function applyIdpEvent(container: Container, event: IdpEvent): Promise<IdpEventOutcome> {
  const organizations = organizationsOf(container);
  const org = event.organization;
  const at = container.clock.now().toISOString();
  const known = (await organizations.findByProviderId(org.providerOrgId)) ?? (org.slug ? await organizations.get(org.slug) : null);
  const slug = known?.orgSlug ?? org.slug;
  const slugNote = known && org.slug && org.slug !== known.orgSlug
    ? `the organization's slug at the identity provider is now ${org.slug}; the service keeps ${known.orgSlug}`
    : undefined;

  if (event.type === 'organization.deleted') {
    if (!slug) return { orgSlug: null, note: 'organization unknown to this service and no slug given: nothing to delete' };
    if (!known || known.providerOrgId !== org.providerOrgId) await organizations.linkProvider(slug, { providerOrgId: org.providerOrgId, at });
    await organizations.markDeleted(slug, at);
    return { orgSlug: slug, memberCount: 0, ...(slugNote ? { note: slugNote } : {}) };
  }

  if (!slug) {
    const field = isMembershipEvent(event.type) ? 'data.organization.slug' : 'data.slug';
    throw new ValidationError(`invalid event: ${field}: required for an organization this service has not seen (provider id ${org.providerOrgId})`);
  }

  const organizationEvent = !isMembershipEvent(event.type);
  let record = known;
  if (!record || organizationEvent || record.providerOrgId !== org.providerOrgId) {
    record = await organizations.linkProvider(slug, {
      providerOrgId: org.providerOrgId,
      // Membership events name the organization too, but only organization events rename it.
      name: organizationEvent || !record?.name ? org.name : undefined,
      nameUpdatedAt: organizationEvent ? org.updatedAt : undefined,
      revive: event.type === 'organization.created',
      // Organization events always reach here, so the payment customer is linked in the same write.
      stripeCustomerId: organizationEvent ? org.stripeCustomerId : undefined,
      at,
    });
  }
  if (record.deletedAt) {
    return { orgSlug: slug, note: 'the organization is deleted: its member list stays empty' };
  }
  const refreshed = await refreshMembers(container, { ...record, providerOrgId: org.providerOrgId });
  const notes = [slugNote, refreshed.gone ? ORGANIZATION_GONE_NOTE : undefined].filter(Boolean);
  return { orgSlug: slug, memberCount: refreshed.record.members.length, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
