/**
 * The daily checks' vendor batches (issue 47): the batch clients of the platforms whose
 * vendor sells one (OpenAI Batch, Anthropic Message Batches, Gemini batch mode) that
 * VISIBILITY_BATCHES names, and the repository of the day's batch jobs. Imported only by the
 * daily visibility tasks.
 */
import type { PlatformKey } from '../core/constants';
import type { PlatformBatchClient } from '../core/visibility/platform-batch';
import { createAnthropicBatchClient } from '../adapters/external/platforms/batch/anthropic-batch';
import { createOpenAiBatchClient } from '../adapters/external/platforms/batch/openai-batch';
import { createGeminiBatchClient } from '../adapters/external/platforms/batch/gemini-batch';
import { createVisibilityBatchRepository } from '../adapters/dynamodb/visibility-batch-repo';
import type { VisibilityBatchRepository } from '../ports';
import type { PlatformSettings } from '../adapters/external/platforms';
import { createLogger } from '../logger';
import { perContainer } from './per-container';

export interface VisibilityBatchEngines {
  /** By platform: only the configured platforms with a batch interface (none when VISIBILITY_BATCHES is off). */
  clients: ReadonlyMap<PlatformKey, PlatformBatchClient>;
  jobs: VisibilityBatchRepository;
}

const log = createLogger({ component: 'visibility-batches' });

export const visibilityBatchesOf = perContainer(({ config, dynamo }): VisibilityBatchEngines => {
  const of = (n: number): PlatformSettings | undefined => config.platforms.find((p) => p.n === n);
  const clients = new Map<PlatformKey, PlatformBatchClient>();
  const factories = { 1: createOpenAiBatchClient, 2: createAnthropicBatchClient, 3: createGeminiBatchClient } as const;
  for (const n of config.visibilityBatches.platforms as Array<keyof typeof factories>) {
    const client = factories[n](of(n), { log });
    if (client) clients.set(client.platform, client);
    else if (of(n)?.vertexProject) log.info('platform_3 is on Gemini on Vertex AI, which has no batch client here: its daily checks go synchronously (D239)');
  }
  return { clients, jobs: createVisibilityBatchRepository(dynamo.db, dynamo.table) };
});
