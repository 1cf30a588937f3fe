/** Success contracts of the webmaster verification routes, verify-dns and resubmit-sitemap. */
import * as z from 'zod/mini';
import { dnsRecord, nullableText, proxyStatus, recordCheck, success } from './domain-schemas';

/** The webmaster console's answer to a sitemap submission (keys as the console client names them). */
const sitemapSubmitted = z.object({ status: z.literal('submitted'), siteUrl: z.string(), sitemapUrl: z.string(), submittedAt: z.string(), attempts: z.number() });
const sitemapSkipped = z.object({ status: z.literal('skipped'), reason: z.string() });
const sitemapFailed = z.object({ status: z.literal('failed'), reason: z.string(), httpStatus: z.optional(z.number()) });

export const startGoogleVerificationResponse = z.object({
  ...success,
  google_verification_status: z.literal('PENDING'),
  naked_domain: z.string(),
  records: z.array(dnsRecord).check(z.describe('the verification TXT record to add')),
});

export const completeGoogleVerificationResponse = z.object({
  ...success,
  google_verification_status: z.literal('VERIFIED'),
  site_url: nullableText('the console property (sc-domain:<naked domain>)'),
  records: z.array(recordCheck).check(z.describe('the verification TXT record, checked live')),
  sitemap: z.union([sitemapSubmitted, sitemapSkipped, sitemapFailed]).check(z.describe('the sitemap submitted to the console, or skipped/failed with the reason')),
});

/** verify-dns: each record of the current step, live. */
export const verifyDnsResponse = z.object({
  status: z.literal('success'),
  proxy_status: proxyStatus,
  step: z.enum(['certificate', 'dns_switch']).check(z.describe('certificate: the TXT challenges (SSL_VALIDATING); dns_switch: the Part 2 records')),
  all_found: z.boolean(),
  records: z.array(recordCheck).check(z.describe('the step\'s records, with the webmaster verification TXT record while not verified')),
});

/** resubmit-sitemap: submitted, or skipped with the reason (a refusal by the console is a 502). Names the business `org_id`. */
export const resubmitSitemapResponse = z.union([
  z.object({ status: z.literal('success'), org_id: z.string(), sitemap: sitemapSubmitted }),
  z.object({ status: z.literal('skipped'), org_id: z.string(), reason: z.string(), sitemap: sitemapSkipped }),
]);
