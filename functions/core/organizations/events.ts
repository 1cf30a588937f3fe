/**
 * Identity-provider events (spec: Events; D29): which types the service acts on and what
 * each one does to the organization record. The wire format is parsed at the edge
 * (functions/api/webhooks/idp.ts); this is the parsed form.
 */

export const ORGANIZATION_EVENT_TYPES = ['organization.created', 'organization.updated', 'organization.deleted'] as const;
export const MEMBERSHIP_EVENT_TYPES = ['organizationMembership.created', 'organizationMembership.updated', 'organizationMembership.deleted'] as const;

export type OrganizationEventType = (typeof ORGANIZATION_EVENT_TYPES)[number];
export type MembershipEventType = (typeof MEMBERSHIP_EVENT_TYPES)[number];
export type HandledEventType = OrganizationEventType | MembershipEventType;

export const isOrganizationEvent = (type: string): type is OrganizationEventType => (ORGANIZATION_EVENT_TYPES as readonly string[]).includes(type);
export const isMembershipEvent = (type: string): type is MembershipEventType => (MEMBERSHIP_EVENT_TYPES as readonly string[]).includes(type);
export const isHandledEvent = (type: string): type is HandledEventType => isOrganizationEvent(type) || isMembershipEvent(type);

/** The organization an event names: `data` of organization events, `data.organization` of membership events. */
export interface EventOrganization {
  /** The provider's organization id (`org_...`). */
  providerOrgId: string;
  /** The organization slug, when the event carries one. */
  slug?: string;
  name?: string;
  /** The provider's `updated_at` of the organization (ms), when given: orders name changes. */
  updatedAt?: number;
  /**
   * The payment provider's customer id, from the organization's `public_metadata.stripe_customer_id`
   * (where the billing side records it at the identity provider; D143).
   */
  stripeCustomerId?: string;
}

export interface IdpEvent {
  type: HandledEventType;
  organization: EventOrganization;
}

/** What processing one event did, for the response and the logs. */
export interface IdpEventOutcome {
  orgSlug: string | null;
  /** Members stored by this event (absent when the list was not fetched). */
  memberCount?: number;
  /** Why nothing (or less than usual) was done, when that is the case. */
  note?: string;
}
