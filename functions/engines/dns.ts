/** The live DNS checker of a container (DNS_RESOLVERS): domain connection's lookups. */
import { createDnsChecker } from '../adapters/external/dns';
import { perContainer } from './per-container';

export const dnsCheckerOf = perContainer((container) => createDnsChecker({ resolvers: container.config.dnsResolvers }));
