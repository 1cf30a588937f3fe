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
import { createHash } from 'node:crypto';
import type { CdnGateway, DistributionInfo, DistributionRoute, HostResolver } from '../../core/proxy/types';

export const LOCAL_CDN_DOMAIN = 'cdn.localhost';

/** Where the local CDN finds the distributions the app recorded (GSI1 of the table). */
export interface LocalCdnRegistry {
  findByDomain(domain: string): Promise<DistributionRoute | null>;
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
      if (known) return { ...known, aliases: [...known.aliases] };
      const domainName = localDistributionDomain(id);
      const route = await registry.findByDomain(domainName);
      return route ? { id, domainName, status: 'Deployed', aliases: [] } : null;
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
