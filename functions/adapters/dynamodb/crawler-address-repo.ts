/**
 * The crawler vendors' published addresses (D193): one fleet-wide item per vendor under
 * `CRAWLER_ADDRESSES` / `VENDOR#<vendor>`, so every vendor's list is one Query. An item holds
 * at most MAX_RANGES_PER_VENDOR ranges (~230 KB at worst, test/app/verified-visits.test.ts), bounded by design whatever a vendor sends.
 * A refresh replaces the ranges whole (a put: safe to repeat); a failed refresh only records
 * its error and time, so the last good list stays in use.
 */
import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CrawlerAddressRepository, StoredAddressList } from '../../ports';
import { keys } from './keys';
import { queryAll } from './query-all';

const MAX_ERROR_LENGTH = 300;

export function createCrawlerAddressRepository(db: DynamoDBDocumentClient, table: string): CrawlerAddressRepository {
  return {
    async all() {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.crawlerAddressesPartition },
        ConsistentRead: true,
      });
      return items.map((item): StoredAddressList => ({
        vendor: String(item.vendor),
        ranges: Array.isArray(item.ranges) ? item.ranges.map(String) : [],
        fetchedAt: typeof item.fetchedAt === 'string' ? item.fetchedAt : null,
        attemptedAt: String(item.attemptedAt ?? ''),
        error: typeof item.error === 'string' ? item.error : null,
      }));
    },

    async save(vendor, ranges, at) {
      await db.send(new PutCommand({
        TableName: table,
        Item: { ...keys.crawlerAddresses(vendor), type: 'crawler_addresses', vendor, ranges, fetchedAt: at, attemptedAt: at },
      }));
    },

    async recordFailure(vendor, error, at) {
      await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.crawlerAddresses(vendor),
        UpdateExpression: 'SET #type = :type, vendor = :vendor, attemptedAt = :at, #error = :error',
        ExpressionAttributeNames: { '#type': 'type', '#error': 'error' },
        ExpressionAttributeValues: { ':type': 'crawler_addresses', ':vendor': vendor, ':at': at, ':error': error.slice(0, MAX_ERROR_LENGTH) },
      }));
    },
  };
}
