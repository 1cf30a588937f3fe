/**
 * Onboarding 1e (D19): a public scan of the store made before payment is kept per
 * normalized domain; when one exists and the business has no score history yet, its
 * score becomes the first history entry. Repeating it changes nothing.
 */
import type { Container } from '../../container';
import type { SkippedStep } from './runs';
import { requireBusiness } from '../business';

export async function copyPrepaymentScore(container: Container, orgSlug: string): Promise<{ score: number; date: string } | SkippedStep> {
  const business = await requireBusiness(container, orgSlug);
  const scan = await container.prepaymentScans.get(business.domain);
  if (!scan) return { status: 'skipped', reason: `no pre-payment scan exists for ${business.domain}` };
  const date = scan.scannedAt.slice(0, 10);
  return container.visibility.update(orgSlug, business.id, (history) => {
    if (history?.length) return { history, recentScore: history.at(-1)!.score, result: { score: history.at(-1)!.score, date: history.at(-1)!.date } };
    return { history: [{ date, score: scan.score, platforms: scan.platforms }], recentScore: scan.score, result: { score: scan.score, date } };
  });
}
