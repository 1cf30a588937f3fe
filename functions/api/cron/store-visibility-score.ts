/** POST /api/cron/store-visibility-score: every score rule lives in core/visibility/score.ts. */
import * as z from 'zod/mini';
import { PLATFORM_KEYS } from '../../core/constants';
import { computeScoreUpdate, type CheckResult, type ScoreUpdate } from '../../core/visibility/score';
import { endpoint } from '../../http/endpoint';
import { isoDate, orgSlug, productRef, requiredText } from '../../http/schemas';
import { todayUtc } from '../../container';
import { resolveEntity } from '../entity';
import { keyAuth } from '../../http/auth/key';

const result = z.object({
  prompt: requiredText('prompt', 2000),
  // null: the platform was not checked (unconfigured or failed); it is left out of the score (D30).
  ...Object.fromEntries(PLATFORM_KEYS.map((k) => [k, z.nullable(z.boolean({ error: `${k} must be true, false or null` }))])),
}) as unknown as z.ZodMiniType<CheckResult>;

const body = z.object({
  business_id: orgSlug,
  product_id: productRef,
  results: z.array(result).check(z.minLength(1, 'results must contain at least one item'), z.maxLength(1000)),
  backdate_to: z.optional(z.nullable(isoDate)),
});

/** The spec's response; a platform score is null when that platform answered no check (D30). */
const response = z.object({
  status: z.literal('success'),
  message: z.string(),
  overall_score: z.number().check(z.describe('integer 0-100, the floor rule applied')),
  prompts_analyzed: z.number(),
  total_true: z.number(),
  platform_scores: z.object(Object.fromEntries(PLATFORM_KEYS.map((k) => [`${k}_score`, z.nullable(z.number())])))
    .check(z.describe('platform_1_score ... platform_8_score: integer 0-100, null when the platform answered no check')),
});

export const handler = endpoint('POST /api/cron/store-visibility-score', { authenticator: keyAuth, body, response }, async ({ body, container }) => {
  const entity = await resolveEntity(container, body.business_id, body.product_id);
  const today = todayUtc(container);
  const entryDate = body.backdate_to ?? today;

  // Validate before anything is written, so a rejected call leaves no partial tracker update.
  computeScoreUpdate({ history: null, results: body.results, entryDate, today });

  const update = await container.visibility.update<ScoreUpdate>(entity.orgSlug, entity.entityId, (history) => {
    const next = computeScoreUpdate({ history, results: body.results, entryDate, today });
    return { history: next.history, recentScore: next.recentScore, result: next };
  });
  const testedAt = body.backdate_to ? `${body.backdate_to}T00:00:00.000Z` : container.clock.now().toISOString();
  await container.prompts.recordResults(entity, body.results, testedAt);

  return {
    body: {
      status: 'success',
      message: `stored score ${update.overallScore} for ${entity.productId ? `product ${entity.productId}` : `business ${entity.orgSlug}`} on ${entryDate}` +
        (update.floorApplied ? ' (floor rule applied)' : '') + (update.seeded ? ' (first score: history seeded)' : ''),
      overall_score: update.overallScore,
      prompts_analyzed: update.promptsAnalyzed,
      total_true: update.totalTrue,
      platform_scores: update.platformScores,
    },
  };
});
