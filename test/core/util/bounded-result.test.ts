import { boundedResult, MAX_TEXT, RESULT_SAMPLE } from '../../../functions/core/util/bounded-result';

test('a map or list past the sample keeps its first entries and says how many there were; the rest is untouched', () => {
  const shortfall = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`mug-${i}`, 2]));
  const ids = Array.from({ length: 120 }, (_, i) => `p${i}`);
  const out = boundedResult({ products: { count: 20_000, shortfall, ids, perProduct: 5 }, engine: { name: 'offline' } });
  const products = out.products as Record<string, unknown>;
  expect(Object.keys(products.shortfall as object)).toHaveLength(RESULT_SAMPLE);
  expect((products.shortfall as Record<string, number>)['mug-0']).toBe(2);
  expect(products).toMatchObject({ count: 20_000, perProduct: 5, shortfall_total: 20_000, ids_total: 120 });
  expect(products.ids).toEqual(ids.slice(0, RESULT_SAMPLE));
  expect(out.engine).toEqual({ name: 'offline' });
  // Idempotent: a stored result read back and stored again stays the same.
  expect(boundedResult(out)).toEqual(out);
  expect(JSON.stringify(out).length).toBeLessThan(10_000);
});

test('a long text is cut; small results are unchanged', () => {
  expect((boundedResult({ reason: 'x'.repeat(10_000) }).reason as string).length).toBe(MAX_TEXT);
  const small = { saved: 3, shortfall: { a: 1 }, list: [1, 2] };
  expect(boundedResult(small)).toEqual(small);
});
