/**
 * The model engine of AI articles (issue 20): each question is answered by the configured
 * OpenAI-compatible model from its bounded fact sheet (core/articles/model-answer.ts), every
 * sentence checked against that sheet before it is used (D36).
 *
 * - Fleet limits: each call first takes a slot of the `article_model` provider in the fleet
 *   limiter (concurrency, rate per minute and daily budget shared by every Lambda instance,
 *   as the AI platforms' checks do). No slot, or a call that fails after its retries: the
 *   question is answered by the extractive engine (quotes of the store, exempt from the
 *   check), and the usage says how many fell back and why.
 * - Cost units: the tokens the API reports (`usage.total_tokens`), summed per business batch.
 * - An answer the check empties is not published (the gate's reason says so).
 * - Comparisons and family pages are written from the store's values by the extractive engine
 *   (answers.ts `answeredFromValues`): no call is made for them.
 * Dropped sentences are counted and logged with what the store's content lacked; never the key.
 */
import type { Logger } from '../../../logger';
import type { ArticleCatalogue, ArticleModel, ArticleModelUsage } from '../../../core/articles/compose';
import { answeredFromValues, writeExtractiveAnswer } from '../../../core/articles/answers';
import { articleMessages, groundedAnswer, parseArticleAnswer } from '../../../core/articles/model-answer';
import type { Question } from '../../../core/articles/questions';
import type { PlatformLimiter } from '../../../ports';
import { createChatClient, type ChatClientOptions } from './chat-client';

export interface ModelArticleWriter extends ArticleModel {
  readonly model: string;
}

export function createModelArticleWriter(options: ChatClientOptions & { log: Logger; limiter?: Pick<PlatformLimiter, 'acquire'> }): ModelArticleWriter {
  const client = createChatClient(options);
  const { log, limiter } = options;
  return {
    model: client.model,
    forBusiness(businessName: string, catalogue: ArticleCatalogue) {
      const usage: ArticleModelUsage = { model: client.model, calls: 0, cost_units: 0, cost_unit: 'tokens', dropped_sentences: 0, fallbacks: 0, fallback_reasons: [] };
      const fallBack = (reason: string) => {
        usage.fallbacks++;
        if (!usage.fallback_reasons.includes(reason) && usage.fallback_reasons.length < 5) usage.fallback_reasons.push(reason);
      };
      const write = async (question: Question) => {
        if (answeredFromValues(question)) return writeExtractiveAnswer(question);
        const slot = limiter ? await limiter.acquire('article_model') : { ok: true as const, release: async () => undefined };
        if (!slot.ok) {
          fallBack(slot.reason);
          return writeExtractiveAnswer(question);
        }
        let reply;
        try {
          usage.calls++;
          reply = await client.call(`article: ${question.key}`, articleMessages(question, businessName), (c) => parseArticleAnswer(c, businessName), undefined, (tokens) => { usage.cost_units += tokens; });
        } finally {
          await slot.release();
        }
        if (!reply.ok) {
          fallBack(reply.error);
          log.warn('article model call failed; the extractive answer is used', { question: question.key, reason: reply.error, model: client.model, host: client.host });
          return writeExtractiveAnswer(question);
        }
        const grounded = groundedAnswer(question, reply.value, businessName, catalogue.sheets);
        usage.dropped_sentences += grounded.dropped.length;
        if (grounded.dropped.length) {
          log.info('article sentences not supported by the store were dropped', { question: question.key, dropped: grounded.dropped.length, missing: grounded.dropped.flatMap((d) => d.missing).slice(0, 10) });
        }
        return grounded.answer;
      };
      return { write, usage: () => ({ ...usage, fallback_reasons: [...usage.fallback_reasons] }) };
    },
  };
}
