/**
 * The built-in development identity provider: an RS256 key pair kept under DATA_DIR,
 * whose public half the local API serves as a JWKS, and a minting function that signs
 * tokens with the `org_id` claim the API expects. Never used on AWS.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

export const DEV_ISSUER = 'urn:ai-visibility:dev-idp';
export const DEV_AUDIENCE = 'ai-visibility-api';
export const JWKS_PATH = '/.well-known/jwks.json';

export interface MintOptions {
  orgId?: string | null;
  subject?: string;
  expiresInSeconds?: number;
  extraClaims?: Record<string, unknown>;
  /** Tests use a foreign issuer to check that the API refuses it. */
  issuer?: string;
}

export interface DevIdp {
  issuer: string;
  audience: string;
  jwks: { keys: JWK[] };
  mint(options?: MintOptions): Promise<string>;
}

/** Loads the key pair from `file`, creating it on first use (no file: an in-memory pair). */
export async function loadDevIdp(file?: string): Promise<DevIdp> {
  let privateJwk: JWK;
  if (file && existsSync(file)) {
    privateJwk = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    privateJwk = await exportJWK(privateKey);
    privateJwk.kid = await calculateJwkThumbprint(privateJwk);
    privateJwk.alg = 'RS256';
    if (file) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
    }
  }
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk;
  const signingKey = await importJWK(privateJwk, 'RS256');

  return {
    issuer: DEV_ISSUER,
    audience: DEV_AUDIENCE,
    jwks: { keys: [{ ...publicJwk, use: 'sig' }] },
    async mint({ orgId = 'demo-store', subject = 'user_dev', expiresInSeconds = 3600, extraClaims = {}, issuer = DEV_ISSUER } = {}) {
      const claims = orgId === null ? { ...extraClaims } : { org_id: orgId, ...extraClaims };
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: privateJwk.kid })
        .setIssuer(issuer)
        .setAudience(DEV_AUDIENCE)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
        .sign(signingKey);
    },
  };
}
