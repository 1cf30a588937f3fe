/** Measurements over a business's whole prompt set (business + every product), for the quality tests and the report. */
import { promptIdentity } from '../../functions/core/prompts/prompt-identity';
import { classifyIntent, figuresOf, validatePrompt, PROMPT_INTENTS, type PromptIntent } from '../../functions/core/prompts/prompt-quality';
import { containsBusinessName, matchedTokens, nameTokens, replaceNames } from '../../functions/core/text/name-match';

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
  // Per line, the product names that hold it (a 20,000-product store: a few names each, not every name per prompt).
  const namesWith = new Map<string, string[]>();
  const namesHolding = (line: string) => {
    let found = namesWith.get(line);
    if (!found) namesWith.set(line, (found = productNames.filter((n) => containsBusinessName(n, line))));
    return found;
  };
  // A line is named only where each of its matched words is: lines indexed by their rarest one.
  const sequences = lines.map((line) => ({ line, tokens: matchedTokens(line) ?? [] }));
  const frequency = new Map<string, number>();
  for (const { tokens } of sequences) for (const t of new Set(tokens)) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const byToken = new Map<string, string[]>();
  for (const { line, tokens } of sequences) {
    const rarest = [...tokens].sort((a, b) => frequency.get(a)! - frequency.get(b)!)[0];
    if (rarest) byToken.set(rarest, [...(byToken.get(rarest) ?? []), line]);
  }
  const linesIn = (p: string) => [...new Set(nameTokens(p).flatMap((t) => byToken.get(t) ?? []))];
  const namesLine = (p: string, line: string) => containsBusinessName(p, line) && containsBusinessName(replaceNames(p, namesHolding(line), () => ' '), line);
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
    namingBrandOrLine: prompts.filter((p) => containsBusinessName(p, businessName) || linesIn(p).some((l) => namesLine(p, l))),
    intents,
  };
}
