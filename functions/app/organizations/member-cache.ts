/**
 * The member cache of an organization record (spec: Events, "Organization member cache";
 * D8, D29): fetch the whole member list from the identity provider and store it, stamped
 * with the time the fetch started, so a slower fetch that started earlier never replaces a
 * newer list. Used by the webhook (functions/app/organizations/events.ts) and the members
 * read (functions/app/organizations/members.ts).
 */
import type { OrganizationRecord } from '../../core/organizations/members';
import type { Container } from '../../container';
import { idpDirectoryOf } from '../../engines/idp';
import { organizationsOf } from '../../engines/organizations';

export const ORGANIZATION_GONE_NOTE = 'the identity provider does not know this organization (404); its member list is empty';

export interface RefreshedMembers {
  /** The record as stored after the refresh (another writer's newer list, when it won). */
  record: OrganizationRecord;
  /** The provider answered 404 for the organization: the stored list is empty. */
  gone: boolean;
}

/**
 * Fetches and stores the members of a record linked to the provider. Throws what the
 * provider client throws (ProviderNotConfiguredError, UpstreamError); nothing is stored then.
 */
export async function refreshMembers(container: Container, record: OrganizationRecord & { providerOrgId: string }): Promise<RefreshedMembers> {
  const startedAt = container.clock.now().toISOString();
  const list = await idpDirectoryOf(container).listMembers(record.providerOrgId);
  const stored = list ?? { members: [], truncated: false };
  const saved = await organizationsOf(container).saveMembers(record.orgSlug, stored, startedAt);
  const current = saved
    ? { ...record, members: stored.members, membersTruncated: stored.truncated, membersSyncedAt: startedAt, updatedAt: startedAt }
    : ((await organizationsOf(container).get(record.orgSlug)) ?? record);
  return { record: current, gone: list === null };
}

