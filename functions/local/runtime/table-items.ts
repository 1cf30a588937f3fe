/**
 * What the local table holds, item by item, sized as DynamoDB counts an item against its
 * 400 KB limit (names and values in UTF-8 bytes, a number by its digits, a list or map 3
 * bytes plus one per element): the bench's "largest item written" and the tests that hold
 * every item kind under its bound (D39) read it.
 */
import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** The bytes one attribute value counts for. */
export function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^[-+]|\.|e.*$/gi, '').replace(/^0+/, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((n, s) => n + utf8(s), 0);
  if (value.NS) return value.NS.reduce((n, s) => n + valueBytes({ N: s }), 0);
  if (value.BS) return value.BS.reduce((n, b) => n + b.byteLength, 0);
  if (value.L) return 3 + value.L.reduce((n, v) => n + 1 + valueBytes(v), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((n, [k, v]) => n + 1 + utf8(k) + valueBytes(v), 0);
  return 0;
}

/** The bytes an item counts for against DynamoDB's 400 KB item limit. */
export function itemBytes(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((n, [name, value]) => n + utf8(name) + valueBytes(value), 0);
}

export interface ItemSize {
  /** Partition and sort key. */
  pk: string;
  sk: string;
  bytes: number;
}

/** Every item of the table with its size, largest first (a Scan: for the local table only). */
export async function itemSizes(endpoint: string, tableName: string, region = 'us-east-1'): Promise<ItemSize[]> {
  const client = new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const sizes: ItemSize[] = [];
  try {
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) sizes.push({ pk: item.PK?.S ?? '', sk: item.SK?.S ?? '', bytes: itemBytes(item) });
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return sizes.sort((a, b) => b.bytes - a.bytes);
}
