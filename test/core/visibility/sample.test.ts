import type { TrackedPrompt } from '../../../functions/core/model';
import { PROMPTS_PER_DAY, samplePrompts } from '../../../functions/core/visibility/sample';
import { seededRandom } from '../../../functions/core/util/random';

const prompt = (id: string, tested: boolean, productId: string | null = null): TrackedPrompt => ({
  id, orgSlug: 'o', prompt: `prompt ${id}`, entityId: productId ? `e-${productId}` : 'e-biz', productId, source: 'generated',
  lastTestedAt: tested ? '2026-11-01T00:00:00.000Z' : null, createdAt: '2026-10-01T00:00:00.000Z',
  platform_1: null, platform_2: null, platform_3: null, platform_4: null, platform_5: null, platform_6: null, platform_7: null, platform_8: null,
});

test('untested prompts come first, then tested ones; never more than asked', () => {
  const prompts = [...Array.from({ length: 4 }, (_, i) => prompt(`u${i}`, false, `p${i}`)), ...Array.from({ length: 30 }, (_, i) => prompt(`t${i}`, true))];
  const sample = samplePrompts(prompts, PROMPTS_PER_DAY, seededRandom('o:2026-11-23'));
  expect(sample).toHaveLength(10);
  expect(sample.slice(0, 4).every((s) => s.was_untested)).toBe(true);
  expect(sample.slice(4).every((s) => !s.was_untested)).toBe(true);
  expect(new Set(sample.map((s) => s.prompt_id)).size).toBe(10);
  expect(sample[0]).toMatchObject({ entity_id: expect.stringMatching(/^e-p/), product_id: expect.stringMatching(/^p/) });
});

test('the draw depends on the seed only: same business and day → same sample, whatever the stored order', () => {
  const prompts = Array.from({ length: 50 }, (_, i) => prompt(`t${i}`, true));
  const a = samplePrompts(prompts, 10, seededRandom('o:2026-11-23')).map((s) => s.prompt_id);
  const b = samplePrompts([...prompts].reverse(), 10, seededRandom('o:2026-11-23')).map((s) => s.prompt_id);
  const c = samplePrompts(prompts, 10, seededRandom('o:2026-11-24')).map((s) => s.prompt_id);
  expect(b).toEqual(a);
  expect(c).not.toEqual(a);
});

test('the tested prompts are drawn evenly over many days (random, not the first ten)', () => {
  const prompts = Array.from({ length: 40 }, (_, i) => prompt(`t${String(i).padStart(2, '0')}`, true));
  const hits = new Map<string, number>();
  for (let d = 0; d < 400; d++) for (const s of samplePrompts(prompts, 10, seededRandom(`o:${d}`))) hits.set(s.prompt_id, (hits.get(s.prompt_id) ?? 0) + 1);
  // Expected 100 each (400 days × 10 / 40); every prompt drawn, none more than twice its share.
  expect(hits.size).toBe(40);
  expect(Math.max(...hits.values())).toBeLessThan(200);
  expect(Math.min(...hits.values())).toBeGreaterThan(50);
});

test('fewer prompts than the sample size: all of them', () => {
  expect(samplePrompts([prompt('a', true), prompt('b', false)], 10, seededRandom('x'))).toHaveLength(2);
  expect(samplePrompts([], 10, seededRandom('x'))).toEqual([]);
});
