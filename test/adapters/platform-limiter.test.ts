/**
 * The fleet-wide AI-platform limits against the embedded database: two limiter instances
 * (two Lambdas) share the concurrency slots, the per-minute rate and the daily budget, and a
 * slot whose holder crashed frees itself when its lease ends.
 */
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createPlatformLimiter } from '../../functions/adapters/dynamodb/platform-limiter';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';
import type { PlatformLimiter, PlatformLimits } from '../../functions/ports';

const TABLE = 'platform-limiter-test';
let database: EmbeddedDatabase;
let now = Date.parse('2026-11-23T10:00:00.000Z');
const clock = { now: () => new Date(now) };
/** Waiting advances the fake clock, so nothing sleeps for real. */
const sleep = async (ms: number) => { now += ms; await new Promise((r) => setImmediate(r)); };

function limiter(limits: PlatformLimits, extra: { leaseSeconds?: number; maxWaitMs?: number } = {}): PlatformLimiter {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
  return createPlatformLimiter(db, TABLE, { limits, clock, sleep, ...extra });
}

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  await ensureTable(database.endpoint, TABLE);
});
afterAll(() => database.close());

test('concurrency holds across instances: with 2 slots, a third holder waits until one is released', async () => {
  const limits = { concurrency: 2, ratePerMinute: 1000, dailyBudget: 1000 };
  const a = limiter(limits, { maxWaitMs: 5_000 });
  const b = limiter(limits, { maxWaitMs: 5_000 });
  const first = await a.acquire('platform_1');
  const second = await b.acquire('platform_1');
  expect(first.ok && second.ok).toBe(true);
  // Both slots held: the third gives up after its bounded wait, with the reason.
  const third = await a.acquire('platform_1');
  expect(third).toEqual({ ok: false, reason: expect.stringMatching(/all 2 concurrent slots of platform_1 stayed busy/) });
  if (first.ok) await first.release();
  const fourth = await b.acquire('platform_1');
  expect(fourth.ok).toBe(true);
  // Another platform has its own slots.
  expect((await a.acquire('platform_2')).ok).toBe(true);
  if (second.ok) await second.release();
  if (fourth.ok) await fourth.release();
});

test('a crashed holder frees its slot when the lease ends', async () => {
  const l = limiter({ concurrency: 1, ratePerMinute: 1000, dailyBudget: 1000 }, { leaseSeconds: 60, maxWaitMs: 120_000 });
  const held = await l.acquire('platform_3');
  expect(held.ok).toBe(true); // never released: the holder "crashed"
  const next = await l.acquire('platform_3'); // polls (fake time) past the 60 s lease
  expect(next.ok).toBe(true);
  // The first holder's late release does not free the slot the second one holds now.
  if (held.ok) await held.release();
  const blocked = await limiter({ concurrency: 1, ratePerMinute: 1000, dailyBudget: 1000 }, { maxWaitMs: 1_000 }).acquire('platform_3');
  expect(blocked.ok).toBe(false);
  if (next.ok) await next.release();
});

test('the daily budget is shared and refuses at once when spent, per platform and UTC day', async () => {
  const limits = { concurrency: 4, ratePerMinute: 1000, dailyBudget: 3 };
  const a = limiter(limits);
  const b = limiter(limits);
  const granted = [];
  for (const l of [a, b, a]) {
    const s = await l.acquire('platform_4');
    expect(s.ok).toBe(true);
    if (s.ok) { granted.push(s); await s.release(); }
  }
  expect(await b.acquire('platform_4')).toEqual({ ok: false, reason: 'daily budget of 3 checks on platform_4 is spent' });
  expect((await b.acquire('platform_5')).ok).toBe(true);
  now += 86_400_000; // the next UTC day has a fresh budget
  expect((await a.acquire('platform_4')).ok).toBe(true);
});

test('a spent budget refuses before a slot or the minute\'s rate is taken: refused checks crowd out no other call', async () => {
  const limits = { concurrency: 1, ratePerMinute: 2, dailyBudget: 1 };
  const l = limiter(limits, { maxWaitMs: 0 });
  const first = await l.acquire('platform_7');
  expect(first.ok).toBe(true);
  // Its slot is still held and the minute has one call left: the refusal waits for neither.
  const start = now;
  for (let i = 0; i < 5; i++) expect(await l.acquire('platform_7')).toEqual({ ok: false, reason: 'daily budget of 1 checks on platform_7 is spent' });
  expect(now).toBe(start);
  if (first.ok) await first.release();
  // The minute's second call is still there for another platform-limited use (a fresh budget, same rate window).
  const other = limiter({ ...limits, dailyBudget: 10 }, { maxWaitMs: 0 });
  expect((await other.acquire('platform_7')).ok).toBe(true);
});

test('the per-minute rate is shared: the over-limit holder waits for the window, then proceeds', async () => {
  const limits = { concurrency: 10, ratePerMinute: 2, dailyBudget: 1000 };
  const a = limiter(limits);
  const b = limiter(limits);
  const start = now;
  for (const l of [a, b]) {
    const s = await l.acquire('platform_6');
    if (s.ok) await s.release();
  }
  const third = await a.acquire('platform_6');
  expect(third.ok).toBe(true);
  // It had to wait (fake time moved on by the limiter's Retry-After).
  expect(now - start).toBeGreaterThanOrEqual(1_000);
  if (third.ok) await third.release();
  const fourth = await b.acquire('platform_6'); // the second of this minute
  if (fourth.ok) await fourth.release();
  const tight = limiter(limits, { maxWaitMs: 0 });
  expect(await tight.acquire('platform_6')).toEqual({ ok: false, reason: expect.stringMatching(/rate limit of 2\/min on platform_6/) });
});
