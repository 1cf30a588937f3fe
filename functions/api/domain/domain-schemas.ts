/**
 * What the success contracts (2XX) of the domain routes share. Each route answers once its
 * operation succeeded (`status: 'success'`); refusals and failures are error answers
 * (`{status:'error', error, org_slug, ...}` with a 4xx/5xx status), not described here. The
 * workflow routes answer their body with the execution's `execution_id`, or the running 202
 * (`workflowResponse`, http/workflow-http.ts). The contracts themselves are in one module per
 * family (certificate-, connection-, verification-schemas.ts; get-proxy and
 * update-edge-function in their route), so a route bundles only its own.
 */
import * as z from 'zod/mini';
import type { GoogleVerificationStatus } from '../../core/domain/states';
import { PROXY_STATUSES } from '../../core/proxy/types';
import { nullableString } from '../../http/schemas';

export const text = (description: string) => z.string().check(z.describe(description));
export const nullableText = (description: string) => nullableString.check(z.describe(description));
export const proxyStatus = z.enum(PROXY_STATUSES);
// core/domain/states.ts GOOGLE_VERIFICATION_STATUSES, written out: that module's tables would grow every bundle here.
export const googleVerificationStatus = z.enum(['PENDING', 'VERIFIED', 'FAILED'] as const satisfies readonly GoogleVerificationStatus[]);
export const certificateType = z.enum(['FREE_CA', 'NATIVE']);
const recordType = z.enum(['A', 'AAAA', 'CNAME', 'TXT', 'CAA']);

/** A record to add (or remove). */
export const dnsRecord = z.object({
  type: recordType,
  host: text('relative to the zone: @, www, _acme-challenge.www'),
  value: text('address, target name, TXT text or CAA `flags tag "value"`'),
  ttl: z.number(),
}).check(z.meta({ id: 'DnsRecord' }));

/** D21: a record checked live. */
export const recordCheck = z.object({
  type: recordType,
  host: text('relative to the zone'),
  name: text('the fully-qualified name looked up'),
  expected: z.string(),
  actual: z.array(z.string()).check(z.describe('what DNS answers')),
  found: z.boolean(),
  error: z.optional(text('a lookup failure other than "no such record" (timeout, SERVFAIL)')),
}).check(z.meta({ id: 'DnsRecordCheck' }));

export const success = { status: z.literal('success'), org_slug: z.string() };
export const executionId = { execution_id: text('the execution that ran the operation') };
