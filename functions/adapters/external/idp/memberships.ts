/**
 * The identity provider's membership API, modelled on Clerk's Backend API:
 *
 *   GET {IDP_API_URL}/organizations/{provider_org_id}/memberships?limit=<n>&offset=<n>
 *   Authorization: Bearer {IDP_SECRET_KEY}
 *   200 {"data": [<membership>...], "total_count": <n>}
 *
 * where a membership is `{id, role, public_user_data: {user_id, identifier, first_name,
 * last_name, image_url}, ...}` (other fields are ignored). IDP_API_URL includes the version
 * (`https://api.clerk.com/v1`). Pages of PAGE_SIZE are read until `total_count` members
 * came, a page is empty, or MEMBER_CACHE_MAX_MEMBERS are kept (then the list is marked
 * truncated). A member listed twice (the list shifted between pages) is kept once.
 *
 * Each page is one `requestJson` with the shared retries (vendor-request.ts): 429, 408,
 * 5xx, timeouts and network errors are retried a little (a webhook's sender waits for the
 * answer, and retries itself later); 401/403 and other 4xx are not. A 404 means the
 * organization does not exist at the provider: `null`. Any other failure is an
 * UpstreamError, whose message never contains the secret key.
 *
 * The settings are read at each call, from the container's config once `container.ready()`
 * has put the secret (an `accounts`-group secret on AWS) into it.
 */
import { MEMBER_CACHE_MAX_MEMBERS, MEMBER_FIELD_MAX_CHARS, type MemberList, type OrganizationMember } from '../../../core/organizations/members';
import { ProviderNotConfiguredError, UpstreamError } from '../../../core/errors';
import type { IdentityProviderDirectory } from '../../../ports';
import type { ProviderFetch } from '../provider-fetch';
import { createScrubber, requestJson, withRetries, type RetryPolicy } from '../vendor-request';

export const IDP_PAGE_SIZE = 100;
const LABEL = 'the identity provider';

export interface IdpDirectoryOptions {
  /** IDP_API_URL and IDP_SECRET_KEY, read per call. */
  settings: () => { apiUrl?: string; secretKey?: string };
  fetchImpl?: ProviderFetch;
  /** Per attempt. Default 5 000. */
  timeoutMs?: number;
  /** Default: 2 retries, 250 ms base, 1 s cap. */
  retry?: RetryPolicy;
  /** Default IDP_PAGE_SIZE. */
  pageSize?: number;
  /** Default MEMBER_CACHE_MAX_MEMBERS. */
  maxMembers?: number;
}

export function createIdpDirectory(options: IdpDirectoryOptions): IdentityProviderDirectory {
  const pageSize = options.pageSize ?? IDP_PAGE_SIZE;
  const maxMembers = options.maxMembers ?? MEMBER_CACHE_MAX_MEMBERS;
  const retry: RetryPolicy = { maxRetries: 2, retryBaseMs: 250, retryMaxMs: 1000, ...options.retry };

  return {
    async listMembers(providerOrgId) {
      const { apiUrl, secretKey } = options.settings();
      if (!apiUrl || !secretKey) {
        throw new ProviderNotConfiguredError('the identity provider API is not configured (IDP_API_URL and IDP_SECRET_KEY): organization members cannot be fetched');
      }
      const base = baseUrl(apiUrl);
      const scrub = createScrubber(secretKey);
      const members = new Map<string, OrganizationMember>();
      let offset = 0;
      let truncated = false;
      for (;;) {
        const url = `${base}/organizations/${encodeURIComponent(providerOrgId)}/memberships?limit=${pageSize}&offset=${offset}`;
        const outcome = await withRetries(
          () => requestJson({ url, method: 'GET', headers: { authorization: `Bearer ${secretKey}` }, timeoutMs: options.timeoutMs ?? 5000 }, { fetchImpl: options.fetchImpl, label: LABEL, scrub }),
          retry,
        );
        if (!outcome.ok) {
          if (outcome.failure.status === 404) return null;
          throw new UpstreamError(`organization members could not be fetched from ${LABEL}: ${outcome.reason}`);
        }
        const page = parsePage(outcome.value);
        for (const member of page.members) {
          if (members.size >= maxMembers) {
            truncated = true;
            break;
          }
          members.set(member.membership_id, member);
        }
        offset += page.members.length;
        if (truncated || page.members.length === 0 || offset >= page.totalCount) break;
      }
      return { members: [...members.values()], truncated } satisfies MemberList;
    },
  };
}

function baseUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new ProviderNotConfiguredError('IDP_API_URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProviderNotConfiguredError('IDP_API_URL must be an http(s) URL');
  return url.href.replace(/\/+$/, '');
}

const malformed = (what: string) => new UpstreamError(`${LABEL} answered a malformed membership list: ${what}`);

/** `{data: [...], total_count}`; each membership needs `id`, `role` and `public_user_data.user_id`. */
function parsePage(body: unknown): { members: OrganizationMember[]; totalCount: number } {
  if (!isObject(body) || !Array.isArray(body.data)) throw malformed('no data array');
  const totalCount = body.total_count;
  if (typeof totalCount !== 'number' || !Number.isFinite(totalCount) || totalCount < 0) throw malformed('no total_count');
  const members = body.data.map((item, i) => {
    const user = isObject(item) ? item.public_user_data : undefined;
    if (!isObject(item) || typeof item.id !== 'string' || !item.id) throw malformed(`data[${i}].id is missing`);
    if (typeof item.role !== 'string' || !item.role) throw malformed(`data[${i}].role is missing`);
    if (!isObject(user) || typeof user.user_id !== 'string' || !user.user_id) throw malformed(`data[${i}].public_user_data.user_id is missing`);
    return {
      membership_id: cut(item.id)!,
      user_id: cut(user.user_id)!,
      role: cut(item.role)!,
      identifier: cut(user.identifier),
      first_name: cut(user.first_name),
      last_name: cut(user.last_name),
      image_url: cut(user.image_url),
    };
  });
  return { members, totalCount };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const cut = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, MEMBER_FIELD_MAX_CHARS) : null);
