/** JWT routes: a bearer token verified against the identity provider's JWKS (D5-D8). */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { ORG_SLUG_PATTERN } from '../../core/constants';
import { ProviderNotConfiguredError, UnauthorizedError } from '../../core/errors';
import { perContainer } from '../../engines/per-container';
import type { Authenticator } from '.';

/** Asymmetric algorithms only: an HS256 token can never be forged with a public key. */
const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];
const CLOCK_SKEW_SECONDS = 5;

/** The provider's keys, fetched and cached by jose (one key set per container). */
const keysOf = perContainer((container) => (container.config.jwt.jwksUrl ? createRemoteJWKSet(new URL(container.config.jwt.jwksUrl)) : null), { needsSecrets: false });

export const jwtAuth: Authenticator<'JWT'> = {
  authClass: 'JWT',
  async verify(headers, _rawBody, container) {
    const header = headers.authorization;
    if (!header) throw new UnauthorizedError('missing Authorization header (expected: Bearer <token>)');
    const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i.exec(header.trim());
    if (!match) throw new UnauthorizedError('malformed Authorization header (expected: Bearer <token>)');
    const jwks = keysOf(container);
    const { config } = container;
    if (!jwks || !config.jwt.issuer) {
      throw new ProviderNotConfiguredError('token verification is not configured (JWT_JWKS_URL and JWT_ISSUER)');
    }
    try {
      const { payload } = await jwtVerify(match[1]!, jwks, {
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
  },
};

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
