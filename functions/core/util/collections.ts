/** Small collection helpers shared by the pure modules. */

/**
 * Splits items into consecutive chunks of at most `perChunk` items and about `budget`
 * units of `sizeOf` each (an item larger than the budget gets a chunk of its own).
 */
export function chunkByBudget<T>(items: readonly T[], sizeOf: (item: T) => number, perChunk: number, budget: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let used = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length && (current.length >= perChunk || used + size > budget)) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(item);
    used += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * Distinct non-empty labels (case-insensitive; the first spelling kept) with how many items
 * carry each, most common first, ties alphabetical.
 */
export function countLabels<T>(items: readonly T[], labelOf: (item: T) => string): Array<{ label: string; count: number }> {
  const counts = new Map<string, { label: string; count: number }>();
  for (const item of items) {
    const label = labelOf(item).trim();
    if (!label) continue;
    const entry = counts.get(label.toLowerCase()) ?? { label, count: 0 };
    entry.count++;
    counts.set(label.toLowerCase(), entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}
