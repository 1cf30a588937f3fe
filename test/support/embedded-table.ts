/**
 * One table on the embedded database (dynalite) for a test file: started before its tests,
 * closed after them. `db` is the document client the repositories take.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';

export interface EmbeddedTable {
  readonly name: string;
  readonly db: DynamoDBDocumentClient;
}

export function useEmbeddedTable(name: string): EmbeddedTable {
  let database: EmbeddedDatabase | undefined;
  let db: DynamoDBDocumentClient | undefined;
  beforeAll(async () => {
    database = await startEmbeddedDatabase();
    await ensureTable(database.endpoint, name);
    db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
  });
  afterAll(async () => {
    db?.destroy();
    await database?.close();
  });
  return {
    name,
    get db() {
      if (!db) throw new Error(`the embedded table ${name} is used before its beforeAll`);
      return db;
    },
  };
}
