/**
 * Near-copy detection of AI articles (D35): 5-word shingles of an article's answer text and
 * their Jaccard similarity. A pair at 0.8 or above is a near copy, which search engines treat
 * as scaled content and AI assistants learn nothing from.
 *
 * Shingles are kept as sorted, unique 32-bit FNV-1a hashes of the lower-cased word 5-grams:
 * an article of 400 words keeps ~1.6 KB (base64) in its record, so the gate compares a new
 * article with every article of the business without reading their pages.
 */
export const SHINGLE_WORDS = 5;
/** D35: a body this similar (or more) to another article's is a near copy. */
export const NEAR_COPY_JACCARD = 0.8;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The words of a text as the shingles see them: lower case, letters and digits only. */
function shingleWords(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Sorted unique hashes of the text's 5-word shingles (one shingle of all words when shorter). */
export function shingleHashes(text: string): number[] {
  const words = shingleWords(text);
  if (!words.length) return [];
  const out = new Set<number>();
  const last = Math.max(0, words.length - SHINGLE_WORDS);
  for (let i = 0; i <= last; i++) out.add(fnv1a(words.slice(i, i + SHINGLE_WORDS).join(' ')));
  return [...out].sort((a, b) => a - b);
}

/** Jaccard similarity of two sorted unique hash lists (1 for two empty texts). */
export function jaccard(a: readonly number[], b: readonly number[]): number {
  if (!a.length && !b.length) return 1;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}

/** Shingles as stored in an article's record: base64 of the little-endian 32-bit hashes. */
export function encodeShingles(hashes: readonly number[]): string {
  const buffer = Buffer.alloc(hashes.length * 4);
  hashes.forEach((h, i) => buffer.writeUInt32LE(h >>> 0, i * 4));
  return buffer.toString('base64');
}

export function decodeShingles(encoded: string | null | undefined): number[] {
  if (!encoded) return [];
  const buffer = Buffer.from(encoded, 'base64');
  const out: number[] = [];
  for (let i = 0; i + 4 <= buffer.length; i += 4) out.push(buffer.readUInt32LE(i));
  return out;
}
