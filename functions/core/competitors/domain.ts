/**
 * Which website a URL belongs to, for competitor de-duplication. Pure, no I/O.
 *
 * Two URLs are the same competitor when they share the registrable domain ("eTLD+1"):
 * scheme, `www.`, other subdomains, path and query do not matter
 * (`https://www.rival.example/shop` = `http://shop.rival.example` = `rival.example`).
 * A non-default port is kept, because another port is another server (the crawler's
 * `sameSite` rule; it is also what lets tests run several sites on loopback).
 *
 * The registrable domain comes from the shared domain-name module (core/domain/names.ts),
 * the same rules the domain connection uses: the multi-tenant hosting platforms where every
 * subdomain is a different site (`*.myshopify.com`, `*.github.io`, ...) and two-level country
 * suffixes (`co.uk`, `com.au`, ...); its comment says why it is not the full Public Suffix List.
 */
import { isIP } from 'node:net';
import { normalizeHost, registrableDomain } from '../domain/names';
import { parseStoreUrl } from '../store/store-url';

export { normalizeHost, registrableDomain };

/** The duplicate key of a website: registrable domain plus a non-default port. */
export function competitorDomain(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  const domain = registrableDomain(parsed.hostname);
  return parsed.port ? `${domain}:${parsed.port}` : domain;
}

/** Same competitor (see the module comment); false when either URL is unparseable. */
export function sameCompetitor(a: string | URL, b: string | URL): boolean {
  try {
    return competitorDomain(a) === competitorDomain(b);
  } catch {
    return false;
  }
}

/**
 * What a user typed (a bare domain or a full URL) → the website origin to crawl.
 * ValidationError naming `field` when it is not an http(s) URL with a valid host.
 */
export function parseCompetitorUrl(input: string, field = 'url'): URL {
  return parseStoreUrl(input, field);
}

/** The host a favicon service is asked about: no port, no `www.`. */
export function faviconHost(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return normalizeHost(parsed.hostname).replace(/^www\./, '');
}

/**
 * Sites that are never a store's competitor although search results are full of them:
 * marketplaces, social networks, forums, encyclopedias, review and listing aggregators,
 * search engines, app stores, big publishers of "best of" lists and site-analysis tools.
 * Matched on the brand label, so every country domain is covered (`amazon.de`, `ebay.co.uk`).
 */
const EXCLUDED_BRANDS = new Set([
  // marketplaces and big-box retail
  'amazon', 'amzn', 'ebay', 'etsy', 'walmart', 'target', 'aliexpress', 'alibaba', 'temu', 'wish', 'rakuten',
  'mercadolibre', 'flipkart', 'bol', 'allegro', 'zalando', 'otto', 'costco', 'bestbuy', 'wayfair', 'overstock',
  'newegg', 'jet', 'shopee', 'lazada', 'jd', 'taobao', 'tmall', 'noon', 'asos', 'poshmark', 'depop', 'vinted',
  'mercari', 'craigslist', 'gumtree', 'kijiji', 'offerup', 'faire',
  // social, video, forums, Q&A
  'facebook', 'fb', 'instagram', 'pinterest', 'youtube', 'youtu', 'tiktok', 'twitter', 'linkedin', 'snapchat',
  'reddit', 'quora', 'tumblr', 'medium', 'threads', 'discord', 'twitch', 'vimeo', 'whatsapp', 'telegram',
  'stackexchange', 'stackoverflow',
  // reference, reviews, listings, maps
  'wikipedia', 'wikimedia', 'wikihow', 'fandom', 'yelp', 'tripadvisor', 'trustpilot', 'sitejabber', 'bbb',
  'yellowpages', 'foursquare', 'angi', 'houzz', 'thumbtack', 'glassdoor', 'indeed', 'crunchbase', 'zoominfo',
  'dnb', 'bloomberg', 'g2', 'capterra', 'producthunt', 'reviews', 'consumerreports',
  // search engines, portals, app stores, platforms
  'google', 'bing', 'yahoo', 'duckduckgo', 'baidu', 'yandex', 'ask', 'aol', 'msn', 'apple', 'microsoft',
  'shopify', 'wix', 'squarespace', 'bigcommerce', 'woocommerce', 'wordpress',
  // publishers of lists and news
  'forbes', 'nytimes', 'buzzfeed', 'businessinsider', 'insider', 'theguardian', 'cnn', 'bbc', 'huffpost',
  'usatoday', 'wsj', 'washingtonpost', 'vogue', 'cosmopolitan', 'goodhousekeeping', 'thespruce', 'wired',
  'theverge', 'techradar', 'cnet', 'pcmag', 'tomsguide', 'nbcnews', 'foxnews', 'reuters', 'time', 'msn',
  'seriouseats', 'bonappetit', 'epicurious', 'allrecipes', 'healthline', 'webmd', 'verywellhealth', 'gq',
  // site-analysis and "sites like" tools
  'similarweb', 'semrush', 'ahrefs', 'moz', 'similarsites', 'siteslike', 'sitelike', 'alternativeto',
  'saashub', 'builtwith', 'owler', 'marketingcharts', 'statista',
]);

/** Exact domains excluded whose brand label is too short or ambiguous to list above. */
const EXCLUDED_DOMAINS = new Set(['x.com', 't.co', 'goo.gl', 'bit.ly', 'archive.org', 'web.archive.org']);

/** True for a marketplace, social network, aggregator... (see EXCLUDED_BRANDS). */
export function isExcludedPlatform(domainOrHost: string): boolean {
  const host = normalizeHost(domainOrHost.replace(/:\d+$/, ''));
  if (isIP(host)) return false;
  const registrable = registrableDomain(host);
  if (EXCLUDED_DOMAINS.has(registrable)) return true;
  const brand = registrable.split('.')[0];
  return EXCLUDED_BRANDS.has(brand);
}
