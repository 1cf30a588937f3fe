/**
 * The local database applies a conditional write atomically against every concurrent request,
 * as DynamoDB does (issue 47): 50 writers racing on one item through the embedded database
 * lose nothing, and of 50 creates of one key exactly one wins.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../functions/adapters/dynamodb/client';
import { useEmbeddedTable } from '../support/embedded-table';

const TABLE = 'conditional-writes';
const table = useEmbeddedTable(TABLE);

const key = { PK: 'ITEM#race', SK: 'ITEM' };

test('50 concurrent read-modify-write updates, each conditional on the version it read, all land', async () => {
  await table.db.send(new PutCommand({ TableName: TABLE, Item: { ...key, version: 0, entries: [] } }));
  let conflicts = 0;
  const writer = async (n: number) => {
    for (;;) {
      const { Item } = await table.db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
      try {
        await table.db.send(new UpdateCommand({
          TableName: TABLE, Key: key,
          UpdateExpression: 'SET version = :next, entries = :entries',
          ConditionExpression: 'version = :read',
          ExpressionAttributeValues: { ':read': Item!.version, ':next': Item!.version + 1, ':entries': [...Item!.entries, n] },
        }));
        return;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        conflicts += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: 50 }, (_, n) => writer(n)));
  const { Item } = await table.db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
  expect(Item!.version).toBe(50);
  expect([...Item!.entries].sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 50 }, (_, n) => n));
  // They really raced: writes were refused on a stale version and retried.
  expect(conflicts).toBeGreaterThan(0);
});

test('50 concurrent creates of one key: exactly one wins, 49 are refused by the condition', async () => {
  const create = (n: number) => table.db.send(new PutCommand({ TableName: TABLE, Item: { PK: 'ITEM#once', SK: 'ITEM', n }, ConditionExpression: 'attribute_not_exists(PK)' }))
    .then(() => 'won', (err) => (err instanceof ConditionalCheckFailedException || isConditionFailure(err) ? 'refused' : Promise.reject(err)));
  const outcomes = await Promise.all(Array.from({ length: 50 }, (_, n) => create(n)));
  expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
  expect(outcomes.filter((o) => o === 'refused')).toHaveLength(49);
});
