/** GET /organization/{org_id}/members (D8): JWT, same organization only (D5: another org is 403). */
import * as z from 'zod/mini';
import { readMembers } from '../../app/organization-members';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';

export const handler = endpoint('GET /organization/{org_id}/members', { path: z.object({ org_id: orgSlug }) }, async ({ path, container }) => ({
  body: await readMembers(container, path.org_id),
}));
