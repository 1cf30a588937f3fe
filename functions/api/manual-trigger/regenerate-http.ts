/** The request contracts of the two prompt-regeneration routes (their wait and answer: http/workflow-http.ts; their response: regenerate-response.ts). */
import * as z from 'zod/mini';
import { MAX_PROMPT_COUNT } from '../../app/prompts/regenerate-run';
import { orgSlug, productRef, requiredText } from '../../http/schemas';

const COUNT_MESSAGE = `must be an integer from 1 to ${MAX_PROMPT_COUNT}`;
/** Omitted or null: the default (50 for the business, 10 for a product). */
const promptCount = z.optional(z.nullable(z.number({ error: COUNT_MESSAGE }).check(
  z.refine((n) => Number.isInteger(n) && n >= 1 && n <= MAX_PROMPT_COUNT, COUNT_MESSAGE),
)));
const productName = z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(500, 'product_name is longer than 500 characters'))));

/** POST /api/manual-trigger/regenerate-prompts (spec). */
export const regenerateRequest = z.strictObject({
  business_id: orgSlug,
  url: requiredText('url', 2048),
  product_id: productRef,
  prompt_count: promptCount,
});

/** POST /api/cron/generate-prompts (spec cron table): one product; `prompt_count` accepted as above (default 10). */
export const generateRequest = z.strictObject({
  business_id: orgSlug,
  url: requiredText('url', 2048),
  product_id: requiredText('product_id', 255),
  product_name: productName,
  prompt_count: promptCount,
});
