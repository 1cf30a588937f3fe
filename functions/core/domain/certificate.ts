/**
 * Free certificates by ACME DNS-01 (issue 13, Part 1): the pure side.
 *
 * - One order covers every name of the domain (`www.<naked>` and `<naked>` together). The
 *   certificate authority gives one authorization per name, and each needs its own TXT
 *   record at `_acme-challenge.<name>`: www and the naked domain share nothing.
 * - `cert_tmp_*` keeps what the second call (`complete-certificate`) needs to finish the same
 *   order: the CA's directory, the account URL, the order / authorization / challenge URLs,
 *   the names, the TXT values (public by design: they sit in DNS) and the status. Never a
 *   private key: the certificate's key is created at finalization and goes straight to the
 *   certificate manager; the account key lives in its own store (`AccountKeyStore`).
 * - A challenge the CA found invalid is final: the CA never retries it, so the order must be
 *   started again (`CertificateOrderInvalidError`). Check the TXT records on the domain's
 *   authoritative servers before completing
 *   (../shared/reference/domain-security-anchors.md §0.4).
 */
import { AppError, ValidationError } from '../errors';

/** The label a DNS-01 TXT record sits under (RFC 8555 §8.4). */
export const ACME_CHALLENGE_LABEL = '_acme-challenge';
/** TTL of the challenge records we ask the user to add: short, they are removed after issuance. */
export const CHALLENGE_TXT_TTL = 60;
/** Names one order may hold (Let's Encrypt's limit). */
export const MAX_CERTIFICATE_NAMES = 100;

/** A DNS record as the DNS widget and the API return it. `host` is the full name, without a trailing dot. */
export interface TxtRecord {
  type: 'TXT';
  host: string;
  value: string;
  ttl: number;
}

/** ACME order statuses (RFC 8555 §7.1.6). */
export type CertificateOrderStatus = 'pending' | 'ready' | 'processing' | 'valid' | 'invalid';

/** The DNS-01 challenge of one name (one authorization). */
export interface CertificateChallenge {
  /** The identifier, e.g. `www.shop.example` (a wildcard keeps its `*.`). */
  name: string;
  authzUrl: string;
  challengeUrl: string;
  /** The TXT value: base64url(SHA-256(token "." account-key thumbprint)). Public: it is published in DNS. */
  keyAuthorization: string;
}

/** What `cert_tmp_*` keeps between start-certificate and complete-certificate. No private key, ever. */
export interface CertificateTmp {
  /** The CA the order belongs to: completing it against another CA cannot work. */
  directoryUrl: string;
  /** The ACME account that owns the order. */
  accountUrl: string;
  orderUrl: string;
  /** Every name of the order, in the order given (the first is the certificate's common name). */
  names: string[];
  /** One per authorization still to validate; names whose authorization was already valid have none. */
  challenges: CertificateChallenge[];
  status: CertificateOrderStatus;
  /** When the CA drops the order (ISO 8601), null when it did not say. */
  expires: string | null;
}

/** What `startOrder` returns: the tmp plus the TXT records the user must add. */
export interface StartedCertificateOrder extends CertificateTmp {
  records: TxtRecord[];
}

/** What `completeOrder` returns. The private key must go to the certificate manager only. */
export interface IssuedCertificate {
  /** The leaf certificate (PEM). */
  certificatePem: string;
  /** The intermediates, leaf excluded (PEM, concatenated): what the certificate manager calls the chain. */
  chainPem: string;
  /** The certificate's fresh private key (PKCS#8 PEM). Never stored outside the certificate manager. */
  privateKeyPem: string;
  /** ISO 8601. */
  notBefore: string;
  notAfter: string;
  names: string[];
}

/** Where the ACME account key (PEM) is kept: generated once, reused by every order. */
export interface AccountKeyStore {
  /** The stored key, null when none was stored yet. */
  get(): Promise<string | null>;
  put(pem: string): Promise<void>;
}

/**
 * The order cannot be finished: a challenge was found invalid (the CA never retries one),
 * the order expired or was already finalized, or it belongs to another CA. Only a new order
 * (start-certificate again) helps; retrying this one is pointless.
 */
export class CertificateOrderInvalidError extends AppError {
  override readonly name = 'CertificateOrderInvalid';
  readonly status = 409;
  constructor(
    message: string,
    /** The names whose authorization failed (empty when the order as a whole is unusable). */
    readonly names: string[] = [],
  ) {
    super(message);
  }
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Lower-cased, trailing dot removed, duplicates dropped, order kept. Refuses anything that
 * is not a DNS name of at least two labels (a leading `*.` is allowed): ValidationError.
 */
export function normalizeCertificateNames(names: readonly string[]): string[] {
  if (!Array.isArray(names) || names.length === 0) throw new ValidationError('names: at least one domain name is required');
  const out: string[] = [];
  for (const raw of names) {
    const name = String(raw ?? '').trim().toLowerCase().replace(/\.$/, '');
    const base = name.startsWith('*.') ? name.slice(2) : name;
    const labels = base.split('.');
    if (base.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1])) {
      throw new ValidationError(`names: "${String(raw)}" is not a domain name a certificate can hold`);
    }
    if (!out.includes(name)) out.push(name);
  }
  if (out.length > MAX_CERTIFICATE_NAMES) throw new ValidationError(`names: at most ${MAX_CERTIFICATE_NAMES} names per certificate`);
  return out;
}

/** `_acme-challenge.<name>`; a wildcard's record sits at its base name (RFC 8555 §8.4). */
export function acmeChallengeHost(name: string): string {
  return `${ACME_CHALLENGE_LABEL}.${name.toLowerCase().replace(/\.$/, '').replace(/^\*\./, '')}`;
}

export function challengeTxtRecord(challenge: Pick<CertificateChallenge, 'name' | 'keyAuthorization'>): TxtRecord {
  return { type: 'TXT', host: acmeChallengeHost(challenge.name), value: challenge.keyAuthorization, ttl: CHALLENGE_TXT_TTL };
}

/**
 * One TXT record per pending authorization. Two records can share a host (a name and its
 * wildcard): DNS holds both values and the CA accepts either.
 */
export function txtRecordsOf(tmp: Pick<CertificateTmp, 'challenges'>): TxtRecord[] {
  return tmp.challenges.map(challengeTxtRecord);
}

/**
 * Exactly the fields `cert_tmp_*` may keep, copied one by one: whatever else the object
 * carries (records, anything key-like) cannot slip into storage.
 */
export function certTmpOf(order: CertificateTmp): CertificateTmp {
  return {
    directoryUrl: order.directoryUrl,
    accountUrl: order.accountUrl,
    orderUrl: order.orderUrl,
    names: [...order.names],
    challenges: order.challenges.map(({ name, authzUrl, challengeUrl, keyAuthorization }) => ({ name, authzUrl, challengeUrl, keyAuthorization })),
    status: order.status,
    expires: order.expires ?? null,
  };
}

/** True when the order's expiry has passed: completing it is pointless, start a new one. */
export function isCertificateOrderExpired(tmp: Pick<CertificateTmp, 'expires'>, now: Date = new Date()): boolean {
  if (!tmp.expires) return false;
  const at = Date.parse(tmp.expires);
  return Number.isFinite(at) && at <= now.getTime();
}
