/**
 * The addresses AI and search vendors publish for their crawlers and fetchers, and whether a
 * visit that claims a vendor came from one of them (issue 35, D193). Pure: the lists are
 * fetched by the daily `RefreshCrawlerAddresses` task (app/visits/crawler-addresses.ts) and
 * read from the table; nothing here does I/O.
 *
 * Every vendor below publishes its lists in Google's JSON format,
 * `{"creationTime": "...", "prefixes": [{"ipv4Prefix": "20.171.206.0/24"}, {"ipv6Prefix": "..."}]}`.
 * A download is used only when it passes sanity checks: every entry a CIDR range, none
 * private or reserved, none wider than a /16 (IPv4) or /32 (IPv6) (Google's widest is a /16),
 * and a count within the vendor's bounds. Trusting a wrong list would mark anyone's spoof
 * as verified.
 *
 * Verification (`verified` on a visit):
 * - `true`: the vendor publishes addresses and the visit's address is in them;
 * - `false`: it publishes them and the address is not in them (a spoof, or a list gone
 *   stale): stored apart, never counted;
 * - `null`: the vendor publishes nothing (or nothing for this agent), its list was never fetched, or the request had no
 *   address the service observed itself.
 */
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface PublishedAddressList {
  /** The vendor as the classifier names it (`UserAgentClass.vendor`). */
  vendor: string;
  /**
   * The classifier's tokens whose requests the vendor says come from these addresses. Its
   * other agents (a browser agent on a cloud VM, GitHub Copilot for Microsoft, DuckDuckBot
   * beside DuckAssistBot) are not covered, and verify to `null`, never `false`.
   */
  tokens: readonly string[];
  /** Where the vendor publishes its lists (its crawler documentation names them). */
  urls: readonly string[];
  /** Fewer ranges than this is a broken download, not a vendor that shrank. */
  minRanges: number;
}

/**
 * A list fetched longer ago than this verifies nothing (`null`): after a week of failed
 * refreshes a vendor may have moved its crawlers, and its genuine visits must not turn `false`.
 */
export const MAX_LIST_AGE_DAYS = 7;

export function isListCurrent(fetchedAt: string | null, now: Date): boolean {
  return fetchedAt !== null && now.getTime() - Date.parse(fetchedAt) <= MAX_LIST_AGE_DAYS * 86_400_000;
}

/** At most this many ranges are kept per vendor (Google's lists are ~1,500): bounds the stored item. */
export const MAX_RANGES_PER_VENDOR = 5_000;
const WIDEST_PREFIX = { ipv4: 16, ipv6: 32 } as const;

/**
 * The vendors that publish their crawlers' addresses, with the lists their bot pages name.
 * Vendors absent here (xAI, DeepSeek, Meta, ByteDance, ...) publish none: their visits are `null`.
 */
export const PUBLISHED_ADDRESS_LISTS: readonly PublishedAddressList[] = [
  // https://platform.openai.com/docs/bots
  { vendor: 'OpenAI', tokens: ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User'], urls: ['https://openai.com/gptbot.json', 'https://openai.com/searchbot.json', 'https://openai.com/chatgpt-user.json'], minRanges: 3 },
  // https://support.claude.com ("Does Anthropic crawl data from the web")
  { vendor: 'Anthropic', tokens: ['ClaudeBot', 'Claude-User', 'Claude-SearchBot'], urls: ['https://claude.com/crawling/bots.json'], minRanges: 1 },
  // https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot
  {
    vendor: 'Google',
    // Common crawlers (googlebot.json), special-case crawlers, user-triggered fetchers.
    tokens: ['Googlebot', 'Storebot-Google', 'GoogleOther', 'Google-CloudVertexBot', 'Gemini-Deep-Research', 'Google-NotebookLM', 'Google-GeminiNotebook'],
    urls: [
      'https://developers.google.com/static/search/apis/ipranges/googlebot.json',
      'https://developers.google.com/static/search/apis/ipranges/special-crawlers.json',
      'https://developers.google.com/static/search/apis/ipranges/user-triggered-fetchers.json',
      'https://developers.google.com/static/search/apis/ipranges/user-triggered-fetchers-google.json',
    ],
    minRanges: 10,
  },
  // https://www.bing.com/webmasters/help/how-to-verify-bingbot-3905dc26
  { vendor: 'Microsoft', tokens: ['bingbot'], urls: ['https://www.bing.com/toolbox/bingbot.json'], minRanges: 3 },
  // https://docs.perplexity.ai/guides/bots
  { vendor: 'Perplexity', tokens: ['PerplexityBot', 'Perplexity-User'], urls: ['https://www.perplexity.com/perplexitybot.json', 'https://www.perplexity.com/perplexity-user.json'], minRanges: 1 },
  // https://support.apple.com/en-us/119829
  { vendor: 'Apple', tokens: ['Applebot'], urls: ['https://search.developer.apple.com/applebot.json'], minRanges: 1 },
  // https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot
  { vendor: 'DuckDuckGo', tokens: ['DuckAssistBot'], urls: ['https://duckduckgo.com/duckassistbot.json'], minRanges: 1 },
  // https://commoncrawl.org/ccbot
  { vendor: 'Common Crawl', tokens: ['CCBot'], urls: ['https://index.commoncrawl.org/ccbot.json'], minRanges: 1 },
  // https://docs.mistral.ai/robots
  { vendor: 'Mistral AI', tokens: ['MistralAI-User'], urls: ['https://mistral.ai/mistralai-user-ips.json'], minRanges: 1 },
];

/** The list that covers an agent, by the classifier's token; undefined when none does. */
export const publishedListFor = (token: string | null | undefined): PublishedAddressList | undefined =>
  token ? PUBLISHED_ADDRESS_LISTS.find((l) => l.tokens.includes(token)) : undefined;

/** A downloaded list that cannot be trusted; the message says why. */
export class AddressListError extends Error {
  override name = 'AddressListError';
}

/** One CIDR range checked and in canonical form (`20.171.206.0/24`, `2600:1f28:365:80b0::/60`). */
function checkedRange(text: string): string {
  const slash = text.indexOf('/');
  const network = slash > 0 ? text.slice(0, slash) : '';
  const bits = slash > 0 ? text.slice(slash + 1) : '';
  if (isIP(network) === 0 || !/^\d{1,3}$/.test(bits)) throw new AddressListError(`"${text.slice(0, 60)}" is not an address range`);
  const [address, prefix] = ipaddr.parseCIDR(text);
  const family = address.kind();
  if (prefix < WIDEST_PREFIX[family]) throw new AddressListError(`${text} is wider than a /${WIDEST_PREFIX[family]}`);
  if (address.range() !== 'unicast') throw new AddressListError(`${text} is a ${address.range()} range, not a public one`);
  return `${address.toString()}/${prefix}`;
}

/** The ranges of one list in Google's JSON format; AddressListError when it is not one or holds a range that cannot be trusted. */
export function parsePrefixList(text: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new AddressListError('not JSON');
  }
  const prefixes = doc !== null && typeof doc === 'object' ? (doc as { prefixes?: unknown }).prefixes : undefined;
  if (!Array.isArray(prefixes)) throw new AddressListError('no "prefixes" list');
  return prefixes.map((entry) => {
    const e = (entry ?? {}) as { ipv4Prefix?: unknown; ipv6Prefix?: unknown };
    const value = e.ipv4Prefix ?? e.ipv6Prefix;
    if (typeof value !== 'string') throw new AddressListError('a prefix without ipv4Prefix or ipv6Prefix');
    return checkedRange(value.trim());
  });
}

/** A vendor's lists merged: distinct ranges, sorted; AddressListError when the count is not what the vendor publishes. */
export function mergeVendorRanges(list: PublishedAddressList, perUrl: string[][]): string[] {
  const ranges = [...new Set(perUrl.flat())].sort();
  if (ranges.length < list.minRanges) throw new AddressListError(`${ranges.length} ranges, fewer than ${list.vendor} publishes (at least ${list.minRanges})`);
  if (ranges.length > MAX_RANGES_PER_VENDOR) throw new AddressListError(`${ranges.length} ranges, more than ${MAX_RANGES_PER_VENDOR}: not ${list.vendor}'s list`);
  return ranges;
}

/** Whether an address (canonical, as client-address.ts writes it) is in a set of ranges. */
export type AddressMatcher = (address: string) => boolean;

export function addressMatcher(ranges: readonly string[]): AddressMatcher {
  const blocks = new BlockList();
  for (const range of ranges) {
    const [network, bits] = range.split('/');
    const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
    blocks.addSubnet(network, Number(bits), family);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && blocks.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * A list's URL as fetched: the vendor's own, or the same path under a mirror
 * (CRAWLER_ADDRESS_LISTS_URL, `https://mirror.example/lists` → `https://mirror.example/lists/openai.com/gptbot.json`).
 */
export function listUrl(url: string, mirror: string | undefined): string {
  if (!mirror) return url;
  const u = new URL(url);
  return `${mirror.replace(/\/+$/, '')}/${u.host}${u.pathname}`;
}
