/**
 * Fleet-wide limits of the AI platforms (issue 11 item 5) and of the article model (issue
 * 20), held in the table so every
 * Lambda instance shares them:
 * - concurrency: `concurrency` slot items per platform; a check holds one through a
 *   conditional write (free, or its lease expired: a crashed holder frees its slot after
 *   `leaseSeconds`), released with a delete conditioned on the holder;
 * - rate: a per-minute window counter per platform, incremented only below the limit (a
 *   refused attempt takes no capacity, unlike the request limiter's counter, which must
 *   count abusers' refused requests too);
 * - daily budget: one counter per platform per UTC day, incremented only below the budget.
 * `acquire` waits (bounded by `maxWaitMs`) for a slot or the rate; a spent budget is not
 * waited for: the check is refused with the reason before it takes a slot or the rate.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock, LimitedProvider, PlatformLimiter, PlatformLimits } from '../../ports';
import { isConditionFailure } from './client';
import { keys } from './keys';

export interface PlatformLimiterOptions {
  limits: PlatformLimits;
  clock: Clock;
  /** A held slot frees itself after this long (a holder that crashed). Default 180. */
  leaseSeconds?: number;
  /** Longest wait for a slot or the rate before giving up. Default 120 000. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export function createPlatformLimiter(db: DynamoDBDocumentClient, table: string, options: PlatformLimiterOptions): PlatformLimiter {
  const { limits, clock } = options;
  const leaseSeconds = options.leaseSeconds ?? 180;
  const maxWaitMs = options.maxWaitMs ?? 120_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const nowSec = () => Math.floor(clock.now().getTime() / 1000);

  async function claimSlot(platform: LimitedProvider, holder: string): Promise<number | null> {
    const first = Math.floor(random() * limits.concurrency);
    for (let i = 0; i < limits.concurrency; i++) {
      const slot = (first + i) % limits.concurrency;
      try {
        await db.send(new PutCommand({
          TableName: table,
          Item: { ...keys.platformSlot(platform, slot), type: 'platform_slot', holder, expires_at: nowSec() + leaseSeconds },
          ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now',
          ExpressionAttributeValues: { ':now': nowSec() },
        }));
        return slot;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    }
    return null;
  }

  /** Counts one use in the item when it is below `max`; false (nothing counted) when it is not. */
  async function countBelow(Key: Record<string, string>, max: number, expiresAt: number): Promise<boolean> {
    try {
      await db.send(new UpdateCommand({
        TableName: table, Key,
        UpdateExpression: 'ADD used :one SET expires_at = :exp',
        ConditionExpression: 'attribute_not_exists(used) OR used < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':exp': expiresAt },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  const budgetKey = (platform: LimitedProvider) => keys.platformBudget(platform, clock.now().toISOString().slice(0, 10));
  const spendBudget = (platform: LimitedProvider) => countBelow(budgetKey(platform), limits.dailyBudget, nowSec() + 3 * 86_400);

  /**
   * Read before anything is waited for or taken: a spent budget refuses at once, without
   * holding a slot or using the minute's rate (refused calls would otherwise crowd out the
   * platforms' other calls and stretch the day: bench/capacity.ts measured +13 h at 10,000
   * businesses). The spend itself stays the conditional write below, so the count holds.
   */
  async function budgetSpent(platform: LimitedProvider): Promise<boolean> {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: budgetKey(platform), ProjectionExpression: 'used' }));
    return Number(Item?.used ?? 0) >= limits.dailyBudget;
  }
  const spentReason = (platform: LimitedProvider) => `daily budget of ${limits.dailyBudget} checks on ${platform} is spent`;

  /** Takes one call of the current minute; else the seconds until the next minute. */
  async function takeRate(platform: LimitedProvider): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const minute = Math.floor(nowSec() / 60) * 60;
    if (await countBelow(keys.platformRate(platform, minute), limits.ratePerMinute, minute + 180)) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, minute + 60 - nowSec()) };
  }

  return {
    limits,
    async acquire(platform) {
      const started = clock.now().getTime();
      const waited = () => clock.now().getTime() - started;
      const holder = randomUUID();
      if (await budgetSpent(platform)) return { ok: false, reason: spentReason(platform) };
      for (let attempt = 1; ; attempt++) {
        const slot = await claimSlot(platform, holder);
        if (slot !== null) {
          const rate = await takeRate(platform);
          if (rate.allowed) {
            if (!(await spendBudget(platform))) {
              await release(platform, slot, holder);
              return { ok: false, reason: spentReason(platform) };
            }
            return { ok: true, release: () => release(platform, slot, holder) };
          }
          await release(platform, slot, holder);
          if (waited() + rate.retryAfterSeconds * 1000 > maxWaitMs) return { ok: false, reason: `rate limit of ${limits.ratePerMinute}/min on ${platform}: no capacity within ${maxWaitMs} ms` };
          await sleep(rate.retryAfterSeconds * 1000);
          continue;
        }
        if (waited() > maxWaitMs) return { ok: false, reason: `all ${limits.concurrency} concurrent slots of ${platform} stayed busy for ${maxWaitMs} ms` };
        // Jittered polling: holders release within one platform call.
        await sleep(Math.min(2_000, 100 * 2 ** Math.min(attempt, 4)) * (0.5 + random() / 2));
      }
    },
  };

  async function release(platform: LimitedProvider, slot: number, holder: string): Promise<void> {
    try {
      await db.send(new DeleteCommand({
        TableName: table, Key: keys.platformSlot(platform, slot),
        ConditionExpression: 'holder = :holder', ExpressionAttributeValues: { ':holder': holder },
      }));
    } catch (err) {
      // Our lease expired and another holder took the slot: it is theirs now.
      if (!isConditionFailure(err)) throw err;
    }
  }
}
