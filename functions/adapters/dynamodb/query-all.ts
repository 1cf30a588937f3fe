import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/** Runs a query to the end, following LastEvaluatedKey. */
export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let startKey: Record<string, any> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** All items of an organization's partition whose sort key starts with `prefix`. */
export function queryPrefix(db: DynamoDBDocumentClient, table: string, pk: string, prefix: string) {
  return queryAll(db, {
    TableName: table,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
  });
}

/** How many items of a partition have a sort key starting with `prefix` (Select COUNT: no item is transferred). */
export async function countPrefix(db: DynamoDBDocumentClient, table: string, pk: string, prefix: string): Promise<number> {
  let count = 0;
  let startKey: Record<string, any> | undefined;
  do {
    const page = await db.send(new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      Select: 'COUNT',
      ExclusiveStartKey: startKey,
    }));
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** The first item under one GSI1 key (the index's lookups: a domain, a distribution, an entity id). */
export async function queryGsi1First(db: DynamoDBDocumentClient, table: string, key: { GSI1PK: string; GSI1SK: string }): Promise<Record<string, any> | null> {
  const { Items } = await db.send(new QueryCommand({
    TableName: table,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :sk',
    ExpressionAttributeValues: { ':pk': key.GSI1PK, ':sk': key.GSI1SK },
    Limit: 1,
  }));
  return Items?.[0] ?? null;
}
