import { PLATFORM_KEYS } from '../../functions/core/constants';
import { addDays } from '../../functions/core/visibility/score';
import { getContainer } from '../../functions/container';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let token: string;
const today = new Date().toISOString().slice(0, 10);

/** `trues[k]` = how many of the prompts were found on platform k+1. */
function results(prompts: number, trues: number[], prefix = 'best mug for coffee') {
  return Array.from({ length: prompts }, (_, i) => ({
    prompt: `${prefix} ${i}`,
    ...Object.fromEntries(PLATFORM_KEYS.map((k, p) => [k, i < (trues[p] ?? 0)])),
  }));
}
const score = (body: object) => stack.call('POST', '/api/cron/store-visibility-score', { apiKey: DEV_API_KEY, body });

beforeAll(async () => {
  stack = await startTestStack();
  token = await stack.token('mugs');
  await stack.call('POST', '/api/business', { token, body: { name: 'Mug Shop', url: 'mugs.example' } });
  const now = new Date().toISOString();
  await getContainer().products.addMissing([
    { id: '33333333-3333-4333-8333-333333333333', orgSlug: 'mugs', productId: 'tall-mug', name: 'Tall Mug', url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now },
  ]);
});
afterAll(() => stack.close());

test('first score: raw 50 (40 of 80), days -2/-1 seeded with 0 and 35, per-platform scores, tracker updated', async () => {
  const res = await score({ business_id: 'mugs', results: results(10, [10, 10, 10, 10, 0, 0, 0, 0]) });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    status: 'success', message: expect.any(String), overall_score: 50, prompts_analyzed: 10, total_true: 40,
    platform_scores: { platform_1_score: 100, platform_2_score: 100, platform_3_score: 100, platform_4_score: 100, platform_5_score: 0, platform_6_score: 0, platform_7_score: 0, platform_8_score: 0 },
  });
  const vis = await stack.call('GET', '/api/visibility/mugs', { token });
  expect(vis.body.recent_score).toBe(50);
  expect(vis.body.history_scores.map((h: { date: string; score: number }) => [h.date, h.score])).toEqual([
    [addDays(today, -2), 0], [addDays(today, -1), 35], [today, 50],
  ]);
  const prompts = await stack.call('GET', '/api/prompts/mugs', { token });
  expect(prompts.body.total).toBe(10);
  expect(prompts.body.prompts.find((p: { prompt: string }) => p.prompt === 'best mug for coffee 0')).toMatchObject({ prompt: 'best mug for coffee 0', product_id: null, platform_1: true, platform_5: false, last_tested_at: expect.any(String) });
});

test('floor: a raw score at or below the lowest non-zero history score becomes that minimum + 1', async () => {
  const res = await score({ business_id: 'mugs', results: results(10, [1, 1, 0, 0, 0, 0, 0, 0]) }); // raw 2.5 → 3
  expect(res.body.overall_score).toBe(36);
  const vis = await stack.call('GET', '/api/visibility/mugs', { token });
  expect(vis.body.history_scores.at(-1)).toMatchObject({ date: today, score: 36 });
});

test('backdating inserts in date order and keeps the newer recent score', async () => {
  const res = await score({ business_id: 'mugs', results: results(2, [2, 2, 2, 2, 2, 2, 2, 2]), backdate_to: addDays(today, -1) });
  expect(res.body.overall_score).toBe(100);
  const vis = await stack.call('GET', '/api/visibility/mugs', { token });
  const dates = vis.body.history_scores.map((h: { date: string }) => h.date);
  expect(dates).toEqual([...dates].sort());
  expect(vis.body.recent_score).toBe(36);
});

test('a product is scored separately, by slug', async () => {
  const res = await score({ business_id: 'mugs', product_id: 'tall-mug', results: results(5, [5, 0, 0, 0, 0, 0, 0, 0], 'tall mug') });
  expect(res.body.overall_score).toBe(36); // raw 12.5 → 13, below the seeded 35
  const vis = await stack.call('GET', '/api/visibility/mugs?product_id=tall-mug', { token });
  expect(vis.body).toMatchObject({ product_id: 'tall-mug', recent_score: 36 });
  const prompts = await stack.call('GET', '/api/prompts/mugs?product_id=tall-mug', { token });
  expect(prompts.body.total).toBe(5);
  expect(prompts.body.prompts.every((p: { product_id: string }) => p.product_id === 'tall-mug')).toBe(true);
});

test('concurrent score updates for one entity all land (no lost update): one entry per date', async () => {
  const before = (await stack.call('GET', '/api/visibility/mugs', { token })).body.history_scores;
  const dates = Array.from({ length: 8 }, (_, i) => addDays(today, -100 - i));
  const calls = await Promise.all(dates.map((backdate_to) => score({ business_id: 'mugs', backdate_to, results: results(1, [1, 1, 1, 1, 1, 1, 1, 1]) })));
  expect(calls.map((c) => c.status)).toEqual(Array(8).fill(200));
  const after = (await stack.call('GET', '/api/visibility/mugs', { token })).body.history_scores;
  expect(after.length).toBe(before.length + 8);
  expect(after.filter((e: { date: string }) => dates.includes(e.date))).toHaveLength(8);
});

test('50 concurrent first scores of a fresh entity, each for its own day: every day lands, the two seeds before the earliest (D216)', async () => {
  const cups = await stack.token('cups');
  await stack.call('POST', '/api/business', { token: cups, body: { name: 'Cup Shop', url: 'cups.example' } });
  const dates = Array.from({ length: 50 }, (_, i) => addDays(today, -1 - i));
  const calls = await Promise.all(dates.map((backdate_to) => score({ business_id: 'cups', backdate_to, results: results(1, [1, 1, 1, 1, 1, 1, 1, 1]) })));
  expect(calls.map((c) => c.status)).toEqual(Array(50).fill(200));
  expect(calls.filter((c) => /history seeded/.test(c.body.message))).toHaveLength(1);
  const history: Array<{ date: string; score: number }> = (await stack.call('GET', '/api/visibility/cups', { token: cups })).body.history_scores;
  // Every call's day holds its own score (100: one prompt found everywhere); nothing was lost.
  for (const date of dates) expect([date, history.filter((e) => e.date === date).map((e) => e.score)]).toEqual([date, [100]]);
  // The two seeded days sit before the earliest measured day, whichever call committed first.
  const earliest = dates[dates.length - 1]!;
  expect(history.filter((e) => !dates.includes(e.date)).map((e) => [e.date, e.score])).toEqual([[addDays(earliest, -2), 0], [addDays(earliest, -1), 35]]);
  expect(history).toHaveLength(52);
});

test('a backdated score before the seeds moves them before it (D216)', async () => {
  const jugs = await stack.token('jugs');
  await stack.call('POST', '/api/business', { token: jugs, body: { name: 'Jug Shop', url: 'jugs.example' } });
  await score({ business_id: 'jugs', results: results(1, [1, 1, 1, 1, 1, 1, 1, 1]) });
  await score({ business_id: 'jugs', backdate_to: addDays(today, -1), results: results(1, [1, 1, 1, 1, 1, 1, 1, 1]) });
  const history: Array<{ date: string; score: number }> = (await stack.call('GET', '/api/visibility/jugs', { token: jugs })).body.history_scores;
  expect(history.map((e) => [e.date, e.score])).toEqual([[addDays(today, -3), 0], [addDays(today, -2), 35], [addDays(today, -1), 100], [today, 100]]);
});

test('a second score the same day replaces that day\'s entry (D31); null cells are left out (D30)', async () => {
  const first = await score({ business_id: 'mugs', product_id: 'tall-mug', results: results(2, [2, 2, 2, 2, 2, 2, 2, 2], 'tall mug') });
  expect(first.status).toBe(200);
  const nullCells = results(2, [2, 0, 0, 0, 0], 'tall mug').map((r) => ({ ...r, platform_6: null, platform_7: null, platform_8: null }));
  const second = await score({ business_id: 'mugs', product_id: 'tall-mug', results: nullCells });
  // 2 trues of 10 booleans = 20, floored against the seeds (min non-zero 35) → 36.
  expect(second.body).toMatchObject({ overall_score: 36, total_true: 2, platform_scores: { platform_1_score: 100, platform_2_score: 0, platform_6_score: null } });
  const vis = (await stack.call('GET', '/api/visibility/mugs?product_id=tall-mug', { token })).body;
  expect(vis.history_scores.filter((e: { date: string }) => e.date === today)).toEqual([expect.objectContaining({ score: 36, n: 10, true_count: 2 })]);
  // The tracker kept the earlier booleans where this call sent null.
  const prompts = (await stack.call('GET', '/api/prompts/mugs?product_id=tall-mug', { token })).body.prompts;
  expect(prompts.find((p: { prompt: string }) => p.prompt === 'tall mug 0')).toMatchObject({ platform_1: true, platform_6: true });
  const none = await score({ business_id: 'mugs', results: [{ prompt: 'x', ...Object.fromEntries(PLATFORM_KEYS.map((k) => [k, null])) }] });
  expect(none.status).toBe(400);
  expect(none.body.error).toMatch(/every platform is null/);
});

test.each([
  [{ business_id: 'mugs', results: [] }, 400, /results/],
  [{ business_id: 'mugs' }, 400, /results/],
  [{ business_id: 'mugs', results: [{ prompt: 'x', platform_1: true }] }, 400, /platform_2/],
  [{ business_id: 'mugs', results: results(1, [1]), backdate_to: '2026-02-30' }, 400, /backdate_to/],
  [{ business_id: 'mugs', results: results(1, [1]), backdate_to: addDays(today, 1) }, 400, /future/],
  [{ business_id: 'mugs', results: results(1, [1]), backdate_to: addDays(today, -365) }, 400, /365/],
  [{ business_id: 'nobody', results: results(1, [1]) }, 404, /not found/],
  [{ business_id: 'mugs', product_id: 'no-such', results: results(1, [1]) }, 404, /product/],
])('rejects %j with %i and writes nothing', async (body, status, message) => {
  const before = (await stack.call('GET', '/api/visibility/mugs', { token })).body;
  const res = await score(body);
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(message) });
  expect((await stack.call('GET', '/api/visibility/mugs', { token })).body).toEqual(before);
});

test('visibility and prompts of another organization are refused (403)', async () => {
  const other = await stack.token('someone-else');
  expect((await stack.call('GET', '/api/visibility/mugs', { token: other })).status).toBe(403);
  expect((await stack.call('GET', '/api/prompts/mugs', { token: other })).status).toBe(403);
});

test('an entity with no score yet reads as null with an empty history', async () => {
  const t = await stack.token('fresh');
  await stack.call('POST', '/api/business', { token: t, body: { name: 'Fresh', url: 'fresh.example' } });
  const res = await stack.call('GET', '/api/visibility/fresh', { token: t });
  expect(res.body).toEqual({ business_id: 'fresh', product_id: null, recent_score: null, history_scores: [], latest_report: null });
});
