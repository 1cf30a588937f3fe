/** The response contract of the prompt-regeneration routes and their read-back (its own module: the read-back needs no request schema). */
import * as z from 'zod/mini';
import { workflowResponse } from '../../http/workflow-http';

/**
 * The spec's regenerate-prompts response once the execution finished: `success` (prompts
 * saved) or `skipped` with the reason (nothing new to save); a failure is an error answer
 * (`status: 'error'`, counts 0). Or the running 202. Both POST routes and their read-back.
 */
export const regenerateResponse = workflowResponse(z.object({
  status: z.enum(['success', 'skipped']),
  prompts_generated: z.number(),
  prompts_saved: z.number(),
  skipped_reason: z.optional(z.string()).check(z.describe('why nothing new was saved (status skipped)')),
  pages_scraped: z.number().check(z.describe('pages of the given URL that were scraped (the evidence)')),
  execution_id: z.string(),
}).check(z.meta({ id: 'PromptRegeneration' })));
