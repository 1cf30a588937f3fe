/** GET /organization/{org_id}/members (D8): JWT, same organization only (D5: another org is 403). */
import * as z from 'zod/mini';
import { readMembers } from '../../app/organizations/members';
import { endpoint } from '../../http/endpoint';
import { nullableString, orgSlug } from '../../http/schemas';
import { jwtAuth } from '../../http/auth/jwt';

/** One member, as the identity provider's membership API lists it (core/organizations/members.ts). */
const member = z.object({
  membership_id: z.string(),
  user_id: z.string(),
  role: z.string().check(z.describe('the provider\'s role key, e.g. org:admin')),
  identifier: nullableString.check(z.describe('the user\'s primary identifier (an email address or a username)')),
  first_name: nullableString,
  last_name: nullableString,
  image_url: nullableString,
}).check(z.meta({ id: 'Member' }));

/** The cached member list (app/organizations/members.ts MembersView). */
const response = z.object({
  org_id: z.string(),
  business_name: nullableString,
  members: z.array(member),
  members_synced_at: nullableString.check(z.describe('when the list was last fetched from the identity provider; null: never')),
  stale: z.boolean().check(z.describe('the list is older than 5 minutes and could not be refreshed')),
  stale_reason: z.optional(z.string()).check(z.describe('with stale: why it could not be refreshed')),
  members_truncated: z.optional(z.literal(true)).check(z.describe('the provider listed more members than the cache keeps')),
});

export const handler = endpoint('GET /organization/{org_id}/members', { authenticator: jwtAuth, path: z.object({ org_id: orgSlug }), response }, async ({ path, container }) => ({
  body: await readMembers(container, path.org_id),
}));
