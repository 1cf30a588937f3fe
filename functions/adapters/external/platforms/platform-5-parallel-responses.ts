/**
 * platform_5, "assistant of a desktop-software company": a web-research API (Parallel)
 * through its Responses API, the vendor's endpoint for a synthesized answer with citations.
 * Sources checked: https://docs.parallel.ai/responses-api/responses-quickstart,
 * https://docs.parallel.ai/responses-api/openai-compatibility and
 * https://docs.parallel.ai/responses-api/features/citations.
 *
 *   PLATFORM_5_API_URL  https://api.parallel.ai/v1      (`/responses` is appended)
 *   PLATFORM_5_API_KEY  required (Authorization: Bearer, as the OpenAI SDK sends it)
 *   PLATFORM_5_MODEL    default `parallel` (the only model; the tier is `reasoning.effort`,
 *                       left at the vendor's default, medium)
 *
 *   POST {url}/responses  {"model": "parallel", "input": "<prompt>"}
 *
 * Grounding is automatic (the vendor ignores `tools`, so none is sent); the answer carries
 * OpenAI-style `url_citation` annotations, parsed by responses-api.ts.
 *
 * PLATFORM_5_MODEL set to a Task processor (`lite`, `base-fast`, ...) sends the prompt as a
 * Task API run instead (platform-5-parallel-task.ts, D228): that API publishes its rate.
 *
 * Why not the other two APIs the brief allowed: the Chat API's low-latency `speed` model
 * returns no citations (only the slow research models return a `basis`), and the Search API
 * returns ranked excerpts, not an answer, so the answer would have to be composed by us.
 */
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { askParallelTask, isTaskProcessor } from './platform-5-parallel-task';
import { askResponses } from './responses-api';
import { createPlatformClient, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_5: PlatformSpec = { n: 5, kind: 'assistant of a desktop-software company', keyRequired: true, defaultModel: 'parallel' };

export function createPlatform5Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_5, settings, deps, (prompt, ctx, s) => (isTaskProcessor(s.model) ? askParallelTask(prompt, ctx, s) : askResponses('platform_5', {
    endpoint: s.apiUrl,
    apiKey: s.apiKey!,
    body: { model: s.model, input: prompt },
    obtainedVia: 'responses API (built-in live web research)',
  }, ctx)));
}
