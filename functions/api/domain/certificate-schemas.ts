/** Success contracts of start-certificate and complete-certificate (Part 1), and of their read-backs. */
import * as z from 'zod/mini';
import { nullableString } from '../../http/schemas';
import { dnsRecord, executionId, googleVerificationStatus, success, text } from './domain-schemas';

/** start-certificate: the records to add (the certificate's challenges, or their delegation CNAMEs, D203; then the webmaster token's). */
export const startCertificateResponse = z.object({
  ...success,
  proxy_status: z.literal('SSL_VALIDATING'),
  custom_domain: z.string(),
  naked_domain: z.string(),
  domain_type: z.enum(['apex', 'www', 'custom_subdomain', 'multi_level']).check(z.describe('how the business host relates to its zone (not get-proxy\'s apex/subdomain)')),
  records: z.array(dnsRecord).check(z.describe('the records to add: the certificate\'s challenge TXT records (or, when delegated, one CNAME per name, added once), then the webmaster verification token')),
  webmaster_verification: z.object({
    status: z.enum(['token', 'verified', 'skipped', 'failed']),
    google_verification_status: z.optional(googleVerificationStatus),
    reason: z.optional(z.string()),
  }).check(z.describe('the webmaster verification token: requested (token), not needed (verified), or skipped/failed with the reason')),
  acme_delegation: z.optional(z.object({
    status: z.enum(['delegated', 'skipped']),
    zone: z.optional(text('the service\'s zone the CNAME records point into')),
    cnames_in_place: z.optional(z.boolean()),
    txt_written: z.optional(z.boolean().check(z.describe('the challenge TXT records are written behind the CNAMEs: complete-certificate needs no DNS step'))),
    reason: z.string(),
  }).check(z.describe('delegated DNS-01 (D203): the challenges answered in the service\'s zone behind one CNAME per name, or skipped with the reason'))),
  ...executionId,
}).check(z.meta({ id: 'CertificateStart' }));

/** complete-certificate: the certificate attached, and the Part 2 records (absent when they cannot be worked out). */
export const completeCertificateResponse = z.object({
  ...success,
  proxy_status: z.literal('SSL_VALIDATED'),
  certificate_type: z.literal('FREE_CA'),
  certificate_arn: z.string(),
  not_after: z.string(),
  aliases: z.array(z.string()).check(z.describe('the names the certificate covers and the distribution serves')),
  native_certificate: z.object({ status: z.string(), certificate_arn: nullableString, reason: z.optional(z.string()) })
    .check(z.describe('the certificate manager\'s own certificate, requested to replace the free one')),
  next_step_error: z.optional(text('why the Part 2 records could not be given (then no next_* field)')),
  next_records: z.optional(z.array(dnsRecord).check(z.describe('Part 2: the records of the DNS switch, then the native certificate\'s validation CNAMEs'))),
  next_remove: z.optional(z.array(dnsRecord).check(z.describe('Part 2: the records the switch replaces'))),
  next_skipped: z.optional(z.array(z.object({ name: z.string(), reason: z.string() })).check(z.describe('Part 2: names left pointing where they do, with the reason'))),
  ...executionId,
}).check(z.meta({ id: 'CertificateCompletion' }));
