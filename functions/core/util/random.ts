/** Seeded randomness for draws that must repeat (a retried day's sample, a test's titles). */

/** A deterministic random source in [0, 1) for a seed (mulberry32 over an FNV-1a hash of the seed). */
export function seededRandom(seed: string | number): () => number {
  let h = 0x811c9dc5;
  for (const ch of String(seed)) {
    h ^= ch.codePointAt(0) as number;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
