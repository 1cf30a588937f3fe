/**
 * Imports a free (ACME) certificate into the certificate manager, in us-east-1: CloudFront
 * only uses certificates from that region.
 *
 * - The leaf, its chain (intermediates only, leaf excluded) and the private key go as three
 *   separate PEMs (ACM "Certificate and key format for importing").
 * - Renewal re-imports onto the same ARN (`existingArn`): the distribution keeps pointing at
 *   it and needs no update. If that certificate no longer exists, a new one is imported and
 *   its (different) ARN returned: the caller must then attach it again.
 * - Tags only on a first import (ACM refuses tags on a re-import).
 * - The key is checked against the certificate locally first, so a mismatch fails with a
 *   clear message and never reaches AWS; neither the key nor the PEMs are logged.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { ACMClient, ImportCertificateCommand, type Tag } from '@aws-sdk/client-acm';
import { ValidationError } from '../../core/errors';

/** CloudFront reads certificates from us-east-1 only. */
export const ACM_REGION_FOR_CLOUDFRONT = 'us-east-1';

export interface ImportCertificateInput {
  certificatePem: string;
  /** Intermediates (PEM, concatenated); empty for none. */
  chainPem: string;
  privateKeyPem: string;
  /** The ARN of the certificate this one renews: re-imported in place. */
  existingArn?: string | null;
  /** Tags for a first import, e.g. `{service: 'ai-visibility', org: '<slug>'}`. */
  tags?: Record<string, string>;
}

export interface AcmImportOptions {
  /** Default: a client in us-east-1. A given client must be in us-east-1 too. */
  client?: ACMClient;
}

let defaultClient: ACMClient | undefined;
export function acmClientForCloudFront(): ACMClient {
  return (defaultClient ??= new ACMClient({ region: ACM_REGION_FOR_CLOUDFRONT }));
}

const ACM_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;

/** Imports (or re-imports onto `existingArn`) and returns the certificate's ARN. */
export async function importCertificate(input: ImportCertificateInput, options: AcmImportOptions = {}): Promise<string> {
  checkMaterial(input);
  const existingArn = input.existingArn?.trim() || undefined;
  if (existingArn) {
    const region = ACM_ARN.exec(existingArn)?.[1];
    if (!region) throw new ValidationError(`existingArn: not a certificate manager ARN: ${existingArn}`);
    if (region !== ACM_REGION_FOR_CLOUDFRONT) throw new ValidationError(`existingArn: CloudFront needs a certificate in ${ACM_REGION_FOR_CLOUDFRONT}, this one is in ${region}`);
  }
  const client = options.client ?? acmClientForCloudFront();
  const material = {
    Certificate: Buffer.from(input.certificatePem, 'utf8'),
    PrivateKey: Buffer.from(input.privateKeyPem, 'utf8'),
    ...(input.chainPem.trim() ? { CertificateChain: Buffer.from(input.chainPem, 'utf8') } : {}),
  };
  const tags: Tag[] = Object.entries(input.tags ?? {}).map(([Key, Value]) => ({ Key, Value }));

  if (existingArn) {
    try {
      const { CertificateArn } = await client.send(new ImportCertificateCommand({ ...material, CertificateArn: existingArn }));
      return CertificateArn ?? existingArn;
    } catch (err) {
      if ((err as Error)?.name !== 'ResourceNotFoundException') throw err;
      // Deleted since: import a new one below.
    }
  }
  const { CertificateArn } = await client.send(new ImportCertificateCommand({ ...material, ...(tags.length ? { Tags: tags } : {}) }));
  if (!CertificateArn) throw new Error('certificate manager ImportCertificate returned no ARN');
  return CertificateArn;
}

/** The PEMs' shape, and the key matching the certificate: ValidationError otherwise. */
function checkMaterial(input: ImportCertificateInput): void {
  if ((input.certificatePem.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length > 1) {
    throw new ValidationError('certificatePem: exactly one certificate (the leaf); intermediates go in chainPem');
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(input.certificatePem);
  } catch {
    throw new ValidationError('certificatePem: not a PEM certificate');
  }
  for (const pem of input.chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ValidationError('chainPem: holds a certificate that does not parse');
    }
  }
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(input.privateKeyPem));
  } catch {
    throw new ValidationError('privateKeyPem: not an unencrypted PEM private key');
  }
  if (!matches) throw new ValidationError('privateKeyPem: does not match the certificate');
}
