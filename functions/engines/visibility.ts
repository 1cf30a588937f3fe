/**
 * The visibility engine's parts, built once per container: the 8 platform clients (vendor
 * HTTP), the judge (the evaluating model: JUDGE_*, defaulting to LLM_*; none → the
 * deterministic matcher decides) and the fleet-wide limiter. Imported only by the 2b task,
 * so no API route bundles the vendor clients.
 */
import { createPlatformClients } from '../adapters/external/platforms';
import { createJudge } from '../adapters/external/model/judge';
import type { Judge } from '../core/visibility/evaluate';
import type { PlatformClient } from '../core/visibility/platform-answer';
import type { PlatformLimiter } from '../ports';
import { createLogger } from '../logger';
import { perContainer } from './per-container';

export interface VisibilityEngines {
  platforms: PlatformClient[];
  judge: Judge | null;
  limiter: PlatformLimiter;
}

const log = createLogger({ component: 'visibility-engines' });

export const visibilityEnginesOf = perContainer((container): VisibilityEngines => {
  const { config } = container;
  const judge = config.judge.baseUrl && config.judge.model
    // The judge is a paid call too: each takes a `judge` slot of the fleet limits (issue 21).
    ? createJudge({ baseUrl: config.judge.baseUrl, apiKey: config.judge.apiKey, model: config.judge.model, log, limiter: container.platformLimiter })
    : null;
  const platforms = createPlatformClients({ platforms: config.platforms, search: config.search }, { log });
  log.info('visibility engines', {
    platforms: platforms.map((p) => ({ platform: p.platform, configured: p.unconfigured === null, model: p.model })),
    judge: judge ? judge.model : 'none: the deterministic matcher decides',
  });
  return { platforms, judge, limiter: container.platformLimiter };
});
