import { createHash } from 'node:crypto';

/**
 * The row key's normalisation: case, spacing and trailing punctuation. Kept as it was so
 * the ids of prompts already tracked never change (`promptId`); uniqueness within a
 * business is decided by the stronger `promptIdentity`.
 */
export function normalizePrompt(prompt: string): string {
  return prompt.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').replace(/[\s?.!]+$/, '').trim();
}

/** Words that do not change what a shopper asks: "a", "the", "is"/"are". */
const FILLER = new Set(['a', 'an', 'the', 'some', 'any']);
const BE = new Set(['is', 'are']);

/** "mats" → "mat", "accessories" → "accessory", "glasses" → "glass"; short words and "-ss" stay. */
function singularWord(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (/ies$/.test(w) && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (/[^su]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * What makes two prompts the same prompt within a business (D33): compared without case,
 * accents, punctuation or spacing, without articles, with "is"/"are" and plural endings
 * folded — "What are the best yoga mats?" and "what is the best yoga mat" are one prompt.
 * Numbers keep their decimal point ("1.5mm" is not "15mm") and currency signs stay.
 * Both engines' outputs (the strategy filter) and the repository's `addMissing` use it.
 */
export function promptIdentity(prompt: string): string {
  const folded = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’‘`´]/g, '')
    .replace(/(\d)[.,](\d)/g, '$1·$2') // keep decimals through the punctuation strip
    .replace(/[^\p{L}\p{N}$€£¥·]+/gu, ' ');
  return folded
    .split(' ')
    .filter((w) => w && !FILLER.has(w))
    .map((w) => (BE.has(w) ? 'be' : singularWord(w)))
    .join(' ');
}

/** Stable prompt id: the same prompt text for the same entity always maps to one tracker row. */
export function promptId(entityId: string, prompt: string): string {
  return createHash('sha256').update(`${entityId}\n${normalizePrompt(prompt)}`).digest('hex').slice(0, 32);
}
