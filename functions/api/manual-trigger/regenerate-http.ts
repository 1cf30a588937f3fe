/**
 * What the two prompt-regeneration routes and their read-back share: the request contracts,
 * the wait (D20) and its `Prefer` override, and the answer.
 *
 * The POST waits up to 20 s for its execution (`REGENERATE_WAIT_MS`). A client may ask for
 * less with the standard `Prefer` header (RFC 7240): `Prefer: respond-async` answers 202 at
 * once, `Prefer: wait=5` waits at most 5 s; `Preference-Applied` says which was honoured.
 */
import * as z from 'zod/mini';
import { MAX_PROMPT_COUNT, REGENERATE_WAIT_MS } from '../../app/regenerate-prompts-run';
import type { ApiResult } from '../../http/endpoint';
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

export const executionIdPath = z.object({ execution_id: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/, 'must be an execution id')) });

/** The wait budget of this request: the default, or less when `Prefer` asks for it. */
export function waitBudget(headers: Record<string, string | undefined>): { budgetMs: number; applied: string | null } {
  const prefer = (headers.prefer ?? headers.Prefer ?? '').toLowerCase();
  const tokens = prefer.split(/[,;]/).map((t) => t.trim()).filter(Boolean);
  if (tokens.includes('respond-async')) return { budgetMs: 0, applied: 'respond-async' };
  const wait = tokens.map((t) => /^wait\s*=\s*(\d{1,6})$/.exec(t)).find(Boolean);
  if (wait) {
    const ms = Math.min(Number(wait[1]) * 1000, REGENERATE_WAIT_MS);
    return { budgetMs: ms, applied: `wait=${ms / 1000}` };
  }
  return { budgetMs: REGENERATE_WAIT_MS, applied: null };
}

/** The HTTP result of a D20 answer (any workflow's): 202 carries `Location: <status_url>`. */
export function toApiResult(answer: { statusCode: number; body: object }, applied: string | null = null): ApiResult {
  const statusUrl = (answer.body as { status_url?: unknown }).status_url;
  return {
    statusCode: answer.statusCode,
    body: answer.body,
    headers: {
      ...(applied ? { 'Preference-Applied': applied } : {}),
      ...(answer.statusCode === 202 && typeof statusUrl === 'string' ? { Location: statusUrl } : {}),
    },
  };
}
