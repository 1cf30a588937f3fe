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
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { CdnGateway, DistributionInfo, DistributionRoute, HostResolver } from '../../core/proxy/types';

export const LOCAL_CDN_DOMAIN = 'cdn.localhost';

/** Where the local CDN finds the distributions the app recorded (GSI1 of the table). */
export interface LocalCdnRegistry {
  findByDomain(domain: string): Promise<DistributionRoute | null>;
  /** Records a custom domain (alias) as served by a distribution; needed by attachCertificate. */
  indexAlias?(route: DistributionRoute, domain: string): Promise<void>;
}

export interface LocalCdn extends CdnGateway {
  /** The distribution serving `host` (port and case ignored), or null. */
  resolveHost: HostResolver;
}

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

export function createLocalCdn(registry: LocalCdnRegistry): LocalCdn {
  /** Distributions created by this process, until the app has indexed them. */
  const created = new Map<string, DistributionInfo>();
  /** Aliases and certificate end of validity attached in this process (the AI-site record keeps them too). */
  const attached = new Map<string, { aliases: string[]; notAfter: string }>();

  return {
    async createDistribution(input) {
      const id = localDistributionId(input.callerReference);
      const domainName = localDistributionDomain(id);
      created.set(id, { id, domainName, status: 'Deployed', aliases: [] });
      return { distributionId: id, domainName };
    },

    async getDistribution(id) {
      if (!/^E[A-Z0-9]{13}$/.test(id)) return null;
      const known = created.get(id);
      const aliases = [...(attached.get(id)?.aliases ?? [])];
      if (known) return { ...known, aliases };
      const domainName = localDistributionDomain(id);
      const route = await registry.findByDomain(domainName);
      return route ? { id, domainName, status: 'Deployed', aliases } : null;
    },

    async attachCertificate(distributionId, input) {
      const domainName = localDistributionDomain(distributionId);
      const route = await registry.findByDomain(domainName);
      if (!route) throw new Error(`no local distribution ${distributionId} (its domain ${domainName} is not indexed)`);
      if (!registry.indexAlias) throw new Error('the local CDN registry cannot index aliases');
      // Parses like the certificate manager would; the key is not kept anywhere.
      const x509 = new X509Certificate(input.certificate.certificatePem);
      const aliases = [...new Set(input.aliases.map(hostName))];
      for (const alias of aliases) await registry.indexAlias({ ...route, distributionId }, alias);
      attached.set(distributionId, { aliases, notAfter: input.certificate.notAfter });
      return { certificateArn: `local:${distributionId}:${x509.serialNumber.toLowerCase()}`, aliases, notAfter: input.certificate.notAfter };
    },

    async resolveHost(host) {
      const name = hostName(host);
      if (!name) return null;
      const route = await registry.findByDomain(name);
      if (!route || !route.storeOrigin || !route.aiSiteHost) return null;
      return { orgSlug: route.orgSlug, storeOrigin: route.storeOrigin, aiSiteHost: route.aiSiteHost, distributionId: route.distributionId || undefined };
    },
  };
}
