/** The vendors' published address lists (D193): parsing in their format, the sanity checks, matching. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  addressMatcher, AddressListError, isListCurrent, listUrl, mergeVendorRanges, MAX_RANGES_PER_VENDOR, parsePrefixList, publishedListFor, PUBLISHED_ADDRESS_LISTS,
} from '../../../functions/core/visits/published-addresses';
import { AI_BOT_PATTERNS, SEARCH_CRAWLER_PATTERNS } from '../../../functions/core/site/ai-bots';

const fixture = (path: string) => readFileSync(join(__dirname, '..', '..', 'fixtures', 'crawler-addresses', path), 'utf8');
const list = (...prefixes: object[]) => JSON.stringify({ creationTime: '2025-01-01T00:00:00', prefixes });

describe('parsePrefixList', () => {
  test('reads the vendors\' format (IPv4 and IPv6) in canonical form', () => {
    expect(parsePrefixList(fixture('openai.com/gptbot.json'))).toEqual(['20.171.206.0/24', '52.230.152.0/24', '52.233.106.0/24']);
    expect(parsePrefixList(fixture('developers.google.com/static/search/apis/ipranges/googlebot.json'))).toContain('2001:4860:4801:10::/64');
    expect(parsePrefixList(list({ ipv6Prefix: '2001:4860:4801:0010:0000::/64' }))).toEqual(['2001:4860:4801:10::/64']);
  });

  test.each([
    ['not JSON', '<html>moved</html>', /not JSON/],
    ['no prefixes', JSON.stringify({ creationTime: 'x' }), /no "prefixes" list/],
    ['an entry without an address', list({ service: 'x' }), /without ipv4Prefix or ipv6Prefix/],
    ['a range that is no range', list({ ipv4Prefix: '20.171.206.0' }), /is not an address range/],
    ['a shorthand address', list({ ipv4Prefix: '127.1/24' }), /is not an address range/],
    ['a private range', list({ ipv4Prefix: '10.0.0.0/24' }), /private range, not a public one/],
    ['loopback', list({ ipv4Prefix: '127.0.0.0/24' }), /loopback range/],
    ['an IPv6 unique-local range', list({ ipv6Prefix: 'fd00::/48' }), /uniqueLocal range/],
    ['a range wider than a /16', list({ ipv4Prefix: '20.0.0.0/8' }), /wider than a \/16/],
    ['an IPv6 range wider than a /32', list({ ipv6Prefix: '2001::/16' }), /wider than a \/32/],
    ['everything', list({ ipv4Prefix: '0.0.0.0/0' }), /wider than a \/16/],
  ])('refuses %s', (_, text, message) => {
    expect(() => parsePrefixList(text)).toThrow(AddressListError);
    expect(() => parsePrefixList(text)).toThrow(message);
  });
});

describe('mergeVendorRanges', () => {
  const openai = publishedListFor('GPTBot')!;
  test('merges a vendor\'s lists into distinct sorted ranges', () => {
    const ranges = mergeVendorRanges(openai, [['52.230.152.0/24', '20.171.206.0/24'], ['20.171.206.0/24', '51.8.102.0/24']]);
    expect(ranges).toEqual(['20.171.206.0/24', '51.8.102.0/24', '52.230.152.0/24']);
  });
  test('refuses fewer ranges than the vendor publishes, and more than an item holds', () => {
    expect(() => mergeVendorRanges(openai, [['20.171.206.0/24']])).toThrow(/1 ranges, fewer than OpenAI publishes/);
    const many = Array.from({ length: MAX_RANGES_PER_VENDOR + 1 }, (_, i) => `20.${Math.floor(i / 256)}.${i % 256}.0/24`);
    expect(() => mergeVendorRanges(openai, [many])).toThrow(/more than 5000: not OpenAI's list/);
  });
});

describe('addressMatcher', () => {
  const match = addressMatcher(['20.171.206.0/24', '2001:4860:4801:10::/64', '107.20.236.150/32']);
  test.each([
    ['20.171.206.0', true], ['20.171.206.255', true], ['20.171.207.0', false],
    ['107.20.236.150', true], ['107.20.236.151', false],
    ['2001:4860:4801:10::1', true], ['2001:4860:4801:11::1', false],
    ['unknown', false], ['', false],
  ])('%s → %s', (address, expected) => expect(match(address)).toBe(expected));
});

test('a list verifies for a week after it was fetched, then no more', () => {
  const now = new Date('2026-11-28T14:00:00Z');
  expect(isListCurrent('2026-11-28T13:00:00Z', now)).toBe(true);
  expect(isListCurrent('2026-11-21T14:00:00Z', now)).toBe(true);
  expect(isListCurrent('2026-11-21T13:59:59Z', now)).toBe(false);
  expect(isListCurrent(null, now)).toBe(false);
});

test('a mirror keeps each list\'s host and path', () => {
  expect(listUrl('https://openai.com/gptbot.json', undefined)).toBe('https://openai.com/gptbot.json');
  expect(listUrl('https://openai.com/gptbot.json', 'http://127.0.0.1:9000/lists/')).toBe('http://127.0.0.1:9000/lists/openai.com/gptbot.json');
});

test('every list names the classifier\'s vendor and tokens of that vendor, over https', () => {
  const patterns = [...AI_BOT_PATTERNS, ...SEARCH_CRAWLER_PATTERNS];
  for (const l of PUBLISHED_ADDRESS_LISTS) {
    for (const token of l.tokens) expect(patterns.find((p) => p.token === token)?.vendor).toBe(l.vendor);
    for (const url of l.urls) expect(new URL(url).protocol).toBe('https:');
  }
});

test('only the agents a vendor\'s list covers are checked against it', () => {
  expect(publishedListFor('GPTBot')?.vendor).toBe('OpenAI');
  expect(publishedListFor('DuckAssistBot')?.vendor).toBe('DuckDuckGo');
  // Same vendors, other addresses: GitHub Copilot is not bingbot, DuckDuckBot has a list of its own,
  // an undocumented or browser agent is covered by none.
  for (const token of ['GitHubCopilotChat', 'DuckDuckBot', 'ChatGPT-Browser', 'ChatGPT agent', 'GoogleAgent-Mariner', 'DeepSeekBot', undefined]) {
    expect(publishedListFor(token)).toBeUndefined();
  }
});
