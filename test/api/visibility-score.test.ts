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

test('concurrent score updates for one entity all land (no lost update)', async () => {
  const before = (await stack.call('GET', '/api/visibility/mugs', { token })).body.history_scores.length;
  const calls = await Promise.all(Array.from({ length: 8 }, () => score({ business_id: 'mugs', results: results(1, [1, 1, 1, 1, 1, 1, 1, 1]) })));
  expect(calls.map((c) => c.status)).toEqual(Array(8).fill(200));
  const after = (await stack.call('GET', '/api/visibility/mugs', { token })).body.history_scores.length;
  expect(after).toBe(before + 8);
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
  expect(res.body).toEqual({ business_id: 'fresh', product_id: null, recent_score: null, history_scores: [] });
});
