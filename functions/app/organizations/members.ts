/**
 * GET /organization/{org_id}/members (D8): the cached member list, refreshed from the
 * identity provider first when it is older than 5 minutes (or was never fetched).
 *
 * When that refresh fails and a list was fetched before, the cached list is served with
 * `stale: true` and the reason: the members are rarely wrong for long (webhooks keep them
 * current), while an error would empty the dashboard whenever the provider hiccups. With no
 * list at all the provider's failure is the answer (502 UpstreamError, 503 when the provider
 * is not configured). A deleted organization's empty list is served as it is: there is
 * nothing left to refresh. A record not yet linked to the provider (the business was created
 * before any provider event arrived) has nothing to refresh from: its (empty) list is
 * served as stale, saying why.
 */
import { AppError, NotFoundError } from '../../core/errors';
import { isMemberCacheFresh, type OrganizationMember, type OrganizationRecord } from '../../core/organizations/members';
import type { Container } from '../../container';
import { refreshMembers } from './member-cache';
import { organizationsOf } from '../../engines/organizations';

export interface MembersView {
  org_id: string;
  business_name: string | null;
  members: OrganizationMember[];
  members_synced_at: string | null;
  /** The list could not be refreshed although it is older than 5 minutes (or was never fetched). */
  stale: boolean;
  stale_reason?: string;
  /** The provider listed more members than the cache keeps. */
  members_truncated?: true;
}

export const NOT_LINKED_REASON = 'no identity-provider event has named this organization yet, so its members cannot be fetched';

export async function readMembers(container: Container, orgSlug: string): Promise<MembersView> {
  const record = await organizationsOf(container).get(orgSlug);
  if (!record) throw new NotFoundError(`organization ${orgSlug} not found`);
  if (record.deletedAt || isMemberCacheFresh(record.membersSyncedAt, container.clock.now())) return view(record);
  if (!record.providerOrgId) return view(record, NOT_LINKED_REASON);
  try {
    const { record: refreshed } = await refreshMembers(container, { ...record, providerOrgId: record.providerOrgId });
    return view(refreshed);
  } catch (err) {
    if (!(err instanceof AppError) || !record.membersSyncedAt) throw err;
    return view(record, err.message);
  }
}

function view(record: OrganizationRecord, staleReason?: string): MembersView {
  return {
    org_id: record.orgSlug,
    business_name: record.name,
    members: record.members,
    members_synced_at: record.membersSyncedAt,
    stale: staleReason !== undefined,
    ...(staleReason !== undefined ? { stale_reason: staleReason } : {}),
    ...(record.membersTruncated ? { members_truncated: true as const } : {}),
  };
}
