/**
 * The HTTP side of prompt regeneration (spec: regenerate-prompts; `POST /api/cron/generate-prompts`;
 * D20): the request is checked at once (400 invalid input or refused URL, 404 unknown business
 * or product), then the regenerate-prompts workflow is started — mapping and scraping up to
 * 5,000 pages takes far longer than API Gateway's 29 s — and the route waits up to
 * `WORKFLOW_WAIT_MS` for it. Finished: its spec response. Still running: 202 with the
 * execution id and the URL that reads it back.
 *
 * Light on purpose: the route bundles import this module, never the scraper or the prompt
 * engines (those run in the task, app/prompts/regenerate.ts).
 */
import { randomUUID } from 'node:crypto';
import { BUSINESS_PROMPTS, PRODUCT_PROMPTS_REGENERATE } from '../../core/constants';
import { BlockedUrlError, NotFoundError, ValidationError } from '../../core/errors';
import { parseStoreUrl } from '../../core/store/store-url';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import { awaitWorkflowOutcome, workflowAnswer, workflowOutcome, type WorkflowOutcome } from '../workflow-results';
import type { Business } from '../../core/model';

export const REGENERATE_WORKFLOW = 'regenerate-prompts' as const;
/** Largest `prompt_count` one request may ask for. */
export const MAX_PROMPT_COUNT = 500;

/** The spec response, with the execution id and the pages the prompts were written from. */
export interface RegenerateResponse {
  status: 'success' | 'skipped' | 'error';
  prompts_generated: number;
  prompts_saved: number;
  skipped_reason?: string;
  error?: string;
  /** Pages of the given URL that were scraped (the evidence); 0 when it failed before. */
  pages_scraped: number;
  execution_id?: string;
}

/** The execution input (what the task gets, beside `execution_id`). */
export interface RegenerateExecutionInput {
  org_slug: string;
  url: string;
  product_id: string | null;
  product_name: string | null;
  prompt_count: number | null;
  trigger: 'manual' | 'cron';
}

export interface RegenerateRequest {
  orgSlug: string;
  url: string;
  productId?: string | null;
  productName?: string | null;
  count?: number | null;
  trigger: 'manual' | 'cron';
}

/** Counts 0 and the reason: the spec's failure body. */
export function regenerateError(error: string, pagesScraped = 0): RegenerateResponse {
  return { status: 'error', prompts_generated: 0, prompts_saved: 0, error, pages_scraped: pagesScraped };
}

/** The default count of the spec: 50 for the business, 10 for a product. */
export const defaultPromptCount = (productId: string | null | undefined) => (productId ? PRODUCT_PROMPTS_REGENERATE : BUSINESS_PROMPTS);

export function checkPromptCount(count: number | null | undefined): void {
  if (count === null || count === undefined) return;
  if (!Number.isInteger(count) || count < 1 || count > MAX_PROMPT_COUNT) throw new ValidationError(`prompt_count must be an integer from 1 to ${MAX_PROMPT_COUNT}`);
}

/**
 * The URL to scrape, as the fetch policy sees it now (D24): a bare domain gets https, the
 * site is mapped from its origin; a refused address (private, loopback, link-local or
 * metadata, D24) is a 400 naming the field. The guarded client checks every hop again.
 */
export async function checkRegenerateUrl(container: Container, url: string): Promise<string> {
  const parsed = parseStoreUrl(url, 'url');
  try {
    return (await container.checkUrl(parsed.href)).href;
  } catch (err) {
    if (err instanceof BlockedUrlError) throw new BlockedUrlError(`url: ${err.message}`);
    throw err;
  }
}

/**
 * The request's checks, in one place: the count (400), the business and the product (404,
 * before a single page is fetched), the URL (400 for a refused address). The route runs them
 * before it starts anything; the task runs them again on its input, which anyone allowed to
 * start the state machine could have written. Answers the business and the URL to map.
 */
export async function checkRegenerateRequest(
  container: Container, request: Pick<RegenerateRequest, 'orgSlug' | 'url' | 'productId' | 'count'>,
): Promise<{ business: Business; url: string }> {
  checkPromptCount(request.count);
  const business = await requireBusiness(container, request.orgSlug);
  if (request.productId && !(await container.products.find(request.orgSlug, request.productId))) {
    throw new NotFoundError(`product ${request.productId} not found for business ${request.orgSlug}`);
  }
  return { business, url: await checkRegenerateUrl(container, request.url) };
}

/** Checks the request (400/404 before anything starts) and starts the workflow. */
export async function startPromptRegeneration(container: Container, request: RegenerateRequest): Promise<{ executionId: string; input: RegenerateExecutionInput }> {
  const { url } = await checkRegenerateRequest(container, request);
  const input: RegenerateExecutionInput = {
    org_slug: request.orgSlug,
    url,
    product_id: request.productId ?? null,
    product_name: request.productName?.trim() || null,
    prompt_count: request.count ?? null,
    trigger: request.trigger,
  };
  const executionId = randomUUID();
  await container.workflows.start(REGENERATE_WORKFLOW, executionId, { ...input });
  return { executionId, input };
}

export interface RegenerateAnswer {
  statusCode: number;
  body: RegenerateResponse | { status: 'running'; execution_id: string; status_url: string };
}

/** The HTTP answer for an execution's outcome; `statusUrl` is where it is read back. */
function answerOf(outcome: WorkflowOutcome<RegenerateResponse>, executionId: string, statusUrl: string): RegenerateAnswer {
  return workflowAnswer(outcome, { workflow: REGENERATE_WORKFLOW, executionId, statusUrl }, regenerateError) as RegenerateAnswer;
}

/** POST: waits up to `budgetMs` for the execution just started. */
export async function awaitPromptRegeneration(container: Container, executionId: string, statusUrl: string, budgetMs: number): Promise<RegenerateAnswer> {
  const outcome = await awaitWorkflowOutcome<RegenerateResponse>(container, REGENERATE_WORKFLOW, executionId, { budgetMs, started: true });
  return answerOf(outcome, executionId, statusUrl);
}

/** GET `<path>/{execution_id}`: the spec response once finished, 202 while running, 404 when unknown. */
export async function readPromptRegeneration(container: Container, executionId: string, statusUrl: string): Promise<RegenerateAnswer> {
  return answerOf(await workflowOutcome<RegenerateResponse>(container, REGENERATE_WORKFLOW, executionId), executionId, statusUrl);
}
