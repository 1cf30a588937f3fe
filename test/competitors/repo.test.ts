/**
 * The competitor repository's limits and duplicate rule under concurrency, on the embedded
 * database (no transactions: single-item conditional writes only).
 */
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createCompetitorRepository } from '../../functions/adapters/dynamodb/competitor-repo';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { competitorId, countBySource } from '../../functions/core/competitors/rules';
import type { Competitor, CompetitorRepository, CompetitorSource } from '../../functions/core/competitors/types';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';

const TABLE = 'competitor-repo-test';
let database: EmbeddedDatabase;
let db: DynamoDBDocumentClient;
let clock = Date.now();
let repo: CompetitorRepository;
let orgs = 0;

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  await ensureTable(database.endpoint, TABLE);
  db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
  repo = createCompetitorRepository(db, TABLE, { now: () => clock, abandonedClaimMs: 60_000 });
});
afterAll(async () => {
  db.destroy();
  await database.close();
});

const freshOrg = () => `org-${++orgs}`;

function competitor(orgSlug: string, domain: string, source: CompetitorSource = 'user_added'): Competitor {
  return {
    id: competitorId(orgSlug, domain), orgSlug, name: domain, url: `https://${domain}`, domain, description: '', faviconUrl: '',
    scrapedContent: '', source, products: [], targetMarket: '', createdAt: new Date(clock).toISOString(),
  };
}

/** A record written the way it was before slots existed. */
const putLegacy = (c: Competitor) => db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.competitor(c.orgSlug, c.id), type: 'competitor', ...c } }));

const tally = (outcomes: string[]) => outcomes.reduce<Record<string, number>>((t, o) => ({ ...t, [o]: (t[o] ?? 0) + 1 }), {});

describe('limits hold under concurrent adds', () => {
  test('8 concurrent user adds keep exactly 2; the rest are told the limit', async () => {
    const org = freshOrg();
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.add(competitor(org, `rival-${i}.example`))));
    expect(tally(outcomes)).toEqual({ added: 2, limit: 6 });
    expect(await repo.countBySource(org)).toEqual({ user_added: 2, auto_discovered: 0 });
  });

  test('15 concurrent auto-discovered adds keep exactly 10, and do not touch the user slots', async () => {
    const org = freshOrg();
    const outcomes = await Promise.all(Array.from({ length: 15 }, (_, i) => repo.add(competitor(org, `auto-${i}.example`, 'auto_discovered'))));
    expect(tally(outcomes)).toEqual({ added: 10, limit: 5 });
    expect(await repo.add(competitor(org, 'mine.example'))).toBe('added');
    expect(await repo.countBySource(org)).toEqual({ user_added: 1, auto_discovered: 10 });
  });

  test('concurrent adds of one website keep one; the others are duplicates, and no slot is lost', async () => {
    const org = freshOrg();
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => repo.add(competitor(org, 'same.example'))));
    expect(tally(outcomes)).toEqual({ added: 1, duplicate: 4 });
    expect(await repo.add(competitor(org, 'other.example'))).toBe('added');
    expect(await repo.list(org)).toHaveLength(2);
  });

  test('a website stored is a duplicate even when its source is full, and across sources', async () => {
    const org = freshOrg();
    expect(await repo.add(competitor(org, 'a.example'))).toBe('added');
    expect(await repo.add(competitor(org, 'b.example'))).toBe('added');
    expect(await repo.add(competitor(org, 'a.example'))).toBe('duplicate');
    expect(await repo.add(competitor(org, 'b.example', 'auto_discovered'))).toBe('duplicate');
    expect(await repo.countBySource(org)).toEqual({ user_added: 2, auto_discovered: 0 });
    // The refused cross-source add gave its auto slot back: 10 still fit.
    const autos = await Promise.all(Array.from({ length: 10 }, (_, i) => repo.add(competitor(org, `auto-${i}.example`, 'auto_discovered'))));
    expect(tally(autos)).toEqual({ added: 10 });
  });
});

describe('slots are given back and healed', () => {
  test('remove gives the slot back', async () => {
    const org = freshOrg();
    const a = competitor(org, 'a.example');
    expect(await repo.add(a)).toBe('added');
    expect(await repo.add(competitor(org, 'b.example'))).toBe('added');
    expect(await repo.add(competitor(org, 'c.example'))).toBe('limit');
    await repo.remove(org, a.id);
    await repo.remove(org, a.id); // already gone: no error, nothing else freed
    expect(await repo.add(competitor(org, 'c.example'))).toBe('added');
    expect(await repo.add(competitor(org, 'd.example'))).toBe('limit');
    expect(await repo.add(a)).toBe('limit'); // a removed website is no duplicate: just over the limit now
  });

  test('records saved before slots existed keep their slots', async () => {
    const org = freshOrg();
    await putLegacy(competitor(org, 'old.example'));
    const outcomes = await Promise.all(['x', 'y', 'z', 'old'].map((d) => repo.add(competitor(org, `${d}.example`))));
    expect(outcomes.filter((o) => o === 'added')).toHaveLength(1);
    expect(outcomes[3]).toBe('duplicate');
    expect(await repo.countBySource(org)).toEqual({ user_added: 2, auto_discovered: 0 });

    const full = freshOrg();
    await Promise.all(['p', 'q'].map((d) => putLegacy(competitor(full, `${d}.example`))));
    expect(await repo.add(competitor(full, 'r.example'))).toBe('limit');
    await repo.remove(full, competitorId(full, 'p.example'));
    expect(await repo.add(competitor(full, 'r.example'))).toBe('added');
  });

  test('a claim whose record never came is freed once abandoned, never before', async () => {
    const org = freshOrg();
    // Two writers that died between claiming and writing their record.
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.competitorSlots(org, 'user_added'), type: 'competitor_slots', source: 'user_added', holders: { ghost1: clock, ghost2: clock } } }));
    expect(await repo.add(competitor(org, 'a.example'))).toBe('limit');
    clock += 61_000;
    const outcomes = await Promise.all(['a', 'b', 'c'].map((d) => repo.add(competitor(org, `${d}.example`))));
    expect(tally(outcomes)).toEqual({ added: 2, limit: 1 });
    expect(countBySource(await repo.list(org)).user_added).toBe(2);
  });
});
