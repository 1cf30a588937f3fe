/**
 * A local stand-in for the identity provider's membership API (node:http on 127.0.0.1),
 * speaking the wire format the client expects (Clerk's Backend API;
 * functions/adapters/external/idp/memberships.ts). Set IDP_API_URL to its `url` and
 * IDP_SECRET_KEY to its `secretKey`.
 *
 * - `GET /v1/organizations/{organization_id}/memberships?limit=&offset=` with
 *   `Authorization: Bearer <secret key>`: `{data: [<membership>], total_count}`, memberships
 *   in the order they were added; `limit` 1-500 (default 10), `offset` >= 0;
 * - 401 without the bearer key, 403 with a wrong one, 404 for an unknown organization,
 *   422 for a bad limit/offset, 404 for any other path; errors are `{errors: [{code, message}]}`;
 * - `failNext(status, count)` makes the next requests answer that status first (a 503 with
 *   `Retry-After: 0` by default, so clients retry at once); `down()` answers every request 503
 *   until `up()`.
 * Every request is recorded in `requests`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer } from '../runtime/close-server';
import { listen } from '../runtime/listen';

export interface FakeMemberInput {
  userId: string;
  role?: string;
  identifier?: string;
  firstName?: string | null;
  lastName?: string | null;
  imageUrl?: string | null;
  /** Default `orgmem_<userId>`. */
  membershipId?: string;
}

export interface FakeOrganization {
  id: string;
  slug: string;
  name: string;
}

export interface IdpFakeRequest {
  method: string;
  path: string;
  limit?: number;
  offset?: number;
  authorized: boolean;
  status: number;
}

export interface IdpApiFake {
  /** The value for IDP_API_URL: `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** The value for IDP_SECRET_KEY. */
  secretKey: string;
  port: number;
  requests: IdpFakeRequest[];
  /** Creates or replaces an organization and its members. */
  setOrganization(org: FakeOrganization, members: FakeMemberInput[]): void;
  addMember(orgId: string, member: FakeMemberInput): void;
  removeMember(orgId: string, userId: string): void;
  setRole(orgId: string, userId: string, role: string): void;
  deleteOrganization(orgId: string): void;
  /** The membership object the API lists (also what a membership event's `data` looks like). */
  membership(orgId: string, userId: string): Record<string, unknown>;
  /** The next `count` requests answer `status` (before anything else). */
  failNext(status: number, count?: number): void;
  /** Every request answers 503 until `up()`. */
  down(): void;
  up(): void;
  /** Requests for the memberships of one organization, in order. */
  membershipRequests(orgId: string): IdpFakeRequest[];
  reset(): void;
  close(): Promise<void>;
}

const MEMBERSHIPS_PATH = /^\/v1\/organizations\/([^/]+)\/memberships$/;

export async function startIdpApiFake(options: { port?: number; secretKey?: string } = {}): Promise<IdpApiFake> {
  const secretKey = options.secretKey ?? 'sk_test_idp_fake_secret_key';
  const organizations = new Map<string, { org: FakeOrganization; members: Map<string, FakeMemberInput & { createdAt: number }> }>();
  const requests: IdpFakeRequest[] = [];
  const injected: number[] = [];
  let isDown = false;
  let clock = Date.parse('2026-01-01T00:00:00Z');

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const error = (code: string, message: string) => ({ errors: [{ code, message, long_message: message }] });

  const membershipObject = (org: FakeOrganization, m: FakeMemberInput & { createdAt: number }) => ({
    object: 'organization_membership',
    id: m.membershipId ?? `orgmem_${m.userId}`,
    role: m.role ?? 'org:member',
    role_name: (m.role ?? 'org:member') === 'org:admin' ? 'Admin' : 'Member',
    permissions: [],
    public_metadata: {},
    created_at: m.createdAt,
    updated_at: m.createdAt,
    organization: { object: 'organization', id: org.id, name: org.name, slug: org.slug },
    public_user_data: {
      user_id: m.userId,
      identifier: m.identifier ?? `${m.userId}@example.com`,
      first_name: m.firstName ?? null,
      last_name: m.lastName ?? null,
      image_url: m.imageUrl ?? `https://img.example/${m.userId}`,
      has_image: false,
    },
  });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://idp.fake');
    const auth = req.headers.authorization ?? '';
    const record: IdpFakeRequest = { method: req.method ?? '', path: url.pathname, authorized: auth === `Bearer ${secretKey}`, status: 0 };
    requests.push(record);
    const answer = (status: number, body: unknown, headers?: Record<string, string>) => {
      record.status = status;
      send(res, status, body, headers);
    };

    const failure = injected.shift() ?? (isDown ? 503 : undefined);
    if (failure !== undefined) return answer(failure, error('injected', `injected failure (HTTP ${failure})`), { 'retry-after': '0' });
    const match = MEMBERSHIPS_PATH.exec(url.pathname);
    if (!match || req.method !== 'GET') return answer(404, error('resource_not_found', `no endpoint ${req.method} ${url.pathname}`));
    if (!auth.startsWith('Bearer ')) return answer(401, error('authentication_invalid', 'missing bearer secret key'));
    if (!record.authorized) return answer(403, error('authentication_invalid', 'invalid secret key'));

    const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : 10;
    const offset = url.searchParams.has('offset') ? Number(url.searchParams.get('offset')) : 0;
    record.limit = limit;
    record.offset = offset;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) return answer(422, error('form_param_value_invalid', 'limit must be 1-500'));
    if (!Number.isInteger(offset) || offset < 0) return answer(422, error('form_param_value_invalid', 'offset must be 0 or more'));
    const entry = organizations.get(decodeURIComponent(match[1]));
    if (!entry) return answer(404, error('resource_not_found', 'organization not found'));
    const all = [...entry.members.values()];
    answer(200, { data: all.slice(offset, offset + limit).map((m) => membershipObject(entry.org, m)), total_count: all.length });
  };

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  const port = await listen(server, options.port);
  const orgOf = (orgId: string) => {
    const entry = organizations.get(orgId);
    if (!entry) throw new Error(`fake identity provider: no organization ${orgId}`);
    return entry;
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    secretKey,
    port,
    requests,
    setOrganization(org, members) {
      organizations.set(org.id, { org, members: new Map(members.map((m) => [m.userId, { ...m, createdAt: clock++ }])) });
    },
    addMember(orgId, member) {
      orgOf(orgId).members.set(member.userId, { ...member, createdAt: clock++ });
    },
    removeMember(orgId, userId) {
      orgOf(orgId).members.delete(userId);
    },
    setRole(orgId, userId, role) {
      const member = orgOf(orgId).members.get(userId);
      if (!member) throw new Error(`fake identity provider: ${userId} is not a member of ${orgId}`);
      member.role = role;
    },
    deleteOrganization(orgId) {
      organizations.delete(orgId);
    },
    membership(orgId, userId) {
      const entry = orgOf(orgId);
      const member = entry.members.get(userId);
      return membershipObject(entry.org, member ?? { userId, createdAt: clock });
    },
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) injected.push(status);
    },
    down() {
      isDown = true;
    },
    up() {
      isDown = false;
    },
    membershipRequests: (orgId) => requests.filter((r) => r.path === `/v1/organizations/${encodeURIComponent(orgId)}/memberships`),
    reset() {
      requests.length = 0;
      injected.length = 0;
      isDown = false;
    },
    close: () => closeServer(server),
  };
}
