/**
 * Picks the generator engine from the settings (LOCAL_RUNTIME.md: LLM_BASE_URL,
 * LLM_API_KEY, LLM_MODEL): the model engine, with the offline engine as its per-part
 * fallback, when a model API is configured; otherwise the offline engine. It lives in the
 * adapter layer because the model engine does network I/O; core/generate stays pure.
 */
import type { Logger } from '../../../logger';
import type { SiteGenerator } from '../../../core/generate/types';
import { createOfflineGenerator } from '../../../core/generate/offline-engine';
import { createModelGenerator, DEFAULT_MODEL, type FetchLike, type ModelGeneratorOptions } from './model-engine';

export { createModelGenerator, DEFAULT_MODEL } from './model-engine';
export type { ModelGenerator, ModelGeneratorOptions, ModelGeneratorStats, FetchLike } from './model-engine';

export interface GeneratorSettings {
  llmBaseUrl?: string;
  llmApiKey?: string;
  llmModel?: string;
}

export interface GeneratorDeps {
  log: Logger;
  fetchImpl?: FetchLike;
  /** Tuning passed to the model engine (timeouts, retries, budgets). */
  modelOptions?: Partial<Omit<ModelGeneratorOptions, 'baseUrl' | 'apiKey' | 'model' | 'fallback' | 'log' | 'fetchImpl'>>;
}

export function createGenerator(settings: GeneratorSettings, deps: GeneratorDeps): SiteGenerator {
  const offline = createOfflineGenerator();
  const baseUrl = settings.llmBaseUrl?.trim();
  if (!baseUrl) return offline;
  return createModelGenerator({
    ...deps.modelOptions,
    baseUrl,
    apiKey: settings.llmApiKey?.trim() || undefined,
    model: settings.llmModel?.trim() || DEFAULT_MODEL,
    fallback: offline,
    log: deps.log,
    fetchImpl: deps.fetchImpl,
  });
}
