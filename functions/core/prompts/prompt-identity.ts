import { createHash } from 'node:crypto';

/** Two prompts are the same when they differ only in case, spacing or trailing punctuation. */
export function normalizePrompt(prompt: string): string {
  return prompt.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').replace(/[\s?.!]+$/, '').trim();
}

/** Stable prompt id: the same prompt text for the same entity always maps to one tracker row. */
export function promptId(entityId: string, prompt: string): string {
  return createHash('sha256').update(`${entityId}\n${normalizePrompt(prompt)}`).digest('hex').slice(0, 32);
}
