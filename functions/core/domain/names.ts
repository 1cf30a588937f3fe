/**
 * Domain names: the one module that says which part of a host name is the public suffix and
 * which is the registrable domain ("eTLD+1"). Shared by competitor discovery (duplicate keys,
 * core/competitors/domain.ts) and the domain connection (core/domain/analysis.ts). Pure, no I/O.
 *
 * Why a compact rule set and not the Public Suffix List itself: every maintained PSL library
 * was measured bundled as the routes are (esbuild, node22, cjs, minified) and none fits the
 * 250 KB route budget next to what a route already carries (184 KB for the smallest route,
 * 218 KB for the competitor routes that use this module):
 *
 *   tldts 7.5.4 (ICANN + private)        134.5 KB minified, 47.8 KB gzip
 *   tldts-experimental 7.4.16            107.8 KB minified, 47.3 KB gzip
 *   tldts-icann 7.4.16 (ICANN only)       86.5 KB minified, 30.6 KB gzip
 *   psl 1.15.0 (with punycode)           161.1 KB minified, 45.1 KB gzip
 *
 * So the rules are:
 * - the hosting platforms whose every subdomain belongs to a different owner (the PSL private
 *   section entries a store can live on: `*.myshopify.com`, `*.github.io`, ...): the platform
 *   suffix is a public suffix, and a host under it is a platform host;
 * - two-level suffixes under two-letter country TLDs (`co.uk`, `com.au`, `ac.jp`, ...): a
 *   second-level label from a fixed list of the generic ones countries use;
 * - otherwise the last label (`com`, `shop`, `de`).
 * Known gaps against the full list: city-level and rare second-level suffixes (`kawasaki.jp`,
 * `nom.es` is covered, `blogspot.<cc>` variants are not), and a registered domain whose name
 * happens to be one of the generic labels under a country TLD (`id.me` is read as a suffix).
 */
import { isIP } from 'node:net';

/** Hosting platforms whose subdomains belong to different owners (PSL private section). */
export const PLATFORM_SUFFIXES: readonly string[] = [
  'myshopify.com', 'shopifypreview.com', 'wixsite.com', 'squarespace.com', 'square.site', 'bigcartel.com',
  'ecwid.com', 'company.site', 'webflow.io', 'carrd.co', 'weebly.com', 'wordpress.com', 'blogspot.com',
  'tumblr.com', 'substack.com', 'github.io', 'gitlab.io', 'netlify.app', 'vercel.app', 'pages.dev',
  'web.app', 'firebaseapp.com', 'herokuapp.com', 'azurewebsites.net', 'cloudfront.net', 'appspot.com',
  'godaddysites.com', 'mystrikingly.com', 'jimdosite.com', 'framer.website', 'myportfolio.com',
];

/** Second-level labels that, under a two-letter country TLD, are public suffixes (`co.uk`). */
const COUNTRY_SECOND_LEVELS = new Set([
  'co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ltd', 'plc', 'me', 'ne', 'or', 'go', 'gob', 'nic', 'sch',
  'asn', 'id', 'firm', 'gen', 'ind', 'biz', 'info', 'mil', 'nom', 'int', 'govt',
]);

/** Host of a URL or host string: lower-case, no trailing dot, no IPv6 brackets. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.+$/, '').replace(/^\[|\]$/g, '');
}

/** True for an IPv4 or IPv6 literal (brackets allowed). */
export function isIpHost(host: string): boolean {
  return isIP(normalizeHost(host)) !== 0;
}

/** The platform suffix a host is, or lies under (`alpha.myshopify.com` → `myshopify.com`); null otherwise. */
export function platformSuffixOf(hostname: string): string | null {
  const host = normalizeHost(hostname);
  return PLATFORM_SUFFIXES.find((suffix) => host === suffix || host.endsWith(`.${suffix}`)) ?? null;
}

/**
 * The public suffix of a host under the rules above: `shop.rival.co.uk` → `co.uk`,
 * `a.myshopify.com` → `myshopify.com`, `rival.com` → `com`. A single label is its own suffix
 * (the list's implicit `*` rule: `localhost` → `localhost`); IP literals and '' have none (null).
 */
export function publicSuffix(hostname: string): string | null {
  const host = normalizeHost(hostname);
  if (host === '' || isIP(host)) return null;
  if (!host.includes('.')) return host;
  const platform = platformSuffixOf(host);
  if (platform) return platform;
  const labels = host.split('.');
  const tld = labels[labels.length - 1];
  const second = labels[labels.length - 2];
  if (tld.length === 2 && COUNTRY_SECOND_LEVELS.has(second)) return `${second}.${tld}`;
  return tld;
}

/** True when the host is itself a public suffix (`co.uk`, `com`, `myshopify.com`). */
export function isPublicSuffix(hostname: string): boolean {
  const host = normalizeHost(hostname);
  return publicSuffix(host) === host;
}

/**
 * `shop.rival.co.uk` → `rival.co.uk`; IP literals, single-label hosts and public suffixes
 * themselves are returned as they are.
 */
export function registrableDomain(hostname: string): string {
  const host = normalizeHost(hostname);
  const suffix = publicSuffix(host);
  if (!suffix || suffix === host) return host;
  const labels = host.split('.');
  return labels.slice(-(suffix.split('.').length + 1)).join('.');
}
