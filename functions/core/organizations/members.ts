/**
 * The organization record and its member cache (spec: "Organization member cache",
 * `idp_organization_details`; D8, D11, D29). Pure: types and the cache rules, no I/O.
 */
import { MEMBER_CACHE_TTL_SECONDS } from '../constants';

/** One member of an organization, as the identity provider's membership API lists it. */
export interface OrganizationMember {
  /** The membership's id at the identity provider. */
  membership_id: string;
  user_id: string;
  /** The provider's role key, e.g. `org:admin`. */
  role: string;
  /** The user's primary identifier (an email address or a username). */
  identifier: string | null;
  first_name: string | null;
  last_name: string | null;
  image_url: string | null;
}

/**
 * One record per organization, keyed by its slug (the single organization identifier, D5).
 * Created by `POST /api/business` (D11) or by the first identity-provider event naming the
 * organization (D29), whichever comes first; the other merges into it. Kept when the
 * organization is deleted (its members become an empty list).
 */
export interface OrganizationRecord {
  orgSlug: string;
  /** The organization's name (provider events keep it current; business creation sets it when none is known). */
  name: string | null;
  /** The identity provider's organization id (`org_...`): what its membership API is called with. */
  providerOrgId: string | null;
  /** The business entity's id (`business_uuid`), once the business is created. */
  businessId: string | null;
  members: OrganizationMember[];
  /** When the member list was last fetched from the provider (ISO); null: never. */
  membersSyncedAt: string | null;
  /** The provider listed more members than the cache keeps (MEMBER_CACHE_MAX_MEMBERS). */
  membersTruncated: boolean;
  /** The payment provider's customer id (billing reads it). */
  stripeCustomerId: string | null;
  /** Set by `organization.deleted`: the record is kept, its members emptied, no refresh follows. */
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A member list as the provider answered it. */
export interface MemberList {
  members: OrganizationMember[];
  /** More members exist than were kept. */
  truncated: boolean;
}

/**
 * The most members one record keeps. The list lives in one DynamoDB item (400 KB), and a
 * member is about 250 bytes: 500 leaves ample room. Past it the first 500 (the provider's
 * order) are kept and the record says the list is truncated.
 */
export const MEMBER_CACHE_MAX_MEMBERS = 500;

/** Member string fields are cut to this length, so one odd value cannot outgrow the item. */
export const MEMBER_FIELD_MAX_CHARS = 512;

/** The spec's 5-minute validity: a list at most this old is served without asking the provider. */
export const MEMBER_CACHE_TTL_MS = MEMBER_CACHE_TTL_SECONDS * 1000;

/** Fresh when synced no more than 5 minutes ago ("older than 5 minutes" refreshes, D8). */
export function isMemberCacheFresh(membersSyncedAt: string | null, now: Date): boolean {
  if (!membersSyncedAt) return false;
  const synced = Date.parse(membersSyncedAt);
  if (!Number.isFinite(synced)) return false;
  return now.getTime() - synced <= MEMBER_CACHE_TTL_MS;
}

