/**
 * Competitors in the organization's partition: `PK = ORG#<slug>`, `SK = COMPETITOR#<id>`.
 * A business has at most 12 (10 auto-discovered + 2 user-added), so one partition query
 * answers every read (strongly consistent).
 *
 * The limits (core/competitors/rules.ts `COMPETITOR_LIMITS`) and one record per website hold
 * however many adds run at once, with single-item conditional writes only (the embedded
 * database has no transactions). Each source has a slots item (`keys.competitorSlots`) whose
 * `holders` map goes from competitor id to the time its slot was claimed. `add` claims a slot
 * with one conditional update — fewer holders than the limit, and not this id — and only then
 * writes the record. The id is derived from org + website (`competitorId`), so a second add
 * of one website finds its id already holding a slot: a refused claim is `duplicate` when the
 * id holds a slot, `limit` otherwise. `remove`, and an insert that did not happen, give the
 * slot back.
 *
 * Self-healing: the slots item is created from the stored records the first time it is
 * needed (records saved before slots existed keep theirs), and when a source is full, a slot
 * whose record is still missing long after its claim (its writer died between the two
 * writes) is freed.
 */
import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { COMPETITOR_LIMITS, countBySource } from '../../core/competitors/rules';
import type { AddCompetitorOutcome, Competitor, CompetitorRepository, CompetitorSource } from '../../core/competitors/types';
import { conditionalWrite, putIfAbsent } from './client';
import { keys } from './keys';
import { queryAll } from './query-all';

const TYPE = 'competitor';
const SLOTS_TYPE = 'competitor_slots';
/** Far longer than the two writes of an add can be apart, even in a slow or frozen Lambda. */
const ABANDONED_CLAIM_MS = 5 * 60_000;
/** Claim attempts of one add; each retry follows a change seen on the slots item. */
const CLAIM_ATTEMPTS = 5;

export interface CompetitorRepositoryOptions {
  /** Epoch milliseconds (tests move it to age a claim). */
  now?: () => number;
  abandonedClaimMs?: number;
}

/** Competitor id → epoch milliseconds of its claim. */
type Holders = Record<string, number>;

export function createCompetitorRepository(db: DynamoDBDocumentClient, table: string, options: CompetitorRepositoryOptions = {}): CompetitorRepository {
  const { now = Date.now, abandonedClaimMs = ABANDONED_CLAIM_MS } = options;

  const list = async (orgSlug: string): Promise<Competitor[]> => {
    const items = await queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.org(orgSlug), ':prefix': keys.competitorPrefix },
      ConsistentRead: true,
    });
    return items
      .filter((item) => item.type === TYPE)
      .map(toCompetitor)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };

  const get = async (orgSlug: string, id: string): Promise<Competitor | null> => {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.competitor(orgSlug, id), ConsistentRead: true }));
    return Item && Item.type === TYPE ? toCompetitor(Item) : null;
  };

  /** The holders of a source's slots; null before its slots item exists. */
  const readHolders = async (orgSlug: string, source: CompetitorSource): Promise<Holders | null> => {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.competitorSlots(orgSlug, source), ConsistentRead: true }));
    return Item ? ((Item.holders ?? {}) as Holders) : null;
  };

  /**
   * Creates a source's slots item holding the records already stored. Sound without a
   * transaction: every add claims a slot before writing its record, so until this item
   * exists the only records are ones saved before slots existed, and they never change.
   */
  const createSlots = async (orgSlug: string, source: CompetitorSource): Promise<void> => {
    const stored = (await list(orgSlug)).filter((c) => c.source === source);
    const holders = Object.fromEntries(stored.map((c) => [c.id, Date.parse(c.createdAt) || 0]));
    await putIfAbsent(db, table, { ...keys.competitorSlots(orgSlug, source), type: SLOTS_TYPE, source, holders });
  };

  /** Claims a slot for `id` in one conditional update; its claim time, or null when refused. */
  const claim = async (orgSlug: string, source: CompetitorSource, id: string): Promise<number | null> => {
    const claimedAt = now();
    const claimed = await conditionalWrite(() => db.send(new UpdateCommand({
      TableName: table,
      Key: keys.competitorSlots(orgSlug, source),
      UpdateExpression: 'SET holders.#id = :at',
      ConditionExpression: 'attribute_exists(holders) AND size(holders) < :limit AND attribute_not_exists(holders.#id)',
      ExpressionAttributeNames: { '#id': id },
      ExpressionAttributeValues: { ':at': claimedAt, ':limit': COMPETITOR_LIMITS[source] },
    })));
    return claimed ? claimedAt : null;
  };

  /** Gives back the slot `id` holds, only if it still holds the claim made at `claimedAt`. */
  const release = async (orgSlug: string, source: CompetitorSource, id: string, claimedAt: number): Promise<boolean> => {
    return conditionalWrite(() => db.send(new UpdateCommand({
      TableName: table,
      Key: keys.competitorSlots(orgSlug, source),
      UpdateExpression: 'REMOVE holders.#id',
      ConditionExpression: 'holders.#id = :at',
      ExpressionAttributeNames: { '#id': id },
      ExpressionAttributeValues: { ':at': claimedAt },
    })));
  };

  const isAbandoned = (claimedAt: number) => now() - claimedAt >= abandonedClaimMs;

  /**
   * Frees the slots whose record is missing long after their claim; true when there were
   * any (freed here, or by a concurrent add: either way the slots are worth claiming again).
   */
  const freeAbandoned = async (orgSlug: string, source: CompetitorSource, holders: Holders): Promise<boolean> => {
    const stored = new Set((await list(orgSlug)).filter((c) => c.source === source).map((c) => c.id));
    const abandoned = Object.entries(holders).filter(([id, claimedAt]) => !stored.has(id) && isAbandoned(claimedAt));
    await Promise.all(abandoned.map(([id, claimedAt]) => release(orgSlug, source, id, claimedAt)));
    return abandoned.length > 0;
  };

  /** Writes the record of a claimed slot; the slot is given back when no record of its source is there. */
  const insert = async (competitor: Competitor, claimedAt: number): Promise<AddCompetitorOutcome> => {
    const { orgSlug, source, id } = competitor;
    let written: boolean;
    try {
      written = await putIfAbsent(db, table, { ...keys.competitor(orgSlug, id), type: TYPE, ...competitor });
    } catch (err) {
      // The put may have landed before the error: give the slot back only when surely not
      // (otherwise, once abandoned, the sweep of a full source frees it).
      const stored = await get(orgSlug, id).catch(() => undefined);
      if (stored === null) await release(orgSlug, source, id, claimedAt).catch(() => false);
      throw err;
    }
    if (written) return 'added';
    // Already stored without a slot of this source. A record of this source keeps the slot
    // (it is the one the slot should count); one of the other source does not.
    const stored = await get(orgSlug, id);
    if (stored?.source !== source) await release(orgSlug, source, id, claimedAt);
    return 'duplicate';
  };

  return {
    list,
    get,

    async add(competitor) {
      const { orgSlug, source, id } = competitor;
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const claimedAt = await claim(orgSlug, source, id);
        if (claimedAt !== null) return insert(competitor, claimedAt);

        const holders = await readHolders(orgSlug, source);
        if (!holders) {
          await createSlots(orgSlug, source);
          continue;
        }
        if (id in holders) {
          // Stored, or being added by another request right now, unless that claim was abandoned.
          if (!isAbandoned(holders[id]) || (await get(orgSlug, id))) return 'duplicate';
          await release(orgSlug, source, id, holders[id]);
          continue;
        }
        if (Object.keys(holders).length < COMPETITOR_LIMITS[source]) continue; // a slot was given back meanwhile
        if (await freeAbandoned(orgSlug, source, holders)) continue;
        break;
      }
      // Full. Stored as the other source, the website is still a duplicate first.
      return (await get(orgSlug, id)) ? 'duplicate' : 'limit';
    },

    async remove(orgSlug, id) {
      const stored = await get(orgSlug, id);
      if (!stored) return;
      // Read the claim before deleting: while the record exists, no other add can replace it,
      // so the release below can never take a newer add's slot.
      const claimedAt = (await readHolders(orgSlug, stored.source))?.[id];
      await db.send(new DeleteCommand({ TableName: table, Key: keys.competitor(orgSlug, id) }));
      if (claimedAt !== undefined) await release(orgSlug, stored.source, id, claimedAt);
    },

    async countBySource(orgSlug) {
      return countBySource(await list(orgSlug));
    },

    async findByDomain(orgSlug, domain) {
      return (await list(orgSlug)).find((c) => c.domain === domain) ?? null;
    },
  };
}

function toCompetitor(item: Record<string, any>): Competitor {
  return {
    id: item.id,
    orgSlug: item.orgSlug,
    name: item.name,
    url: item.url,
    domain: item.domain,
    description: item.description ?? '',
    faviconUrl: item.faviconUrl ?? '',
    scrapedContent: item.scrapedContent ?? '',
    source: item.source === 'user_added' ? 'user_added' : 'auto_discovered',
    products: Array.isArray(item.products) ? item.products : [],
    targetMarket: item.targetMarket ?? '',
    createdAt: item.createdAt,
  };
}
