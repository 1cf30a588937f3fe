/**
 * AI-bot visits (AI recommendations) in the organization's partition:
 * - `VISIT#<bucket>#<dedupe key>`: one item per visit. The 5-minute bucket leads the sort
 *   key, so the visits of a date range are one Query, newest first with
 *   ScanIndexForward=false; the dedupe key follows, so the beacon, the AI-site host, the CDN
 *   proxy and the access logs all compute the same item key for one visit and a conditional
 *   put keeps the first (core/visits/dedupe.ts has the rule).
 * - `VISITDAY#<date>`: per-day counters (`total`, `verified` and one attribute per platform
 *   key; `unverified` and `unverified_<platform>` for claims from outside a vendor's
 *   published addresses, which are in no other counter and out of the default list, D193), added
 *   to atomically once per recorded visit, so a range's `total` and `by_platform` are one
 *   Query of at most 366 small items whatever the traffic. A classic search-engine visit
 *   (`visit_class: search_engine`, D160) adds to `search_engine` only, and the visits list
 *   leaves it out: it is shown beside the AI visits, never among them.
 * - `VISITEDGE#<boundary>#<dedupe key>`: which bucket's visit owns a sighting pair either side
 *   of one 5-minute boundary (written after the visit; expires after two days).
 * Single-item conditional writes only (the embedded local database has no transactions). A
 * writer that dies between the visit's put and its counter update leaves that one visit out
 * of the counters (a retry finds the visit and counts nothing twice).
 * Items expire 400 days after their bucket (the API reads at most 365 days back from any
 * `to`); the local database has no TTL, so reads filter expired items.
 */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PLATFORM_KEYS } from '../../core/constants';
import { ValidationError } from '../../core/errors';
import type { BotPlatformId } from '../../core/site/ai-bots';
import type { VisitCounts, VisitRecord, VisitSource } from '../../core/visits/visit';
import type { Clock, VisitRepository } from '../../ports';
import { conditionalWrite, putIfAbsent } from './client';
import { keys } from './keys';
import { decodeCursor, encodeCursor } from './page-cursor';
import { queryAll } from './query-all';

export const VISIT_RETENTION_DAYS = 400;
/** A boundary claim only matters while sightings of that moment arrive (access logs come within hours). */
const EDGE_CLAIM_SECONDS = 2 * 86_400;

const PLATFORM_IDS: readonly BotPlatformId[] = [...PLATFORM_KEYS, 'unknown'];
/** The per-day counter of classic search-engine visits (not a platform key, never in `total`). */
const SEARCH_ENGINE_COUNTER = 'search_engine';
/** Claims from outside a vendor's published addresses (D193): counted apart, per platform too. */
const UNVERIFIED_COUNTER = 'unverified';
const unverifiedCounter = (platform: BotPlatformId) => `unverified_${platform}`;
const SEARCH_UNVERIFIED_COUNTER = 'search_engine_unverified';
const VERIFIED_COUNTER = 'verified';
/** Crawlers no table or list names (issue 46): in no other counter. */
const UNIDENTIFIED_COUNTER = 'unidentified';
const INTERNAL = ['PK', 'SK', 'type', 'org_slug', 'dedupe_key', 'bucket', 'expires_at'];

/**
 * The day counters one recorded visit adds to: an AI visit to `total` and its platform (and
 * `verified` when it came from a published address); a search-engine visit to
 * `search_engine`; a claim from outside its vendor's published addresses only to the
 * unverified counters, never to the others.
 */
function dayCounterUpdate(visit: VisitRecord): { UpdateExpression: string; ExpressionAttributeNames: Record<string, string> } {
  const search = visit.visit_class === 'search_engine';
  const counters = visit.visit_class === 'unidentified' ? [UNIDENTIFIED_COUNTER] : visit.verified === false
    ? (search ? [SEARCH_UNVERIFIED_COUNTER] : [UNVERIFIED_COUNTER, unverifiedCounter(visit.platform_id)])
    : search ? [SEARCH_ENGINE_COUNTER] : ['total', visit.platform_id, ...(visit.verified ? [VERIFIED_COUNTER] : [])];
  return {
    UpdateExpression: `ADD ${counters.map((_, i) => `#c${i} :one`).join(', ')} SET expires_at = :exp`,
    ExpressionAttributeNames: Object.fromEntries(counters.map((c, i) => [`#c${i}`, c])),
  };
}

/** `VISIT#<bucket>`: the part of a visit's sort key its 5-minute bucket fills. */
const bucketOf = (item: Record<string, any>) => String(item.SK).split('#', 2).join('#');
/** When an item of a visit's day (or hour bucket) expires: the visits' retention after it. */
export const expiryOf = (bucket: string) => Math.floor(Date.parse(bucket) / 1000) + VISIT_RETENTION_DAYS * 86_400;

function toVisit(item: Record<string, any>): VisitRecord {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!INTERNAL.includes(k)) out[k] = v;
  const sources = item.sources instanceof Set ? [...item.sources] : Array.isArray(item.sources) ? item.sources : [item.source];
  out.sources = [...new Set(sources as VisitSource[])].sort();
  out.visit_class ??= 'ai';
  out.verified ??= null;
  return out as unknown as VisitRecord;
}

export function createVisitRepository(db: DynamoDBDocumentClient, table: string, clock: Clock): VisitRepository {
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  /** Adds the new sighting's source to the stored visit; a proxy sighting also replaces an AI-host URL with the customer-facing one. */
  async function markDuplicate(key: { PK: string; SK: string }, visit: VisitRecord): Promise<VisitSource> {
    const src = new Set([visit.source]);
    if (visit.via === 'proxy') {
      let stored: Record<string, any> | undefined;
      const preferred = await conditionalWrite(async () => {
        const res = await db.send(new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: 'ADD sources :src SET page_url = :url, #host = :host, via = :via',
          ConditionExpression: 'via = :ai',
          ExpressionAttributeNames: { '#host': 'host' },
          ExpressionAttributeValues: { ':src': src, ':url': visit.page_url, ':host': visit.host, ':via': visit.via, ':ai': 'ai_site_host' },
          ReturnValues: 'ALL_NEW',
        }));
        stored = res.Attributes;
      });
      if (preferred) return (stored?.source as VisitSource | undefined) ?? visit.source;
    }
    let stored: Record<string, any> | undefined;
    await conditionalWrite(async () => {
      const res = await db.send(new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'ADD sources :src',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':src': src },
        ReturnValues: 'ALL_NEW',
      }));
      stored = res.Attributes;
    });
    return (stored?.source as VisitSource | undefined) ?? visit.source;
  }

  return {
    async record(orgSlug, visit, dedupe) {
      const neighbourKey = keys.visit(orgSlug, dedupe.neighbour, dedupe.key);
      const { Item: near } = await db.send(new GetCommand({ TableName: table, Key: neighbourKey, ProjectionExpression: 'PK, expires_at' }));
      if (near && !(typeof near.expires_at === 'number' && near.expires_at <= nowSeconds())) {
        return { outcome: 'duplicate', source: await markDuplicate(neighbourKey, visit) };
      }
      const ownKey = keys.visit(orgSlug, dedupe.bucket, dedupe.key);
      const put = await putIfAbsent(db, table, {
        ...ownKey,
        type: 'visit',
        org_slug: orgSlug,
        dedupe_key: dedupe.key,
        bucket: dedupe.bucket,
        expires_at: expiryOf(dedupe.bucket),
        ...visit,
        sources: new Set(visit.sources),
      });
      if (!put) return { outcome: 'duplicate', source: await markDuplicate(ownKey, visit) };
      // Two sightings recorded at the same moment across a bucket boundary can both pass the
      // neighbour check above. Each then claims the boundary between its bucket and the
      // neighbour with one conditional put, after its own visit exists: exactly one claim
      // succeeds whatever the interleaving, and the other sighting removes its visit and joins
      // the claimant's, which is already written.
      const boundary = dedupe.neighbour > dedupe.bucket ? dedupe.neighbour : dedupe.bucket;
      const claimed = await putIfAbsent(db, table, {
        ...keys.visitEdge(orgSlug, boundary, dedupe.key),
        type: 'visit_edge',
        bucket: dedupe.bucket,
        expires_at: Math.floor(Date.parse(boundary) / 1000) + EDGE_CLAIM_SECONDS,
      });
      if (!claimed) {
        const { Item: claim } = await db.send(new GetCommand({ TableName: table, Key: keys.visitEdge(orgSlug, boundary, dedupe.key), ConsistentRead: true }));
        if (claim && claim.bucket !== dedupe.bucket) {
          await db.send(new DeleteCommand({ TableName: table, Key: ownKey }));
          return { outcome: 'duplicate', source: await markDuplicate(keys.visit(orgSlug, String(claim.bucket), dedupe.key), visit) };
        }
      }
      await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.visitDay(orgSlug, dedupe.bucket.slice(0, 10)),
        ...dayCounterUpdate(visit),
        ExpressionAttributeValues: { ':one': 1, ':exp': expiryOf(dedupe.bucket) },
      }));
      return { outcome: 'recorded', source: visit.source };
    },

    async list(orgSlug, range, page) {
      const pk = keys.org(orgSlug);
      const cursor = decodeCursor(page.cursor, ['PK', 'SK', 'skip']);
      if (cursor && (cursor.PK !== pk || !/^VISIT#[^#]+$/.test(String(cursor.SK)) || !/^\d{1,6}$/.test(String(cursor.skip)))) {
        throw new ValidationError('invalid cursor: pass the next_cursor of a previous page of the same business');
      }
      // The sort key orders buckets, not the visits within one (the dedupe key follows the
      // bucket), so a page reads whole buckets and lists each by request time, newest first
      // (D142). The cursor names the bucket a page stopped in and how many of its visits
      // were already listed.
      let skip = cursor ? Number(cursor.skip) : 0;
      const visits: VisitRecord[] = [];
      let next: { SK: string; skip: number } | null = null;
      const take = (bucket: Record<string, any>[]) => {
        bucket.sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)) || String(b.SK).localeCompare(String(a.SK)));
        const taken = bucket.slice(skip, skip + page.limit - visits.length);
        visits.push(...taken.map(toVisit));
        if (skip + taken.length < bucket.length) next = { SK: bucketOf(bucket[0]), skip: skip + taken.length };
        skip = 0;
      };
      let open: Record<string, any>[] = [];
      let startKey: Record<string, any> | undefined;
      read: do {
        const res = await db.send(new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
          FilterExpression: '(attribute_not_exists(expires_at) OR expires_at > :now) AND '
            + (page.unidentified ? 'visit_class = :unidentified'
              : '(attribute_not_exists(visit_class) OR visit_class = :ai) AND ' + (page.unverified ? 'verified = :false' : '(attribute_not_exists(verified) OR verified <> :false)')),
          ExpressionAttributeValues: {
            ':pk': pk,
            ...(page.unidentified ? { ':unidentified': 'unidentified' } : { ':ai': 'ai', ':false': false }),
            ':lo': `${keys.visitPrefix}${range.from}T`,
            ':hi': cursor ? `${cursor.SK}#~` : `${keys.visitPrefix}${range.to}T~`,
            ':now': nowSeconds(),
          },
          ScanIndexForward: false,
          Limit: page.limit + 1,
          ExclusiveStartKey: startKey,
        }));
        startKey = res.LastEvaluatedKey;
        for (const item of res.Items ?? []) {
          if (open.length && bucketOf(open[0]) !== bucketOf(item)) {
            take(open);
            open = [];
            if (next) break read;
            if (visits.length === page.limit) {
              next = { SK: bucketOf(item), skip: 0 };
              break read;
            }
          }
          open.push(item);
        }
      } while (startKey);
      if (open.length) take(open);
      const last: { SK: string; skip: number } | null = next;
      return { visits, nextCursor: last && encodeCursor({ PK: pk, SK: last.SK, skip: String(last.skip) }) };
    },

    async counts(orgSlug, range) {
      const days = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
        FilterExpression: 'attribute_not_exists(expires_at) OR expires_at > :now',
        ExpressionAttributeValues: {
          ':pk': keys.org(orgSlug),
          ':lo': `${keys.visitDayPrefix}${range.from}`,
          ':hi': `${keys.visitDayPrefix}${range.to}`,
          ':now': nowSeconds(),
        },
      });
      const byPlatform = Object.fromEntries(PLATFORM_IDS.map((id) => [id, 0])) as Record<BotPlatformId, number>;
      const unverifiedByPlatform = Object.fromEntries(PLATFORM_IDS.map((id) => [id, 0])) as Record<BotPlatformId, number>;
      let total = 0;
      let searchEngines = 0;
      let verified = 0;
      let unverified = 0;
      let unidentified = 0;
      for (const day of days) {
        unidentified += Number(day[UNIDENTIFIED_COUNTER] ?? 0);
        total += Number(day.total ?? 0);
        searchEngines += Number(day[SEARCH_ENGINE_COUNTER] ?? 0);
        verified += Number(day[VERIFIED_COUNTER] ?? 0);
        unverified += Number(day[UNVERIFIED_COUNTER] ?? 0);
        for (const id of PLATFORM_IDS) {
          byPlatform[id] += Number(day[id] ?? 0);
          unverifiedByPlatform[id] += Number(day[unverifiedCounter(id)] ?? 0);
        }
      }
      return { total, byPlatform, searchEngines, verified, unverified, unverifiedByPlatform, unidentified } satisfies VisitCounts;
    },
  };
}
