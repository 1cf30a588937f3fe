/**
 * Part 2 of the domain connection, the DNS switch (spec "Domain connection flow"; issue 13
 * item 3), as the domain-connect workflow's first task runs it for
 * `POST /api/domain/mark-step-complete/{org_id}` `{step: 2}` (from SSL_VALIDATED, or a
 * reconnect from DISCONNECTED while the certificate is valid):
 *   1. the switch records (A/CNAME of every configured name → the proxy) are checked live; any
 *      not in place yet → 409 naming them, nothing changed (the site would otherwise announce
 *      a domain that does not serve it yet);
 *   2. the distribution's store origin moves from the customer's domain to where that domain
 *      pointed before (its original CNAME target), or the proxy would loop once DNS points at it;
 *   3. every configured name gets its own host → organization index entry (the local CDN
 *      proxy serves it; visits and webhooks find the organization by it);
 *   4. the site's public origin becomes `https://<custom domain>` and the site is redeployed
 *      (sitemap, robots.txt, canonicals and llms links on the customer's domain, D28); a
 *      failed redeploy puts the previous origin back, so nothing is half switched;
 *   5. `proxy_status` → DEPLOYED. The response is stored for the route (D20); the execution
 *      goes on with the native certificate, webmaster verification polling (D18) and the
 *      search-engine submissions (`runDomainSubmissions`).
 * A retry of the same execution after step 5 finds DEPLOYED with its own execution id and
 * runs the steps again (each is idempotent) instead of refusing.
 */
import { part2Records, storeOriginHost } from '../../core/domain/analysis';
import type { CapturedByName, DnsChecker } from '../../core/domain/records';
import type { CdnGateway } from '../../core/proxy/types';
import { aiSiteOrigin, type Container } from '../../container';
import { createLogger } from '../../logger';
import { connectedAnalysis, domainError, finishTransition, guardedOperation, loadDomainContext, operationRefusal, overtaken, republishUnder, type DomainOperationResult } from './context';
import { nativeCertificateOf, nativeValidationRecords } from './native-certificate';
import { DOMAIN_CONNECT_WORKFLOW } from './operation-run';
import { publishedDigests, resubmitSitemap, submitIndexNow } from '../site';
import type { SearchNotifyEngines } from '../../engines/search-notify';

export interface ConnectDeps {
  gateway: Pick<CdnGateway, 'setStoreOrigin'>;
  dns: Pick<DnsChecker, 'verifyRecords'>;
}

/** What the rest of the domain-connect execution does after the switch. */
export interface ConnectFollowUp {
  /** Poll the webmaster verification (a token exists and the domain is not verified yet). */
  poll_verification: boolean;
  /** Wait for the native certificate (requested and not yet on the distribution). */
  upgrade_certificate: boolean;
  poll_interval_seconds: number;
  native_wait_seconds: number;
}

export interface ConnectResult extends DomainOperationResult {
  /** Null when the switch was refused or failed: the execution ends there. */
  followUp: ConnectFollowUp | null;
}

const log = createLogger({ component: 'domain-connect' });

export async function runConnectDomain(container: Container, deps: ConnectDeps, orgSlug: string, executionId: string): Promise<ConnectResult> {
  let followUp: ConnectFollowUp | null = null;
  const result = await guardedOperation(orgSlug, 'mark-step-complete', async () => {
    const context = await loadDomainContext(container, orgSlug);
    const site = context.fields;
    const retried = context.proxyStatus === 'DEPLOYED';
    const refused = operationRefusal(container, context, orgSlug, { workflow: DOMAIN_CONNECT_WORKFLOW, executionId, executionField: 'domainConnectExecution', reached: 'DEPLOYED' });
    if (refused) return refused;
    const analyzed = connectedAnalysis(container, context, orgSlug);
    if ('refused' in analyzed) return analyzed.refused;
    const { analysis } = analyzed;
    const distributionId = typeof site?.cdnDistributionId === 'string' ? site.cdnDistributionId : null;
    const cdnDomain = typeof site?.cdnDomain === 'string' ? site.cdnDomain : null;
    const aiSiteHost = typeof site?.cdnAiSiteHost === 'string' ? site.cdnAiSiteHost : null;
    if (!distributionId || !cdnDomain || !aiSiteHost) return domainError(orgSlug, 409, 'the business has no CDN distribution yet', { proxy_status: context.proxyStatus });
    const captured = (site?.capturedRecords ?? {}) as CapturedByName;

    // 1. The switch records, live (the validation records of the native certificate are reported, not required).
    const validationRecords = nativeValidationRecords(site);
    const part2 = part2Records(analysis, { cdnDomain, apexGatewayIps: container.config.cdn.apexGatewayIps, captured, validationRecords });
    if (!part2.ok) return domainError(orgSlug, 400, part2.reason, { code: part2.code, proxy_status: context.proxyStatus });
    const checks = await deps.dns.verifyRecords(part2.records.map((r) => ({ type: r.type, host: r.host, value: r.value })), { zone: analysis.nakedDomain });
    // part2Records lists the switch first, then the validation records.
    const switchChecks = checks.slice(0, checks.length - validationRecords.length);
    const missing = switchChecks.filter((c) => !c.found);
    if (missing.length > 0 && !retried) {
      return domainError(orgSlug, 409, `the DNS switch is not in place yet: ${missing.map((m) => `${m.type} ${m.host} → ${m.expected} (found: ${m.actual.join(', ') || 'nothing'})`).join('; ')}; `
        + 'add the records (or wait for DNS to update) and mark the step complete again', { code: 'dns_not_switched', proxy_status: context.proxyStatus, records: checks });
    }

    // 2. The store origin: where the domain pointed before.
    const originHost = storeOriginHost(analysis, captured, cdnDomain);
    if (!originHost) {
      return domainError(orgSlug, 409, `${analysis.customDomain} pointed at addresses only before the switch; the proxy needs the store's host name as its origin `
        + '(the platform\'s CNAME target, e.g. shops.myshopify.com): point www at the platform by CNAME and start again', { code: 'no_store_host', proxy_status: context.proxyStatus });
    }
    const storeOrigin = `https://${originHost}`;
    await deps.gateway.setStoreOrigin(distributionId, storeOrigin);

    // 3. Host → organization entries for every configured name.
    const route = { orgSlug, distributionId, storeOrigin, aiSiteHost };
    for (const name of analysis.certificateNames) await container.distributions.indexAlias(route, name);

    // 4. Public origin + redeploy, undone when the redeploy fails.
    const publicOrigin = `https://${analysis.customDomain}`;
    const previousOrigin = typeof site?.publicOrigin === 'string' ? site.publicOrigin : null;
    const redeployed = await republishUnder(container, context, orgSlug, publicOrigin, { cdnStoreOrigin: storeOrigin });

    // 5. DEPLOYED.
    const now = container.clock.now().toISOString();
    const moved = await finishTransition(container, context, orgSlug, { event: 'mark-step-complete', executionId, executionField: 'domainConnectExecution' }, { proxyStatus: 'DEPLOYED', connectedAt: now });
    if (!moved) return overtaken(orgSlug, 'mark-step-complete');
    const verification = typeof site?.googleVerificationStatus === 'string' ? site.googleVerificationStatus : null;
    const native = nativeCertificateOf(site);
    followUp = {
      poll_verification: typeof site?.googleVerificationToken === 'string' && verification !== 'VERIFIED',
      upgrade_certificate: site?.certificateType !== 'NATIVE' && Boolean(native?.arn),
      poll_interval_seconds: container.config.domain.verificationPollSeconds,
      native_wait_seconds: container.config.domain.nativeCertificateWaitSeconds,
    };
    log.info('domain connected', { org_slug: orgSlug, domain: analysis.customDomain, store_origin: storeOrigin, redeployed: redeployed !== null });
    return {
      httpStatus: 200,
      body: {
        status: 'success', org_slug: orgSlug, proxy_status: 'DEPLOYED',
        custom_domain: analysis.customDomain, public_origin: publicOrigin, store_origin: storeOrigin,
        previous_public_origin: previousOrigin ?? aiSiteOrigin(container.config, orgSlug),
        records: checks, redeployed,
        certificate_type: site?.certificateType ?? null,
        native_certificate: followUp.upgrade_certificate ? 'waiting for its validation records, then attached' : site?.certificateType === 'NATIVE' ? 'attached' : native?.reason ?? 'not requested',
        google_verification_status: verification,
        webmaster_verification: followUp.poll_verification
          ? `polling every ${followUp.poll_interval_seconds} s, 12 times`
          : verification === 'VERIFIED' ? 'already verified' : 'skipped: no verification token (the webmaster console is not configured or the token request failed)',
      },
    };
  });
  return { ...result, followUp: result.httpStatus === 200 ? followUp : null };
}

/**
 * The search engines after the switch (spec Part 2): IndexNow with the site's AI URLs on the
 * customer's domain always; the sitemap to the webmaster console only when verified (else
 * skipped with the reason).
 */
export async function runDomainSubmissions(container: Container, engines: SearchNotifyEngines, orgSlug: string): Promise<Record<string, unknown>> {
  const site = await container.aiSites.get(orgSlug);
  // The pages and AI files (not robots.txt, the key files or sitemap parts), from the live
  // release's stored digests: one artifact, not the release (65,000 files at 20,000 products).
  const aiPaths = Object.keys(await publishedDigests(container, orgSlug, site)).sort()
    .filter((path) => path.endsWith('.html') || path.endsWith('.md') || path === '/data.json' || path === '/llms.txt' || path.startsWith('/llms/'));
  const indexNow = await submitIndexNow(container, { orgSlug, aiPaths }, engines, site);
  const sitemap = await resubmitSitemap(container, orgSlug, engines.webmaster, site);
  log.info('search engines notified after the domain switch', { org_slug: orgSlug, urls: indexNow.urls_submitted, sitemap: sitemap.status });
  return { index_now: indexNow, sitemap };
}
