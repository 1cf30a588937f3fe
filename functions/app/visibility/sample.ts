import type { VisibilitySample } from '../../core/visibility/checks';
import { PROMPTS_PER_DAY, samplePrompts } from '../../core/visibility/sample';
import { seededRandom } from '../../core/util/random';
import type { Container } from '../../container';

/** The stored sample of the day, or a new one drawn from every tracked prompt of the business. */
export async function claimDailySample(container: Container, orgSlug: string, runDate: string): Promise<VisibilitySample> {
  const existing = await container.visibilityChecks.getSample(orgSlug, runDate);
  if (existing) return existing;
  return container.visibilityChecks.claimSample(await drawSample(container, orgSlug, runDate));
}

/** What the day's sample is or would be (GET sample-prompts: nothing is stored). */
export async function drawSample(container: Container, orgSlug: string, runDate: string): Promise<VisibilitySample> {
  const prompts = await container.prompts.list(orgSlug);
  return {
    org_slug: orgSlug,
    run_date: runDate,
    prompts: samplePrompts(prompts, PROMPTS_PER_DAY, seededRandom(`${orgSlug}:${runDate}`)),
    created_at: container.clock.now().toISOString(),
  };
}
