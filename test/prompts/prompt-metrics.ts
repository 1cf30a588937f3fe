/** Measurements over a business's whole prompt set (business + every product), for the quality tests and the report. */
import { promptIdentity } from '../../functions/core/prompts/prompt-identity';
import { classifyIntent, figuresOf, validatePrompt, PROMPT_INTENTS, type PromptIntent } from '../../functions/core/prompts/prompt-quality';
import { containsBusinessName } from '../../functions/core/text/name-match';

export interface PromptMetrics {
  total: number;
  /** Prompts whose identity (D33 normalisation) an earlier prompt already had. */
  duplicates: number;
  /** The most copies of one prompt. */
  maxCopies: number;
  malformed: Array<{ prompt: string; issue: string }>;
  /** The most repeated numeric figure and the share of prompts that state it. */
  topFigure: { figure: string; count: number; share: number } | null;
  namingBrandOrLine: string[];
  intents: Record<PromptIntent, number>;
}

/**
 * `productNames`: the catalogue's product names; a line inside a product's own full name is
 * how a shopper names that product (D213), so it does not count as naming the line.
 */
export function measurePrompts(prompts: string[], businessName: string, lines: string[], tagged: Record<string, PromptIntent> = {}, productNames: readonly string[] = []): PromptMetrics {
  const names = productNames.map((n) => new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'));
  const outsideNames = (p: string) => names.reduce((text, name) => text.replace(name, ' '), p);
  const copies = new Map<string, number>();
  for (const p of prompts) copies.set(promptIdentity(p), (copies.get(promptIdentity(p)) ?? 0) + 1);
  const figures = new Map<string, number>();
  for (const p of prompts) for (const f of figuresOf(p)) figures.set(f, (figures.get(f) ?? 0) + 1);
  const top = [...figures.entries()].sort((a, b) => b[1] - a[1])[0];
  const intents = Object.fromEntries(PROMPT_INTENTS.map((i) => [i, 0])) as Record<PromptIntent, number>;
  for (const p of prompts) intents[tagged[p] ?? classifyIntent(p)]++;
  return {
    total: prompts.length,
    duplicates: prompts.length - copies.size,
    maxCopies: Math.max(0, ...copies.values()),
    malformed: prompts.flatMap((prompt) => { const issue = validatePrompt(prompt); return issue ? [{ prompt, issue }] : []; }),
    topFigure: top ? { figure: top[0], count: top[1], share: top[1] / Math.max(1, prompts.length) } : null,
    namingBrandOrLine: prompts.filter((p) => containsBusinessName(p, businessName) || lines.some((l) => containsBusinessName(outsideNames(p), l))),
    intents,
  };
}
