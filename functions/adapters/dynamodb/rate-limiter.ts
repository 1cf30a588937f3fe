import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rateLimitKey } from '../../core/net/client-address';
import type { Clock, RateLimiter } from '../../ports';
import { keys } from './keys';

/**
 * Sliding-window counter kept in the table, so every Lambda instance shares it (D14).
 * Each window is one item incremented atomically with ADD; the estimate weights the
 * previous window by how much of it still overlaps the last `windowSeconds`, which
 * avoids the double burst a plain fixed window allows at its edges.
 * The client is counted under `rateLimitKey` (an address, an IPv6 /64, or a fixed-length
 * digest), so no caller-supplied value can make an oversized key.
 */
export function createRateLimiter(db: DynamoDBDocumentClient, table: string, clock: Clock): RateLimiter {
  return {
    async hit(name, clientIp, limit, windowSeconds) {
      const client = rateLimitKey(clientIp);
      const nowSec = clock.now().getTime() / 1000;
      const windowStart = Math.floor(nowSec / windowSeconds) * windowSeconds;
      const elapsed = nowSec - windowStart;
      const expiresAt = windowStart + 3 * windowSeconds;

      const [updated, previous] = await Promise.all([
        db.send(new UpdateCommand({
          TableName: table,
          Key: keys.rateWindow(name, client, windowStart),
          UpdateExpression: 'ADD hits :one SET expires_at = :exp',
          ExpressionAttributeValues: { ':one': 1, ':exp': expiresAt },
          ReturnValues: 'UPDATED_NEW',
        })),
        db.send(new GetCommand({ TableName: table, Key: keys.rateWindow(name, client, windowStart - windowSeconds) })),
      ]);
      const current = Number(updated.Attributes?.hits ?? 1);
      const prev = Number(previous.Item?.hits ?? 0);
      const overlap = 1 - elapsed / windowSeconds;
      const estimate = prev * overlap + current;

      if (estimate <= limit) {
        return { allowed: true, remaining: Math.max(0, Math.floor(limit - estimate)), retryAfterSeconds: 0 };
      }
      // Seconds until the weighted previous window has decayed enough (or the window rolls over).
      const untilRollover = windowStart + windowSeconds - nowSec;
      const untilDecay = prev > 0 && current < limit ? windowSeconds * (1 - (limit - current) / prev) - elapsed : untilRollover;
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(Math.min(untilRollover, untilDecay))) };
    },
  };
}
