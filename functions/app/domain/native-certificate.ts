/**
 * The certificate manager's own certificate (spec Part 2: "upgrade to a native certificate
 * manager certificate with auto-renewal", `certificate_type` FREE_CA → NATIVE).
 *
 * The imported free certificate does not renew itself (and free certificates shrink to 64
 * days in Feb 2027), so complete-certificate also requests a DNS-validated certificate for the
 * same names; its validation CNAMEs go into the Part 2 records, added with the DNS switch.
 * Once they are in DNS the certificate manager issues it, and the domain-connect workflow's
 * upgrade step puts it on the distribution. It renews itself while the CNAMEs stay (disconnect
 * leaves them). Until then the free certificate serves the domain.
 *
 * State on the AI-site record: `nativeCertificate {arn, names, status, validationRecords,
 * reason?, requestedAt, checkedAt}`.
 */
import type { CdnGateway } from '../../core/proxy/types';
import type { Container } from '../../container';
import { createLogger } from '../../logger';

export interface NativeCertificateState {
  arn: string;
  names: string[];
  /** The certificate manager's status (`PENDING_VALIDATION`, `ISSUED`, `FAILED`, ...), or `REQUEST_FAILED`. */
  status: string;
  /** DNS-validation CNAMEs, fully-qualified names (empty until the certificate manager lists them). */
  validationRecords: { name: string; value: string }[];
  reason?: string;
  requestedAt: string;
  checkedAt: string;
}

export type NativeGateway = Pick<CdnGateway, 'requestNativeCertificate' | 'describeNativeCertificate' | 'useCertificate'>;

/** How often complete-certificate looks for the validation records after the request (they appear within seconds). */
const RECORD_LOOKS = 5;
const RECORD_LOOK_INTERVAL_MS = 2_000;

const log = createLogger({ component: 'native-certificate' });

export function nativeCertificateOf(site: Record<string, unknown> | null): NativeCertificateState | null {
  const value = site?.nativeCertificate as NativeCertificateState | null | undefined;
  return value && typeof value.arn === 'string' ? value : null;
}

/** The validation records to add with the DNS switch (none once the certificate is NATIVE: they are already in DNS). */
export function nativeValidationRecords(site: Record<string, unknown> | null): { name: string; value: string }[] {
  return nativeCertificateOf(site)?.validationRecords ?? [];
}

/**
 * Requests the native certificate for `names` (or keeps the one already requested for the
 * same names) and looks up its validation records. Never throws: a refusal is recorded with
 * its reason and the free certificate goes on serving.
 */
export async function requestNativeCertificate(
  container: Container,
  gateway: NativeGateway,
  input: { orgSlug: string; entityId: string; distributionId: string; names: string[]; idempotencyKey: string; site: Record<string, unknown> | null },
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<NativeCertificateState> {
  const now = () => container.clock.now().toISOString();
  const previous = nativeCertificateOf(input.site);
  const sameNames = previous && previous.names.join(',') === input.names.join(',') && previous.status !== 'REQUEST_FAILED' && previous.status !== 'FAILED';
  let state: NativeCertificateState;
  try {
    const arn = sameNames ? previous.arn : (await gateway.requestNativeCertificate({
      distributionId: input.distributionId, names: input.names, idempotencyKey: input.idempotencyKey, tags: { service: 'ai-visibility', org: input.orgSlug },
    })).certificateArn;
    let described = await gateway.describeNativeCertificate(arn, input.names);
    for (let look = 1; look < RECORD_LOOKS && described.validationRecords.length === 0 && described.status === 'PENDING_VALIDATION'; look++) {
      await sleep(RECORD_LOOK_INTERVAL_MS);
      described = await gateway.describeNativeCertificate(arn, input.names);
    }
    state = {
      arn, names: input.names, status: described.status, validationRecords: described.validationRecords,
      ...(described.reason ? { reason: described.reason } : {}),
      requestedAt: sameNames ? previous.requestedAt : now(), checkedAt: now(),
    };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.warn('native certificate request failed; the free certificate stays', { org_slug: input.orgSlug, error: reason });
    state = { arn: '', names: input.names, status: 'REQUEST_FAILED', validationRecords: [], reason, requestedAt: now(), checkedAt: now() };
  }
  await container.aiSites.patch(input.orgSlug, input.entityId, { nativeCertificate: state });
  return state;
}

export interface UpgradeOutcome {
  /** True when nothing more will happen (upgraded, already native, or refused). */
  done: boolean;
  certificate_type: 'FREE_CA' | 'NATIVE' | null;
  native_status: string | null;
  reason?: string;
}

/**
 * One look at the native certificate (the domain-connect workflow repeats it while it is
 * pending): issued → put on the distribution, `certificate_type` NATIVE. Safe to repeat.
 */
export async function upgradeToNativeCertificate(container: Container, gateway: NativeGateway, orgSlug: string): Promise<UpgradeOutcome> {
  const site = await container.aiSites.get(orgSlug) as Record<string, unknown> | null;
  const type = site?.certificateType === 'NATIVE' || site?.certificateType === 'FREE_CA' ? site.certificateType : null;
  if (type === 'NATIVE') return { done: true, certificate_type: 'NATIVE', native_status: 'ISSUED' };
  const native = nativeCertificateOf(site);
  const distributionId = typeof site?.cdnDistributionId === 'string' ? site.cdnDistributionId : null;
  if (!native || !native.arn || !distributionId || !site) {
    return { done: true, certificate_type: type, native_status: native?.status ?? null, reason: native?.reason ?? 'no native certificate was requested' };
  }
  const entityId = String(site.entityId);
  const described = await gateway.describeNativeCertificate(native.arn, native.names);
  const checked: NativeCertificateState = {
    ...native, status: described.status, checkedAt: container.clock.now().toISOString(),
    validationRecords: described.validationRecords.length ? described.validationRecords : native.validationRecords,
    ...(described.reason ? { reason: described.reason } : {}),
  };
  if (described.status === 'ISSUED') {
    await gateway.useCertificate(distributionId, native.arn);
    await container.aiSites.patch(orgSlug, entityId, {
      nativeCertificate: checked, certificateType: 'NATIVE', certificateArn: native.arn, certificateNotAfter: described.notAfter,
    });
    log.info('native certificate attached', { org_slug: orgSlug, not_after: described.notAfter });
    return { done: true, certificate_type: 'NATIVE', native_status: 'ISSUED' };
  }
  await container.aiSites.patch(orgSlug, entityId, { nativeCertificate: checked });
  const pending = described.status === 'PENDING_VALIDATION';
  return {
    done: !pending, certificate_type: type, native_status: described.status,
    reason: pending ? 'waiting for the certificate manager to see the validation records' : described.reason ?? `the certificate manager reports ${described.status}`,
  };
}
