/** The auth classes of the spec's Authentication table, verified once for every route. */
import { ForbiddenError } from '../../core/errors';
import type { Container } from '../../container';
import type { AuthClass } from '../../routes';

/** What each auth class proves about a request. */
interface AuthContexts {
  PUBLIC: { kind: 'public' };
  JWT: { kind: 'jwt'; orgId: string; subject?: string };
  KEY: { kind: 'key' };
  WEBHOOK: { kind: 'webhook'; messageId: string };
}
export type AuthContextOf<C extends AuthClass> = AuthContexts[C];
export type AuthContext = AuthContextOf<AuthClass>;

/** The `kind` each auth class yields: what the middleware checks once for every route. */
export const AUTH_KIND: { [C in AuthClass]: AuthContexts[C]['kind'] } = { PUBLIC: 'public', JWT: 'jwt', KEY: 'key', WEBHOOK: 'webhook' };

/**
 * How one auth class verifies a request. Each class's verifier lives in its own module
 * (key.ts, jwt.ts, webhook.ts) and a route names its own, so a bundle carries only the
 * library its class needs: jose for JWT routes, svix for webhooks, neither for KEY routes.
 */
export interface Authenticator<C extends AuthClass> {
  readonly authClass: C;
  verify(headers: Record<string, string | undefined>, rawBody: string, container: Container): Promise<AuthContextOf<C>>;
}

/** PUBLIC routes: nothing to prove. */
export const publicAuth: Authenticator<'PUBLIC'> = { authClass: 'PUBLIC', verify: async () => ({ kind: 'public' }) };

/** D5: an organization named in the path, query or body must be the token's own. */
export function assertSameOrganization(auth: AuthContext, named: Array<string | undefined>): void {
  if (auth.kind !== 'jwt') return;
  for (const org of named) {
    if (org !== undefined && org !== auth.orgId) throw new ForbiddenError('the organization in the request is not the organization of the token');
  }
}
