/**
 * Verified AI visits (issue 35, D193): the crawler vendors' published address lists, fetched
 * once a day by the daily schedule's `RefreshCrawlerAddresses` task through the guarded client
 * and kept in the table, and the check a recorded visit gets against them.
 *
 * Never fetched at request time: recording a visit reads the stored lists (cached per
 * instance for a minute). A vendor whose download fails keeps its last good list for a week;
 * one that never succeeded (or not for a week) verifies nothing (`null`), as a vendor that
 * publishes none.
 */
import pLimit from 'p-limit';
import { addressMatcher, isListCurrent, listUrl, mergeVendorRanges, parsePrefixList, publishedListFor, PUBLISHED_ADDRESS_LISTS, type AddressMatcher, type PublishedAddressList } from '../../core/visits/published-addresses';
import type { Container } from '../../container';
import { crawlerAddressesOf } from '../../engines/crawler-addresses';
import { createLogger } from '../../logger';

const log = createLogger({ component: 'crawler-addresses' });

const FETCH_TIMEOUT_MS = 20_000;
/** Google's largest list is ~100 KB; ten times that is not a list. */
const MAX_LIST_BYTES = 1024 * 1024;
const VENDORS_IN_FLIGHT = 3;
const CACHE_TTL_MS = 60_000;

export interface RefreshSummary {
  /** Vendors whose lists were fetched and stored, with their range counts. */
  refreshed: Array<{ vendor: string; ranges: number }>;
  /** Vendors whose download failed (their last good list stays in use), with the reason. */
  failed: Array<{ vendor: string; reason: string }>;
  /** Where the lists came from: the vendors' own URLs, or the configured mirror. */
  source: 'vendors' | 'mirror';
}

async function fetchVendorRanges(container: Container, list: PublishedAddressList): Promise<string[]> {
  const perUrl = await Promise.all(list.urls.map(async (url) => {
    const target = listUrl(url, container.config.crawlerAddressListsUrl);
    const res = await container.fetchUrl(target, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_LIST_BYTES, headers: { accept: 'application/json' } });
    if (res.status !== 200) throw new Error(`${target} answered HTTP ${res.status}`);
    try {
      return parsePrefixList(res.text());
    } catch (err) {
      throw new Error(`${target}: ${(err as Error).message}`);
    }
  }));
  return mergeVendorRanges(list, perUrl);
}

/**
 * Fetches every vendor's lists and stores each vendor's merged ranges. Safe to repeat: a
 * vendor's item is replaced whole, and a failure only records its reason.
 */
export async function refreshCrawlerAddresses(container: Container): Promise<RefreshSummary> {
  const repo = crawlerAddressesOf(container);
  const at = container.clock.now().toISOString();
  const limit = pLimit(VENDORS_IN_FLIGHT);
  const summary: RefreshSummary = { refreshed: [], failed: [], source: container.config.crawlerAddressListsUrl ? 'mirror' : 'vendors' };
  await Promise.all(PUBLISHED_ADDRESS_LISTS.map((list) => limit(async () => {
    try {
      const ranges = await fetchVendorRanges(container, list);
      await repo.save(list.vendor, ranges, at);
      summary.refreshed.push({ vendor: list.vendor, ranges: ranges.length });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      await repo.recordFailure(list.vendor, reason, at);
      summary.failed.push({ vendor: list.vendor, reason });
      log.warn('crawler address list not refreshed; the last good one stays in use', { vendor: list.vendor, reason });
    }
  })));
  summary.refreshed.sort((a, b) => a.vendor.localeCompare(b.vendor));
  summary.failed.sort((a, b) => a.vendor.localeCompare(b.vendor));
  matchers.delete(container);
  return summary;
}

const matchers = new WeakMap<Container, { until: number; byVendor: Promise<Map<string, AddressMatcher>> }>();

async function loadMatchers(container: Container): Promise<Map<string, AddressMatcher>> {
  const lists = await crawlerAddressesOf(container).all();
  const now = container.clock.now();
  return new Map(lists.filter((l) => l.ranges.length > 0 && isListCurrent(l.fetchedAt, now)).map((l) => [l.vendor, addressMatcher(l.ranges)]));
}

/**
 * Whether a visit by the agent `token` came from one of its vendor's published addresses:
 * true or false where the vendor publishes a list for that agent and we hold a current one;
 * null where it publishes none, none is current, or `address` is not an address the service
 * observed.
 */
export async function verifyCrawlerAddress(container: Container, token: string | null | undefined, address: string | null | undefined): Promise<boolean | null> {
  const list = publishedListFor(token);
  if (!list || !address || address === 'unknown') return null;
  const now = Date.now();
  let cached = matchers.get(container);
  if (!cached || cached.until <= now) {
    cached = { until: now + CACHE_TTL_MS, byVendor: loadMatchers(container) };
    matchers.set(container, cached);
    cached.byVendor.catch(() => matchers.delete(container));
  }
  const matcher = (await cached.byVendor).get(list.vendor);
  return matcher ? matcher(address) : null;
}
