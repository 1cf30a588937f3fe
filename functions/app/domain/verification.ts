/**
 * Webmaster-console ownership of the customer's domain (spec Part 1 step 3 and Part 2;
 * `google_verification_status`, D18, D21): a DNS TXT token for the Domain property
 * (`sc-domain:<naked domain>`), then verification attempts (the domain-connect workflow polls
 * 12 times, 10 s apart; complete-google-verification tries once more on demand). Every
 * status change goes through the state table (core/domain/states.ts).
 */
import { webmasterVerificationRecord, type DomainAnalysis } from '../../core/domain/analysis';
import type { DnsChecker, DnsRecord, RecordCheck } from '../../core/domain/records';
import { VERIFICATION_POLL_ATTEMPTS, verificationTransition, type GoogleVerificationStatus } from '../../core/domain/states';
import type { Container } from '../../container';
import type { WebmasterClient } from '../../engines/search-notify';
import { createLogger } from '../../logger';
import { connectedAnalysis, domainError, guardedOperation, loadDomainContext, type DomainOperationResult } from './context';
import { resubmitSitemap } from '../site';

export type VerificationClient = Pick<WebmasterClient, 'requestVerificationToken' | 'verifyDomain' | 'resubmitSitemap'>;

export type TokenOutcome =
  | { status: 'token'; record: DnsRecord; verification: GoogleVerificationStatus }
  /** VERIFIED already: no token needed. */
  | { status: 'verified' }
  | { status: 'skipped' | 'failed'; reason: string; httpStatus?: number };

const log = createLogger({ component: 'domain-verification' });

const statusOf = (site: Record<string, unknown> | null): string | null =>
  (typeof site?.googleVerificationStatus === 'string' ? site.googleVerificationStatus : null);

/** Requests the token for the domain's property and records it (`google_verification_status` → PENDING). */
export async function requestVerificationToken(
  container: Container,
  webmaster: Pick<WebmasterClient, 'requestVerificationToken'>,
  input: { orgSlug: string; entityId: string; site: Record<string, unknown> | null; analysis: DomainAnalysis },
): Promise<TokenOutcome> {
  const current = statusOf(input.site);
  if (current === 'VERIFIED') return { status: 'verified' };
  const next = verificationTransition(current, { type: 'start' });
  if (!next.ok) return { status: 'failed', reason: next.message };
  const answer = await webmaster.requestVerificationToken(input.analysis.nakedDomain);
  if (answer.status !== 'token') return answer;
  await container.aiSites.patch(input.orgSlug, input.entityId, { googleVerificationToken: answer.token, googleVerificationStatus: next.to });
  return { status: 'token', record: webmasterVerificationRecord(input.analysis, answer.token), verification: next.to };
}

export interface VerificationCheck {
  /** The status after this attempt (null when there was nothing to verify). */
  google_verification_status: GoogleVerificationStatus | null;
  verified: boolean;
  /** True when polling should stop: verified, the 12th poll (from FAILED too: a reconnect polls 12 times again), or nothing to verify. */
  done: boolean;
  reason?: string;
  /** The console is not configured (WEBMASTER_CREDENTIALS): nothing was asked. */
  skipped?: boolean;
  site_url?: string;
}

/**
 * One verification attempt: `attempt` 1..12 for the polls (the 12th failure → FAILED, D18),
 * none for the manual complete. Safe to repeat.
 */
export async function checkVerification(
  container: Container, webmaster: Pick<WebmasterClient, 'verifyDomain'>, orgSlug: string, attempt?: number,
  /** The AI-site record when the caller has just read it. */
  known?: Record<string, unknown> | null,
): Promise<VerificationCheck> {
  const site = known !== undefined ? known : await container.aiSites.get(orgSlug) as Record<string, unknown> | null;
  const current = statusOf(site);
  if (current === 'VERIFIED') return { google_verification_status: 'VERIFIED', verified: true, done: true, site_url: String(site?.webmasterSiteUrl ?? '') || undefined };
  const domain = typeof site?.nakedDomain === 'string' ? site.nakedDomain : null;
  if (!site || !domain || typeof site.googleVerificationToken !== 'string') {
    return { google_verification_status: current as GoogleVerificationStatus | null, verified: false, done: true, reason: 'no webmaster verification token was requested for this domain' };
  }
  const answer = await webmaster.verifyDomain(domain);
  if (answer.status === 'skipped') return { google_verification_status: current as GoogleVerificationStatus | null, verified: false, done: true, skipped: true, reason: answer.reason };
  const verified = answer.status === 'verified';
  const next = verificationTransition(current, { type: 'check', verified, attempt });
  if (!next.ok) return { google_verification_status: current as GoogleVerificationStatus | null, verified: false, done: true, reason: next.message };
  await container.aiSites.patch(orgSlug, String(site.entityId), {
    googleVerificationStatus: next.to,
    ...(verified ? { webmasterVerified: true, webmasterSiteUrl: answer.siteUrl, googleVerifiedAt: container.clock.now().toISOString() } : {}),
  });
  const reason = answer.status === 'verified' ? undefined : answer.reason;
  if (next.to !== current) log.info('webmaster verification status changed', { org_slug: orgSlug, from: current, to: next.to, attempt: attempt ?? null });
  return {
    google_verification_status: next.to, verified, done: verified || (attempt !== undefined && attempt >= VERIFICATION_POLL_ATTEMPTS),
    ...(reason ? { reason } : {}), ...(verified ? { site_url: answer.siteUrl } : {}),
  };
}

/** `POST /api/domain/start-google-verification/{org_id}`: the token as the TXT record to add. */
export async function startGoogleVerification(container: Container, webmaster: VerificationClient, orgSlug: string): Promise<DomainOperationResult> {
  return guardedOperation(orgSlug, 'start-google-verification', async () => {
    const context = await loadDomainContext(container, orgSlug);
    const analyzed = connectedAnalysis(container, context, orgSlug);
    if ('refused' in analyzed) return analyzed.refused;
    const outcome = await requestVerificationToken(container, webmaster, { orgSlug, entityId: context.business.id, site: context.fields, analysis: analyzed.analysis });
    switch (outcome.status) {
      case 'token':
        return { httpStatus: 200, body: { status: 'success', org_slug: orgSlug, google_verification_status: outcome.verification, naked_domain: analyzed.analysis.nakedDomain, records: [outcome.record] } };
      case 'verified':
        return domainError(orgSlug, 409, `${analyzed.analysis.nakedDomain} is already verified in the webmaster console`, { google_verification_status: 'VERIFIED', allowed: [] });
      case 'skipped':
        return domainError(orgSlug, 503, outcome.reason, { google_verification_status: statusOf(context.fields) });
      case 'failed':
        return domainError(orgSlug, outcome.httpStatus === undefined || outcome.httpStatus >= 500 ? 502 : 409, outcome.reason, { google_verification_status: statusOf(context.fields) });
    }
  });
}

/**
 * `POST /api/domain/complete-google-verification/{org_id}`: one verification attempt, with
 * the TXT record checked live (D21); verified → the property is added to the console and,
 * when the site is served on the domain, its sitemap submitted.
 */
export async function completeGoogleVerification(container: Container, webmaster: VerificationClient, dns: Pick<DnsChecker, 'verifyRecords'>, orgSlug: string): Promise<DomainOperationResult> {
  return guardedOperation(orgSlug, 'complete-google-verification', async () => {
    const context = await loadDomainContext(container, orgSlug);
    const token = context.fields?.googleVerificationToken;
    const zone = context.fields?.nakedDomain;
    if (typeof token !== 'string' || typeof zone !== 'string') {
      return domainError(orgSlug, 409, 'no verification token yet: call start-google-verification (or start-certificate) first', {
        google_verification_status: statusOf(context.fields), allowed: ['start-google-verification'],
      });
    }
    const records: RecordCheck[] = await dns.verifyRecords([{ type: 'TXT', host: '@', value: token }], { zone });
    const check = await checkVerification(container, webmaster, orgSlug, undefined, context.fields);
    if (!check.verified) {
      return domainError(orgSlug, check.skipped ? 503 : 409, check.reason ?? 'not verified yet', { google_verification_status: check.google_verification_status, records });
    }
    const sitemap = await resubmitSitemap(container, orgSlug, webmaster);
    return {
      httpStatus: 200,
      body: { status: 'success', org_slug: orgSlug, google_verification_status: 'VERIFIED', site_url: check.site_url ?? null, records, sitemap },
    };
  });
}
