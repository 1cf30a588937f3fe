/**
 * The certificate manager's own certificates (domain connection Part 2): DNS-validated,
 * renewed by the certificate manager itself for as long as the validation CNAMEs stay in DNS
 * (../shared/reference/domain-security-anchors.md §1.6). They replace the imported free
 * certificate once issued. In us-east-1, the only region CloudFront reads certificates from.
 *
 * - Request: the first name is the subject, every name a SAN, RSA 2048 (what every viewer
 *   accepts), DNS validation, the caller's tags. The idempotency token is a hash of the
 *   caller's key and the names: a retried request returns the same certificate (ACM keeps
 *   tokens for one hour: the caller keeps the ARN) and other names never get an old one.
 * - Describe: status, the validation CNAMEs (names and values without the final dot, one per
 *   distinct record: a name and its wildcard share one), the end of validity. ACM publishes
 *   the records a few seconds after the request: until every name has its record the list is
 *   empty (never half of what the user has to add).
 */
import { createHash } from 'node:crypto';
import { ACMClient, DescribeCertificateCommand, RequestCertificateCommand, type Tag } from '@aws-sdk/client-acm';
import { ValidationError } from '../../core/errors';
import { NATIVE_CERTIFICATE_STATUSES, type NativeCertificateInfo, type NativeCertificateStatus, type ValidationRecord } from '../../core/proxy/types';
import { acmClientForCloudFront } from './acm-import';

export interface AcmNativeOptions {
  /** Default: a client in us-east-1 (shared with acm-import). */
  client?: ACMClient;
}

export interface RequestNativeCertificateInput {
  names: string[];
  idempotencyKey: string;
  tags?: Record<string, string>;
}

/** ACM: `\w+`, 1 to 32 characters. */
export const IDEMPOTENCY_TOKEN_LENGTH = 32;

/** Lowercase, no final dot, no duplicates, in order; refuses an empty list or an empty name. */
export function certificateNames(names: readonly string[]): string[] {
  const normalized = [...new Set(names.map((n) => n.trim().toLowerCase().replace(/\.$/, '')))];
  if (normalized.length === 0) throw new ValidationError('names: at least one domain name is needed');
  const bad = normalized.find((n) => !/^(\*\.)?([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9-]{2,63}$/.test(n) || n.length > 253);
  if (bad !== undefined) throw new ValidationError(`names: not a domain name: "${bad}"`);
  return normalized;
}

/** 32 hex characters (a `\w` token) from the caller's key and the names. */
export function idempotencyTokenOf(idempotencyKey: string, names: readonly string[]): string {
  if (!idempotencyKey.trim()) throw new ValidationError('idempotencyKey: required');
  return createHash('sha256').update(`${idempotencyKey}\n${names.join(',')}`).digest('hex').slice(0, IDEMPOTENCY_TOKEN_LENGTH);
}

/** Requests a DNS-validated certificate for `names` and returns its ARN. */
export async function requestNativeCertificate(input: RequestNativeCertificateInput, options: AcmNativeOptions = {}): Promise<string> {
  const names = certificateNames(input.names);
  const tags: Tag[] = Object.entries(input.tags ?? {}).map(([Key, Value]) => ({ Key, Value }));
  const client = options.client ?? acmClientForCloudFront();
  const { CertificateArn } = await client.send(new RequestCertificateCommand({
    DomainName: names[0],
    SubjectAlternativeNames: names,
    ValidationMethod: 'DNS',
    IdempotencyToken: idempotencyTokenOf(input.idempotencyKey, names),
    KeyAlgorithm: 'RSA_2048',
    ...(tags.length ? { Tags: tags } : {}),
  }));
  if (!CertificateArn) throw new Error('certificate manager RequestCertificate returned no ARN');
  return CertificateArn;
}

const dotless = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/**
 * Status, validation records of `names` (every name of the certificate when empty) and end
 * of validity of a requested certificate.
 */
export async function describeNativeCertificate(certificateArn: string, names: readonly string[], options: AcmNativeOptions = {}): Promise<NativeCertificateInfo> {
  const client = options.client ?? acmClientForCloudFront();
  const { Certificate } = await client.send(new DescribeCertificateCommand({ CertificateArn: certificateArn }));
  if (!Certificate) throw new Error(`certificate manager DescribeCertificate returned nothing for ${certificateArn}`);
  const status = Certificate.Status as NativeCertificateStatus | undefined;
  if (!status || !(NATIVE_CERTIFICATE_STATUSES as readonly string[]).includes(status)) {
    throw new Error(`certificate manager reported an unknown status "${String(Certificate.Status)}" for ${certificateArn}`);
  }
  const validations = Certificate.DomainValidationOptions ?? [];
  const wanted = names.length ? certificateNames(names) : validations.map((o) => dotless(o.DomainName ?? ''));
  const records: ValidationRecord[] = [];
  let missing = wanted.length === 0;
  for (const name of wanted) {
    const record = validations.find((o) => dotless(o.DomainName ?? '') === name)?.ResourceRecord;
    if (!record?.Name || !record.Value) {
      missing = true;
      break;
    }
    const entry = { name: dotless(record.Name), value: dotless(record.Value) };
    if (!records.some((r) => r.name === entry.name && r.value === entry.value)) records.push(entry);
  }
  const info: NativeCertificateInfo = {
    status,
    validationRecords: missing ? [] : records,
    notAfter: Certificate.NotAfter ? new Date(Certificate.NotAfter).toISOString() : null,
  };
  const reason = reasonOf(status, Certificate.FailureReason ?? Certificate.RevocationReason, missing);
  if (reason) info.reason = reason;
  return info;
}

function reasonOf(status: NativeCertificateStatus, detail: string | undefined, missing: boolean): string | undefined {
  const why = detail ? ` (${detail})` : '';
  if (status === 'FAILED') return `the certificate manager refused the certificate${why}`;
  if (status === 'REVOKED') return `the certificate was revoked${why}`;
  if (status === 'VALIDATION_TIMED_OUT') return 'the validation records were not found in DNS within 72 hours';
  if (status === 'PENDING_VALIDATION' && missing) return 'the certificate manager has not published the validation records yet';
  return undefined;
}
