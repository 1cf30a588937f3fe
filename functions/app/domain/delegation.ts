/**
 * Delegated DNS-01 in the certificate workflows (issue 37; D203). With ACME_DNS_ZONE_ID and
 * ACME_DNS_ZONE_NAME set, a certificate's challenges are answered in the service's Route 53
 * zone behind the customer's one CNAME per name (core/domain/delegation.ts):
 *
 * - start-certificate asks for the CNAMEs instead of the TXT records; when they are already
 *   on the domain's authoritative servers (every certificate after the first) it writes the
 *   order's TXT values at once, so complete-certificate needs nothing from the customer;
 * - complete-certificate checks the CNAMEs (409 `cname_not_found` naming them, nothing
 *   changed), writes the TXT values (UPSERT, then INSYNC: a repeat is the same write) and,
 *   once the order is complete, removes them (a record already gone is fine).
 */
import { acmeDelegationOf, DELEGATION_CNAME_TTL, delegatedTxtValues, type AcmeDelegation } from '../../core/domain/delegation';
import { acmeChallengeHost, type CertificateChallenge } from '../../core/domain/certificate';
import { relativeHost, type DnsChecker } from '../../core/domain/records';
import type { ChallengeDelegation } from '../../engines/challenge-dns';
import { createLogger } from '../../logger';
import { domainError, type DomainOperationResult } from './context';

type Challenges = readonly Pick<CertificateChallenge, 'name' | 'keyAuthorization'>[];

/** What start-certificate answers about the delegation (`acme_delegation`). */
export interface DelegationSummary {
  status: 'delegated' | 'skipped';
  zone?: string;
  cnames_in_place?: boolean;
  txt_written?: boolean;
  reason: string;
}

const log = createLogger({ component: 'acme-delegation' });

/**
 * start-certificate: the delegation of the order's names (null, with the reason, when the
 * service has no zone to write in). When every challenge's CNAME is already in place, the TXT
 * values are written now; a failed write does not fail the start (complete-certificate writes
 * them again), it is reported with its reason.
 */
export async function startDelegatedChallenges(
  orgSlug: string, deps: { dns: Pick<DnsChecker, 'cnameOnAuthoritative'>; delegation: ChallengeDelegation },
  certificateNames: readonly string[], challenges: Challenges,
): Promise<{ delegation: AcmeDelegation | null; summary: DelegationSummary }> {
  const engine = deps.delegation;
  if (!engine.writer) return { delegation: null, summary: { status: 'skipped', reason: engine.reason } };
  const delegation = acmeDelegationOf(orgSlug, certificateNames, engine.zone);
  const delegated = { status: 'delegated' as const, zone: delegation.zone };
  if ((await missingCnames(deps.dns, delegation, challenges)).length > 0) {
    return { delegation, summary: { ...delegated, cnames_in_place: false, txt_written: false, reason: 'add the CNAME records once: the service writes this and every later certificate\'s challenge itself; then complete-certificate' } };
  }
  try {
    await writeChallengeTxts(engine, delegation, challenges);
    return { delegation, summary: { ...delegated, cnames_in_place: true, txt_written: true, reason: 'the CNAME records are in place and the challenge TXT records are written: complete-certificate needs no DNS step' } };
  } catch (err) {
    const message = (err as Error).message;
    log.warn('delegated challenge TXT not written at start', { zone: delegation.zone, error: message });
    return { delegation, summary: { ...delegated, cnames_in_place: true, txt_written: false, reason: `the CNAME records are in place; the challenge TXT records could not be written yet (${message}): complete-certificate writes them again` } };
  }
}

/**
 * complete-certificate, before the order is completed: the 409 naming the CNAMEs that are not
 * on the domain's DNS (nothing written), else null once the TXT values are written and in sync.
 */
export async function delegatedChallengesRefusal(
  orgSlug: string, status: string | null, zone: string | null,
  deps: { dns: Pick<DnsChecker, 'cnameOnAuthoritative'>; delegation: ChallengeDelegation }, delegation: AcmeDelegation, challenges: Challenges,
): Promise<DomainOperationResult | null> {
  if (!deps.delegation.writer || deps.delegation.zone !== delegation.zone) {
    const reason = deps.delegation.writer ? `the service's challenge zone is now ${deps.delegation.zone}, not ${delegation.zone}` : deps.delegation.reason;
    return domainError(orgSlug, 409, `this order's challenges were delegated to ${delegation.zone}, but ${reason}: start-certificate again`, {
      code: 'delegation_unavailable', proxy_status: status, allowed: ['start-certificate'],
    });
  }
  const missing = await missingCnames(deps.dns, delegation, challenges);
  if (missing.length > 0) {
    return domainError(orgSlug, 409, `CNAME record not found on the domain's authoritative servers yet: ${missing.map((m) => `${m.name} CNAME ${m.value}`).join(', ')}; `
      + 'add it once (or wait for DNS to update) and complete again', {
      code: 'cname_not_found', proxy_status: status,
      missing: missing.map((m) => ({ ...m, host: zone ? relativeHost(m.name, zone) : m.name })),
    });
  }
  await writeChallengeTxts(deps.delegation, delegation, challenges);
  return null;
}

/** Once the order is complete: the TXT values go. A failure only leaves a record the next write replaces. */
export async function removeDelegatedChallenges(engine: ChallengeDelegation, delegation: AcmeDelegation, challenges: Challenges): Promise<void> {
  if (!engine.writer) return;
  for (const [name, values] of delegatedTxtValues(delegation, challenges)) {
    try {
      await engine.writer.deleteTxt(name, values);
    } catch (err) {
      log.warn('delegated challenge TXT not removed', { name, error: (err as Error).message });
    }
  }
}

async function writeChallengeTxts(engine: ChallengeDelegation, delegation: AcmeDelegation, challenges: Challenges): Promise<void> {
  if (!engine.writer) throw new Error(engine.reason);
  for (const [name, values] of delegatedTxtValues(delegation, challenges)) await engine.writer.putTxt(name, values);
}

/** The challenges' CNAMEs not (yet) on the domain's DNS, each with what its lookup found. */
async function missingCnames(dns: Pick<DnsChecker, 'cnameOnAuthoritative'>, delegation: AcmeDelegation, challenges: Challenges) {
  const hosts = [...new Set(challenges.map((c) => acmeChallengeHost(c.name)))];
  const checks = await Promise.all(hosts.map(async (name) => ({ name, value: delegation.names[name], check: await dns.cnameOnAuthoritative(name, delegation.names[name]) })));
  return checks.filter((c) => !c.check.found).map(({ name, value, check }) => ({
    type: 'CNAME' as const, name, value, ttl: DELEGATION_CNAME_TTL, source: check.source, actual: check.actual,
  }));
}
