/** The auth classes of the spec's Authentication table, verified once for every route. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import { Webhook, WebhookVerificationError } from 'svix/dist/webhook';
import { countMetric } from '../metrics';
import { ORG_SLUG_PATTERN } from '../core/constants';
import { ForbiddenError, ProviderNotConfiguredError, UnauthorizedError, ValidationError } from '../core/errors';
import type { Container } from '../container';
import type { AuthClass } from '../routes';

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

/** Asymmetric algorithms only: an HS256 token can never be forged with a public key. */
const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];
const CLOCK_SKEW_SECONDS = 5;

export async function authenticate(
  auth: AuthClass,
  headers: Record<string, string | undefined>,
  rawBody: string,
  container: Container,
): Promise<AuthContext> {
  switch (auth) {
    case 'PUBLIC':
      return { kind: 'public' };
    case 'JWT':
      return verifyBearer(headers.authorization, container);
    case 'KEY':
      return verifyApiKey(headers['x-api-key'], headers['x-api-key'] ? await container.secrets.apiKey() : undefined);
    case 'WEBHOOK':
      return verifyWebhook(headers, rawBody, () => container.secrets.idpWebhookSecret());
  }
}

async function verifyBearer(header: string | undefined, container: Container): Promise<AuthContext> {
  if (!header) throw new UnauthorizedError('missing Authorization header (expected: Bearer <token>)');
  const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i.exec(header.trim());
  if (!match) throw new UnauthorizedError('malformed Authorization header (expected: Bearer <token>)');
  const { jwks, config } = container;
  if (!jwks || !config.jwt.issuer) {
    throw new ProviderNotConfiguredError('token verification is not configured (JWT_JWKS_URL and JWT_ISSUER)');
  }
  try {
    const { payload } = await jwtVerify(match[1], jwks, {
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      algorithms: JWT_ALGORITHMS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['exp', 'org_id'],
    });
    const orgId = payload.org_id;
    if (typeof orgId !== 'string' || !ORG_SLUG_PATTERN.test(orgId)) throw new UnauthorizedError('token has no valid org_id claim');
    return { kind: 'jwt', orgId, subject: payload.sub };
  } catch (err) {
    throw toAuthError(err);
  }
}

function toAuthError(err: unknown): Error {
  if (err instanceof UnauthorizedError) return err;
  if (err instanceof joseErrors.JWTExpired) return new UnauthorizedError('token expired');
  if (err instanceof joseErrors.JWTClaimValidationFailed) return new UnauthorizedError(`token claim rejected: ${err.claim}`);
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return new UnauthorizedError('token algorithm not allowed');
  if (err instanceof joseErrors.JWKSTimeout || (err as Error)?.name === 'TypeError') {
    return new ProviderNotConfiguredError('token keys could not be fetched from JWT_JWKS_URL');
  }
  return new UnauthorizedError('invalid token');
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function verifyApiKey(given: string | undefined, expected: string | undefined): AuthContext {
  if (!given) throw new UnauthorizedError('missing X-API-Key header');
  if (!expected) throw new ProviderNotConfiguredError('the internal API key is not configured (API_KEY)');
  // Equal-length digests keep the comparison constant-time whatever the key lengths.
  if (!timingSafeEqual(digest(given), digest(expected))) throw new ForbiddenError('invalid API key');
  return { kind: 'key' };
}

/** The spec's hook-* headers and the svix-* / webhook-* families real providers send (D27). */
const SIGNATURE_HEADER_FAMILIES = ['hook', 'svix', 'webhook'];

async function verifyWebhook(headers: Record<string, string | undefined>, rawBody: string, loadSecret: () => Promise<string | undefined>): Promise<AuthContext> {
  const family = SIGNATURE_HEADER_FAMILIES.find((f) => headers[`${f}-id`] || headers[`${f}-signature`] || headers[`${f}-timestamp`]);
  const id = family && headers[`${family}-id`];
  const timestamp = family && headers[`${family}-timestamp`];
  const signature = family && headers[`${family}-signature`];
  if (!id || !timestamp || !signature) {
    countMetric('WebhookRejections', 1, { reason: 'unsigned' });
    throw new ValidationError('missing signature headers: hook-id, hook-timestamp and hook-signature are required');
  }
  const secret = await loadSecret();
  if (!secret) throw new ProviderNotConfiguredError('webhook signing secret is not configured (IDP_WEBHOOK_SECRET)');
  const webhook = new Webhook(secret);
  try {
    webhook.verify(rawBody, { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signature });
  } catch (err) {
    if (err instanceof WebhookVerificationError) {
      countMetric('WebhookRejections', 1, { reason: 'bad-signature' });
      throw new UnauthorizedError(`invalid webhook signature: ${err.message}`);
    }
    // svix JSON.parses the payload only once a signature matched: a signed body that is not
    // JSON is the sender's bad input (400), never a server error.
    if (err instanceof SyntaxError) throw new ValidationError(`invalid JSON body: ${err.message}`);
    throw err;
  }
  return { kind: 'webhook', messageId: id };
}

/** D5: an organization named in the path, query or body must be the token's own. */
export function assertSameOrganization(auth: AuthContext, named: Array<string | undefined>): void {
  if (auth.kind !== 'jwt') return;
  for (const org of named) {
    if (org !== undefined && org !== auth.orgId) throw new ForbiddenError('the organization in the request is not the organization of the token');
  }
}
