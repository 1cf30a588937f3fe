/**
 * D191 under at-least-once delivery: products and prompts are written several conditional
 * puts at a time. A retried batch adds nothing, two writers of one batch at once add each item
 * once, and a slug twice in one batch keeps its first entity (as when they were written in turn).
 */
import { randomUUID } from 'node:crypto';
import { createProductRepository } from '../../functions/adapters/dynamodb/product-repo';
import { createPromptRepository } from '../../functions/adapters/dynamodb/prompt-repo';
import { PLATFORM_KEYS } from '../../functions/core/constants';
import type { Product, TrackedPrompt } from '../../functions/core/model';
import { useEmbeddedTable } from '../support/embedded-table';

const TABLE = 'add-missing-test';
const NOW = '2026-11-28T14:00:00.000Z';
const table = useEmbeddedTable(TABLE);

const product = (slug: string): Product => ({ id: randomUUID(), orgSlug: 'shop', productId: slug, name: slug, url: null, citationCount: 0, articleCount: 0, createdAt: NOW, updatedAt: NOW });

test('products: a retried batch adds none, concurrent writers add each once, a slug twice keeps the first', async () => {
  const products = createProductRepository(table.db, TABLE);
  const batch = Array.from({ length: 100 }, (_, i) => product(`mug-${i}`));
  const twice = product('mug-0');
  const [a, b] = await Promise.all([products.addMissing([...batch, twice]), products.addMissing(batch)]);
  expect(a + b).toBe(100);
  expect(await products.addMissing(batch)).toBe(0);
  expect((await products.find('shop', 'mug-0'))!.id).toBe(batch[0]!.id);
  expect(await products.count('shop')).toBe(100);
});

test('prompts: a retried batch adds none, concurrent writers add each once', async () => {
  const prompts = createPromptRepository(table.db, TABLE);
  const noResults = Object.fromEntries(PLATFORM_KEYS.map((k) => [k, null])) as Record<(typeof PLATFORM_KEYS)[number], null>;
  const batch: TrackedPrompt[] = Array.from({ length: 100 }, (_, i) => ({
    id: randomUUID(), orgSlug: 'shop', prompt: `Which mug number ${i} keeps coffee hot?`, entityId: 'entity-1', productId: 'mug', source: 'generated', lastTestedAt: null, createdAt: NOW, ...noResults,
  }));
  const [a, b] = await Promise.all([prompts.addMissing(batch), prompts.addMissing(batch)]);
  expect(a + b).toBe(100);
  expect(await prompts.addMissing(batch)).toBe(0);
  expect(await prompts.list('shop')).toHaveLength(100);
});
