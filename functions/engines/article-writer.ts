/**
 * The article model of this deployment (LLM_*), through the fleet limiter, or null: articles
 * are then written by the extractive engine.
 */
import { createModelArticleWriter, type ModelArticleWriter } from '../adapters/external/model/article-writer';
import { createLogger } from '../logger';
import { perContainer } from './per-container';

export const articleModelOf = perContainer(({ config: { llm }, platformLimiter }): ModelArticleWriter | null => {
  const baseUrl = llm.baseUrl?.trim();
  if (!baseUrl) return null;
  return createModelArticleWriter({
    baseUrl, apiKey: llm.apiKey?.trim() || undefined, model: llm.model?.trim() || 'gpt-4o-mini',
    log: createLogger({ component: 'article-writer' }), limiter: platformLimiter,
  });
});
