/**
 * The AI-site record against the embedded database: its conditional state change (domain
 * connection), and its lists that grow with the store kept under DynamoDB's item limit (D39).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createAiSiteRepository } from '../../functions/adapters/dynamodb/ai-site-repo';
import { createFsArtifactStore } from '../../functions/adapters/local/fs-artifact-store';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';

const TABLE = 'ai-site-repo-test';
let database: EmbeddedDatabase;
let repo: ReturnType<typeof createAiSiteRepository>;
let db: ReturnType<typeof createDocumentClient>;
const artifactsDir = mkdtempSync(join(tmpdir(), 'ai-site-repo-'));
const artifacts = createFsArtifactStore(artifactsDir);

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  await ensureTable(database.endpoint, TABLE);
  db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
  repo = createAiSiteRepository(db, TABLE, artifacts);
});

afterAll(async () => {
  await database?.close();
  rmSync(artifactsDir, { recursive: true, force: true });
});

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

test('20,000 products\' snapshot and 5,000 sitemap URLs: the item stays under 350 KB, the lists read back whole, a replaced list is deleted', async () => {
  // Handles that do not compress away: a generated store's.
  const snapshot = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({
    handle: `product-${i}-${(i * 2654435761 % 4294967296).toString(36)}-${tag}`, name: `Product ${i} ${tag}`, url: `https://big.example/products/product-${i}-${tag}`, updated_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  }));
  const urls = Array.from({ length: 5_000 }, (_, i) => ({ loc: `https://big.example/pages/page-${i}-${(i * 40503).toString(36)}`, lastmod: '2026-01-01' }));
  const first = snapshot(20_000, 'a');
  await repo.patch('big', 'e1', { productsHash: 'h1', productsSnapshot: first, storeSitemapUrls: urls });
  const raw = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.aiSite('big') }))).Item!;
  const size = Object.values(raw).reduce((n: number, v) => n + (v instanceof Uint8Array ? v.byteLength : Buffer.byteLength(JSON.stringify(v))), 0);
  expect(size).toBeLessThan(350 * 1024);
  expect(raw.productsSnapshot).toMatchObject({ artifact: expect.stringMatching(/^ai-site-fields\/big\/productsSnapshot\//) });
  const lists = ['productsSnapshot', 'storeSitemapUrls'] as const;
  const read = await repo.get('big', { lists });
  expect(read!.productsSnapshot).toEqual(first);
  expect(read!.storeSitemapUrls).toEqual(urls);

  const pointer = raw.productsSnapshot.artifact as string;
  await repo.patch('big', 'e1', { productsHash: 'h2', productsSnapshot: snapshot(20_000, 'b') });
  expect((await repo.get('big', { lists }))!.productsSnapshot![0]!.handle).toMatch(/-b$/);
  expect(await artifacts.get(pointer)).toBeNull();
  // A small list goes back into the item.
  await repo.patch('big', 'e1', { productsSnapshot: snapshot(3, 'c') });
  expect((await repo.get('big', { lists }))!.productsSnapshot).toHaveLength(3);
}, 60_000);

test('a read that asks for no list reads none: no artifact is fetched for a status or an origin', async () => {
  let fetched = 0;
  const counting = { ...artifacts, get: async <T>(key: string) => { fetched++; return artifacts.get<T>(key); } };
  const sites = createAiSiteRepository(db, TABLE, counting);
  const big = Array.from({ length: 20_000 }, (_, i) => ({ handle: `p-${i}-${(i * 2654435761 % 4294967296).toString(36)}`, name: `P ${i}`, url: `https://lean.example/products/p-${i}`, updated_at: null }));
  await sites.patch('lean', 'e1', { productsHash: 'h', productsSnapshot: big, proxyStatus: 'DEPLOYED' });
  expect(await sites.get('lean')).toMatchObject({ proxyStatus: 'DEPLOYED', productsHash: 'h', productsSnapshot: null, storeSitemapUrls: null });
  expect(fetched).toBe(0);
  expect((await sites.get('lean', { lists: ['productsSnapshot'] }))!.productsSnapshot).toHaveLength(20_000);
  expect(fetched).toBe(1);
}, 60_000);

test('a list replaced while it is being read is read again from the new record; a retried write keeps its list', async () => {
  const snapshot = (tag: string) => Array.from({ length: 20_000 }, (_, i) => ({ handle: `q-${i}-${(i * 2654435761 % 4294967296).toString(36)}-${tag}`, name: `Q ${i}`, url: `https://race.example/products/q-${i}`, updated_at: null }));
  let replaceDuringRead = true;
  const racing = {
    ...artifacts,
    get: async <T>(key: string): Promise<T | null> => {
      if (replaceDuringRead) {
        replaceDuringRead = false;
        // Another task replaces the list between our read of the item and of its artifact.
        await repo.patch('race', 'e1', { productsSnapshot: snapshot('new') });
      }
      return artifacts.get<T>(key);
    },
  };
  await repo.patch('race', 'e1', { productsSnapshot: snapshot('old') });
  const read = await createAiSiteRepository(db, TABLE, racing).get('race', { lists: ['productsSnapshot'] });
  expect(read!.productsSnapshot![0]!.handle).toMatch(/-new$/);

  // The same write again (Step Functions delivers at least once): the list it points at stays.
  await repo.patch('race', 'e1', { productsSnapshot: snapshot('new') });
  expect((await repo.get('race', { lists: ['productsSnapshot'] }))!.productsSnapshot).toHaveLength(20_000);

  // A pointer whose list is gone for good is an error, never "no products".
  const raw = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.aiSite('race') }))).Item!;
  await artifacts.delete(raw.productsSnapshot.artifact as string);
  await expect(repo.get('race', { lists: ['productsSnapshot'] })).rejects.toThrow(/no longer holds/);
}, 60_000);
