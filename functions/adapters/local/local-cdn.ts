/**
 * The local stand-in for CloudFront distributions. A "distribution" is what the edge
 * function needs to route a request: the store origin and the AI-site host. Its id looks
 * like CloudFront's (`E` + 13 uppercase letters and digits) and its domain is
 * `<id in lowercase>.cdn.localhost`, which the local CDN proxy (PROXY_PORT) answers.
 *
 * Nothing is stored here: the app function records the returned id and domain on the
 * AI-site record and indexes the domain (GSI1), and `resolveHost` reads that index back.
 * Like CloudFront, a create with a caller reference already used returns the same
 * distribution: the id is derived from the caller reference.
 *
 * Domain connection Part 2 locally:
 * - `setStoreOrigin` rewrites the store origin the index keeps for the distribution domain
 *   and every alias (registry.setStoreOrigin), so `resolveHost` answers the new one at once.
 * - Native certificates stand in for the certificate manager's: the ARN is
 *   `local:native:<distribution id>:<hash of the names>`, each name gets a deterministic
 *   validation CNAME (`_<32 hex>.<name>` → `_<32 hex>.acm-validations.localhost`), and the
 *   certificate is ISSUED once every one of them resolves (the `lookupCname` option: the
 *   configured DNS resolvers), valid LOCAL_NATIVE_VALIDITY_DAYS from then.
 * - `useCertificate` is remembered in this process and shown by `getDistribution`.
 *
 * Edge-function versions (issue 15): the version a distribution is created with or moved to
 * (`setEdgeFunction`) is remembered in this process and shown by `getDistribution`; the app
 * records it on the AI-site record as on AWS. The local CDN proxy always runs the edge-function
 * source as it is, whatever version is recorded. Fault injection for tests: a distribution id
 * in `edgeUpdateFaults` (the `failEdgeUpdates` option, a live set) makes `setEdgeFunction`
 * fail for it, as a refused CloudFront update would.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { ValidationError } from '../../core/errors';
import type { CdnGateway, DistributionInfo, DistributionRoute, HostResolver, NativeCertificateInfo, ValidationRecord } from '../../core/proxy/types';

export const LOCAL_CDN_DOMAIN = 'cdn.localhost';

/** Where the local CDN finds the distributions the app recorded (GSI1 of the table). */
export interface LocalCdnRegistry {
  findByDomain(domain: string): Promise<DistributionRoute | null>;
  /** Records a custom domain (alias) as served by a distribution; needed by attachCertificate. */
  indexAlias?(route: DistributionRoute, domain: string): Promise<void>;
  /** Rewrites the store origin of the organization's distribution domain and aliases; needed by setStoreOrigin. */
  setStoreOrigin?(orgSlug: string, storeOrigin: string): Promise<{ changed: boolean }>;
}

export interface LocalCdnOptions {
  /**
   * The CNAME target of a name as the configured resolvers see it (null: none). Without it
   * native certificates stay PENDING_VALIDATION.
   */
  lookupCname?: (name: string) => Promise<string | null>;
  /** Clock of the native certificates' end of validity (tests). */
  now?: () => Date;
  /** Tests: distribution ids whose edge-function update fails (read on every update; add and delete freely). */
  failEdgeUpdates?: Set<string>;
}

export interface LocalCdn extends CdnGateway {
  /** The distribution serving `host` (port and case ignored), or null. */
  resolveHost: HostResolver;
  /** Tests: the live set of distribution ids whose `setEdgeFunction` fails (fault injection). */
  readonly edgeUpdateFaults: Set<string>;
}

/** An edge-function version the local CDN accepts: a local version or a numbered Lambda version. */
const EDGE_VERSION = /^(local:edge-function:\d+|arn:aws[a-z-]*:lambda:us-east-1:\d{12}:function:[A-Za-z0-9_-]+:\d+)$/;

/**
 * Validity of a local native certificate. The certificate manager's public certificates are
 * valid 198 days since its 2026 change (../shared/reference/domain-security-anchors.md §1.6;
 * 395 days before); it renews them itself.
 */
export const LOCAL_NATIVE_VALIDITY_DAYS = 198;
export const LOCAL_VALIDATION_DOMAIN = 'acm-validations.localhost';
const DAY_MS = 24 * 60 * 60 * 1000;
const LOCAL_NATIVE_ARN = /^local:native:(E[A-Z0-9]{13}):([0-9a-f]{16})$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `E` + 13 uppercase alphanumerics, stable for one caller reference. */
export function localDistributionId(callerReference: string): string {
  const digest = createHash('sha256').update(`local-cdn:${callerReference}`).digest();
  let id = 'E';
  for (let i = 0; i < 13; i++) id += ALPHABET[digest[i] % ALPHABET.length];
  return id;
}

export const localDistributionDomain = (id: string): string => `${id.toLowerCase()}.${LOCAL_CDN_DOMAIN}`;

/** `e1abc….cdn.localhost:8082` → `e1abc….cdn.localhost`. */
export const hostName = (host: string): string => host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');

/** Lowercase names without the final dot, without duplicates, in order; at least one. */
function nativeNames(names: readonly string[]): string[] {
  const list = [...new Set(names.map(hostName).filter(Boolean))];
  if (list.length === 0) throw new ValidationError('names: at least one domain name is needed');
  return list;
}

const hex32 = (...parts: string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
const namesHash = (names: readonly string[]): string => createHash('sha256').update([...names].sort().join(',')).digest('hex').slice(0, 16);

/** The local ARN of a native certificate for `names` on `distributionId`. */
export function localNativeCertificateArn(distributionId: string, names: readonly string[]): string {
  return `local:native:${distributionId}:${namesHash(nativeNames(names))}`;
}

/** The validation CNAMEs of a local native certificate (a wildcard shares its base name's record). */
export function localValidationRecords(certificateArn: string, names: readonly string[]): ValidationRecord[] {
  const bases = [...new Set(nativeNames(names).map((n) => n.replace(/^\*\./, '')))];
  return bases.map((name) => ({ name: `_${hex32('name', certificateArn, name)}.${name}`, value: `_${hex32('value', certificateArn, name)}.${LOCAL_VALIDATION_DOMAIN}` }));
}

export function createLocalCdn(registry: LocalCdnRegistry, options: LocalCdnOptions = {}): LocalCdn {
  const now = options.now ?? (() => new Date());
  /** Distributions created by this process, until the app has indexed them. */
  const created = new Map<string, DistributionInfo>();
  /** Aliases and the certificate put on a distribution in this process (the AI-site record keeps them too). */
  const attached = new Map<string, { aliases: string[]; certificateArn: string | null }>();
  /** End of validity of the native certificates seen issued in this process (stable across describes). */
  const issued = new Map<string, string>();
  /** The edge-function version of each distribution created or moved in this process. */
  const edgeVersions = new Map<string, string | null>();
  const edgeUpdateFaults = options.failEdgeUpdates ?? new Set<string>();

  /** The indexed route of a distribution, or an error naming it. */
  async function routeOf(distributionId: string): Promise<DistributionRoute> {
    const domainName = localDistributionDomain(distributionId);
    const route = /^E[A-Z0-9]{13}$/.test(distributionId) ? await registry.findByDomain(domainName) : null;
    if (!route) throw new Error(`no local distribution ${distributionId} (its domain ${domainName} is not indexed)`);
    return route;
  }

  return {
    async createDistribution(input) {
      const id = localDistributionId(input.callerReference);
      const domainName = localDistributionDomain(id);
      const requested = input.edgeFunctionVersionArn?.trim() || null;
      if (requested && !EDGE_VERSION.test(requested)) throw new ValidationError(`edgeFunctionVersionArn: not an edge-function version: ${requested}`);
      // Like CloudFront: a repeated create returns the first distribution, with what it was created with.
      if (!created.has(id)) {
        created.set(id, { id, domainName, status: 'Deployed', aliases: [] });
        edgeVersions.set(id, requested);
      }
      return { distributionId: id, domainName, edgeFunctionVersionArn: edgeVersions.get(id) ?? null };
    },

    async getDistribution(id) {
      if (!/^E[A-Z0-9]{13}$/.test(id)) return null;
      const known = created.get(id);
      const aliases = [...(attached.get(id)?.aliases ?? [])];
      const certificateArn = attached.get(id)?.certificateArn ?? null;
      const edgeFunctionVersionArn = edgeVersions.get(id) ?? null;
      if (known) return { ...known, aliases, certificateArn, edgeFunctionVersionArn };
      const domainName = localDistributionDomain(id);
      const route = await registry.findByDomain(domainName);
      return route ? { id, domainName, status: 'Deployed', aliases, certificateArn, edgeFunctionVersionArn } : null;
    },

    async attachCertificate(distributionId, input) {
      const route = await routeOf(distributionId);
      if (!registry.indexAlias) throw new Error('the local CDN registry cannot index aliases');
      // Parses like the certificate manager would; the key is not kept anywhere.
      const x509 = new X509Certificate(input.certificate.certificatePem);
      const aliases = [...new Set(input.aliases.map(hostName))];
      for (const alias of aliases) await registry.indexAlias({ ...route, distributionId }, alias);
      const certificateArn = `local:${distributionId}:${x509.serialNumber.toLowerCase()}`;
      attached.set(distributionId, { aliases, certificateArn });
      return { certificateArn, aliases, notAfter: input.certificate.notAfter };
    },

    async setStoreOrigin(distributionId, storeOrigin) {
      const origin = localStoreOrigin(storeOrigin);
      const route = await routeOf(distributionId);
      const onItself = await registry.findByDomain(hostName(new URL(origin).hostname));
      if (onItself && onItself.orgSlug === route.orgSlug) {
        throw new ValidationError(`storeOrigin: ${new URL(origin).hostname} is served by this distribution itself; the store origin would loop`);
      }
      if (!registry.setStoreOrigin) throw new Error('the local CDN registry cannot change store origins');
      const { changed } = await registry.setStoreOrigin(route.orgSlug, origin);
      return { storeOrigin: origin, changed };
    },

    async requestNativeCertificate(input) {
      const names = nativeNames(input.names);
      if (!created.has(input.distributionId)) await routeOf(input.distributionId);
      return { certificateArn: localNativeCertificateArn(input.distributionId, names) };
    },

    async describeNativeCertificate(certificateArn, names) {
      const match = LOCAL_NATIVE_ARN.exec(certificateArn);
      if (!match) throw new ValidationError(`certificateArn: not a local native certificate: ${certificateArn}`);
      const list = nativeNames(names);
      if (namesHash(list) !== match[2]) throw new ValidationError(`names: not the names certificate ${certificateArn} was requested for`);
      const validationRecords = localValidationRecords(certificateArn, list);
      const pending = (reason: string): NativeCertificateInfo => ({ status: 'PENDING_VALIDATION', validationRecords, notAfter: null, reason });
      const known = issued.get(certificateArn);
      if (known) return { status: 'ISSUED', validationRecords, notAfter: known };
      if (!options.lookupCname) return pending('the local certificate manager has no DNS lookup (lookupCname) to see the validation records with');
      const absent: string[] = [];
      for (const record of validationRecords) {
        let target: string | null;
        try {
          target = await options.lookupCname(record.name);
        } catch (err) {
          return pending(`the DNS lookup of ${record.name} failed (${(err as Error).message})`);
        }
        if (!target || hostName(target) !== record.value) absent.push(record.name);
      }
      if (absent.length) return pending(`waiting for the validation CNAME of ${absent.join(', ')} in DNS`);
      const notAfter = new Date(now().getTime() + LOCAL_NATIVE_VALIDITY_DAYS * DAY_MS).toISOString();
      issued.set(certificateArn, notAfter);
      return { status: 'ISSUED', validationRecords, notAfter };
    },

    async useCertificate(distributionId, certificateArn) {
      const arn = certificateArn.trim();
      if (!arn) throw new ValidationError('certificateArn: required');
      if (!created.has(distributionId)) await routeOf(distributionId);
      attached.set(distributionId, { aliases: attached.get(distributionId)?.aliases ?? [], certificateArn: arn });
    },

    async setEdgeFunction(distributionId, versionArn) {
      const arn = versionArn.trim();
      if (!EDGE_VERSION.test(arn)) throw new ValidationError(`versionArn: not an edge-function version: ${versionArn}`);
      if (!created.has(distributionId)) await routeOf(distributionId);
      if (edgeUpdateFaults.has(distributionId)) {
        throw new Error(`the local CDN refused the update of distribution ${distributionId} (fault injected for tests)`);
      }
      const previousVersionArn = edgeVersions.get(distributionId) ?? null;
      if (previousVersionArn === arn) return { changed: false, previousVersionArn };
      edgeVersions.set(distributionId, arn);
      return { changed: true, previousVersionArn };
    },

    edgeUpdateFaults,

    async resolveHost(host) {
      const name = hostName(host);
      if (!name) return null;
      const route = await registry.findByDomain(name);
      if (!route || !route.storeOrigin || !route.aiSiteHost) return null;
      return { orgSlug: route.orgSlug, storeOrigin: route.storeOrigin, aiSiteHost: route.aiSiteHost, distributionId: route.distributionId || undefined };
    },
  };
}

/** `http(s)://host[:port]` (loopback stores are http locally), canonical; ValidationError otherwise. */
function localStoreOrigin(storeOrigin: string): string {
  let url: URL;
  try {
    url = new URL(storeOrigin.trim());
  } catch {
    throw new ValidationError(`storeOrigin: not a URL: ${storeOrigin}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError(`storeOrigin: must be an http(s) origin: ${storeOrigin}`);
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new ValidationError(`storeOrigin: an origin only (https://host[:port]), no path, query or credentials: ${storeOrigin}`);
  }
  const host = url.hostname.replace(/\.$/, '');
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`;
}
