/**
 * The daily visibility sample (spec 2b; D31): 10 prompts of the business, drawn from all of
 * its entities, untested first, then random. PURE: the randomness is seeded by the caller
 * (business and run date), so a retried or re-run day draws the same sample.
 */
import type { TrackedPrompt } from '../model';
import type { SampledPrompt } from './checks';

export const PROMPTS_PER_DAY = 10;

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Untested prompts first (in random order, so one entity's backlog does not crowd out the
 * others day after day), then tested ones at random. Fewer prompts than `size` → all of them.
 */
export function samplePrompts(prompts: readonly TrackedPrompt[], size: number, random: () => number): SampledPrompt[] {
  // Sorted first so the draw depends on the seed only, not on the order the store returned.
  const stable = [...prompts].sort((a, b) => a.id.localeCompare(b.id));
  const untested = shuffled(stable.filter((p) => p.lastTestedAt === null), random);
  const tested = shuffled(stable.filter((p) => p.lastTestedAt !== null), random);
  return [...untested, ...tested].slice(0, Math.max(0, size)).map((p) => ({
    prompt_id: p.id,
    prompt: p.prompt,
    entity_id: p.entityId,
    product_id: p.productId,
    was_untested: p.lastTestedAt === null,
  }));
}
