/** Success contracts of the DNS switch (mark-step-complete) and the disconnect (disconnect-proxy, mark-disconnect-complete). */
import * as z from 'zod/mini';
import { nullableString } from '../../http/schemas';
import { certificateType, dnsRecord, executionId, googleVerificationStatus, recordCheck, success, text } from './domain-schemas';

const redeployed = z.nullable(z.object({ release_id: z.string(), file_count: z.number() }))
  .check(z.describe('the site redeployed under its new public origin; null when it had no release yet'));

/** mark-step-complete (domain-connect): the switch checked, the site served on the customer's domain. */
export const connectResponse = z.object({
  ...success,
  proxy_status: z.literal('DEPLOYED'),
  custom_domain: z.string(),
  public_origin: z.string(),
  store_origin: text('where the proxy now reaches the store (the domain\'s original target)'),
  previous_public_origin: z.string(),
  records: z.array(recordCheck).check(z.describe('the switch records, then the native certificate\'s validation records, checked live')),
  redeployed,
  certificate_type: z.nullable(certificateType),
  native_certificate: text('what happens to the native certificate, in words'),
  google_verification_status: z.nullable(googleVerificationStatus),
  webmaster_verification: text('what happens to the webmaster verification, in words'),
  ...executionId,
}).check(z.meta({ id: 'DomainConnection' }));

/** POST /api/domain/disconnect-proxy/{org_id}: the records to remove and the original ones to put back. */
export const disconnectRecordsResponse = z.object({
  ...success,
  proxy_status: z.literal('DEPLOYED'),
  custom_domain: z.string(),
  naked_domain: z.string(),
  remove: z.array(dnsRecord).check(z.describe('the proxy\'s records to remove')),
  records: z.array(dnsRecord).check(z.describe('the original records to add back (captured when the connection started)')),
  note: z.string(),
}).check(z.meta({ id: 'DisconnectRecords' }));

/** mark-disconnect-complete (domain-disconnect): the original records checked, the site back on the AI-site host. */
export const disconnectResponse = z.object({
  ...success,
  proxy_status: z.literal('DISCONNECTED'),
  custom_domain: z.string(),
  records: z.array(recordCheck).check(z.describe('the original records, checked live (reported, not required)')),
  all_restored: z.boolean(),
  redeployed,
  certificate_type: z.nullable(certificateType),
  certificate_not_after: nullableString,
  ...executionId,
}).check(z.meta({ id: 'DomainDisconnection' }));
