/**
 * The per-product AI funnel, one item per product per UTC day (`FUNNEL#<product>#<date>` in the
 * organization's partition, D170): visits are added as they are recorded (`crawled`, one
 * `crawled_<platform>` and one `purpose_<purpose>` counter, the latest visit time), the day's
 * checks are set whole when its report is stored (a re-run sets the same); beside them one item
 * per day (`FUNNELDAY#<date>`) holds the day's answered checks per platform, the n every
 * product's rates share. A product's window is one Query, the window's totals one more.
 * Items expire with the visits (400 days).
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PlatformKey } from '../../core/constants';
import { queryAll } from './query-all';
import type { BotPlatformId } from '../../core/site/ai-bots';
import type { ProductFunnelDay } from '../../core/visibility/report';
import type { FunnelDayItem, FunnelDayTotals } from '../../core/visibility/product-funnel';
import { conditionalWrite } from './client';
import { keys } from './keys';
import { expiryOf } from './visit-repo';

const CRAWLED_BY = 'crawled_';
const PURPOSE = 'purpose_';

export interface ProductFunnelRepository {
  countVisit(orgSlug: string, productId: string, visit: { at: string; platform: BotPlatformId; purpose: string | null }): Promise<void>;
  setChecks(orgSlug: string, productId: string, date: string, checks: ProductFunnelDay): Promise<void>;
  days(orgSlug: string, productId: string, range: { from: string; to: string }): Promise<FunnelDayItem[]>;
  setDayTotals(orgSlug: string, date: string, answered: Partial<Record<PlatformKey, number>>): Promise<void>;
  dayTotals(orgSlug: string, range: { from: string; to: string }): Promise<FunnelDayTotals[]>;
}

export function createProductFunnelRepository(db: DynamoDBDocumentClient, table: string): ProductFunnelRepository {
  const between = (orgSlug: string, lo: string, hi: string) => queryAll(db, {
    TableName: table,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': keys.org(orgSlug), ':lo': lo, ':hi': hi },
  });
  return {
    async countVisit(orgSlug, productId, visit) {
      const date = visit.at.slice(0, 10);
      const Key = keys.productFunnelDay(orgSlug, productId, date);
      const counters = {
        TableName: table, Key,
        ExpressionAttributeNames: { '#platform': `${CRAWLED_BY}${visit.platform}`, '#purpose': `${PURPOSE}${visit.purpose ?? 'unknown'}` },
      };
      const count = 'ADD crawled :one, #platform :one, #purpose :one SET expires_at = :exp';
      // One write when the visit is the day's latest so far (the usual case); visits arrive out
      // of order from the logs, so an earlier one only counts and leaves last_visit_at alone.
      const latest = await conditionalWrite(() => db.send(new UpdateCommand({
        ...counters,
        UpdateExpression: `${count}, last_visit_at = :at`,
        ConditionExpression: 'attribute_not_exists(last_visit_at) OR last_visit_at < :at',
        ExpressionAttributeValues: { ':one': 1, ':exp': expiryOf(date), ':at': visit.at },
      })));
      if (!latest) {
        await db.send(new UpdateCommand({ ...counters, UpdateExpression: count, ExpressionAttributeValues: { ':one': 1, ':exp': expiryOf(date) } }));
      }
    },

    async setChecks(orgSlug, productId, date, checks) {
      await db.send(new UpdateCommand({
        TableName: table, Key: keys.productFunnelDay(orgSlug, productId, date),
        UpdateExpression: 'SET checks = :checks, expires_at = :exp',
        ExpressionAttributeValues: { ':checks': checks, ':exp': expiryOf(date) },
      }));
    },

    async setDayTotals(orgSlug, date, answered) {
      await db.send(new UpdateCommand({
        TableName: table, Key: keys.funnelDayTotals(orgSlug, date),
        UpdateExpression: 'SET answered = :answered, expires_at = :exp',
        ExpressionAttributeValues: { ':answered': answered, ':exp': expiryOf(date) },
      }));
    },

    async dayTotals(orgSlug, range) {
      const prefix = keys.funnelDayTotalsPrefix;
      return (await between(orgSlug, `${prefix}${range.from}`, `${prefix}${range.to}`))
        .map((item) => ({ date: String(item.SK).slice(prefix.length), answered: (item.answered ?? {}) as Partial<Record<PlatformKey, number>> }));
    },

    async days(orgSlug, productId, range) {
      const prefix = keys.productFunnelPrefix(productId);
      const items = await between(orgSlug, `${prefix}${range.from}`, `${prefix}${range.to}`);
      return items.map((item) => {
        const crawledBy: Partial<Record<BotPlatformId, number>> = {};
        const purposes: Record<string, number> = {};
        for (const [k, v] of Object.entries(item)) {
          if (k.startsWith(CRAWLED_BY)) crawledBy[k.slice(CRAWLED_BY.length) as BotPlatformId] = Number(v);
          else if (k.startsWith(PURPOSE)) purposes[k.slice(PURPOSE.length)] = Number(v);
        }
        return {
          date: String(item.SK).slice(prefix.length),
          crawled: Number(item.crawled ?? 0),
          crawledBy,
          purposes,
          lastVisitAt: item.last_visit_at ?? null,
          checks: (item.checks as ProductFunnelDay | undefined) ?? null,
        };
      });
    },
  };
}
