/** The AI-site record's conditional state change (domain connection): against the embedded database. */
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createAiSiteRepository } from '../../functions/adapters/dynamodb/ai-site-repo';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';

const TABLE = 'ai-site-repo-test';
let database: EmbeddedDatabase;
let repo: ReturnType<typeof createAiSiteRepository>;

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  await ensureTable(database.endpoint, TABLE);
  const db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
  repo = createAiSiteRepository(db, TABLE);
});

afterAll(async () => { await database?.close(); });

test('patchWhenStatus writes only from an expected state, or for the execution that already moved it', async () => {
  await repo.patch('shop', 'e1', { proxyStatus: 'SSL_VALIDATED' });
  const connect = (id: string) => repo.patchWhenStatus('shop', 'e1', { proxyStatus: 'DEPLOYED', domainConnectExecution: id }, {
    proxyStatusIn: ['SSL_VALIDATED', 'DISCONNECTED'], orExecution: { field: 'domainConnectExecution', id },
  });
  expect(await connect('first')).toBe(true);
  expect(await connect('second')).toBe(false); // overtaken: DEPLOYED by another execution
  expect(await connect('first')).toBe(true); // a retry of the winner
  expect(await repo.get('shop')).toMatchObject({ proxyStatus: 'DEPLOYED', domainConnectExecution: 'first' });
  expect(await repo.patchWhenStatus('nobody', 'e2', { proxyStatus: 'DEPLOYED' }, { proxyStatusIn: ['SSL_VALIDATED'] })).toBe(false);
  expect(await repo.get('nobody')).toBeNull();
});
