/**
 * The one table's shape. The CDK data stack and the local embedded database both build
 * the table from this constant, so their key schemas and indexes cannot differ.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Expiry attribute (epoch seconds). dynalite has no TTL: readers filter expired items. */
  ttlAttribute: 'expires_at',
  globalSecondaryIndexes: [
    /** Lookups by an alternate key: a store domain or custom domain → organization. */
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    /** Fleet listings (every business, for the daily schedule) without a table scan. */
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  ],
} as const;

export type IndexName = (typeof TABLE_SCHEMA.globalSecondaryIndexes)[number]['indexName'];
