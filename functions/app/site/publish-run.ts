/**
 * The AI-site publishes a caller asks for (D20, D149): `POST /api/cron/deploy-site` and
 * `POST /api/cron/update-all-timestamps` publish every part of a site, which on S3 can pass
 * API Gateway's 29 s at 5,000 pages. So each runs as a `site-publish` execution: the route
 * checks the business, stores a deploy's files as an artifact (a workflow input holds at most
 * 256 KB), starts the execution and waits up to 20 s; finished, its response; else 202 with
 * the execution id and `GET <same path>/{execution_id}` to read it back.
 *
 * Light on purpose: the publish itself (the site builder) runs in the task (app/site/publish.ts).
 */
import { randomUUID } from 'node:crypto';
import { artifactPath } from '../../core/artifacts';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import type { DeployRequest } from './deploy';
import { awaitWorkflowOutcome, workflowAnswer, workflowOutcome, type WorkflowOutcome } from '../workflow-results';

export const SITE_PUBLISH_WORKFLOW = 'site-publish' as const;
export type SitePublishOperation = 'deploy-site' | 'update-all-timestamps';

export interface SitePublishInput {
  org_slug: string;
  operation: SitePublishOperation;
  /** deploy-site: the artifact holding the request's files (null otherwise: a state machine path must exist). */
  request_key: string | null;
}

export type SitePublishBody = { status: 'success' | 'error'; [field: string]: unknown };

export interface SitePublishAnswer {
  statusCode: number;
  body: SitePublishBody | { status: 'running'; execution_id: string; status_url: string };
}

/** Checks the business (404 at once), stores a deploy's files, starts the execution. */
export async function startSitePublish(container: Container, operation: SitePublishOperation, orgSlug: string, request?: DeployRequest): Promise<string> {
  await requireBusiness(container, orgSlug);
  const executionId = randomUUID();
  const input: SitePublishInput = { org_slug: orgSlug, operation, request_key: null };
  if (request) {
    input.request_key = artifactPath(`site-publish-requests/${executionId}`);
    await container.artifacts.put(input.request_key, request);
  }
  await container.workflows.start(SITE_PUBLISH_WORKFLOW, executionId, { ...input });
  return executionId;
}

function answerOf(outcome: WorkflowOutcome<SitePublishBody>, executionId: string, statusUrl: string, operation?: SitePublishOperation): SitePublishAnswer {
  // Each route reads back only its own operation's executions.
  return workflowAnswer(outcome, { workflow: SITE_PUBLISH_WORKFLOW, executionId, statusUrl }, (error) => ({ status: 'error', error }),
    (body) => operation === undefined || body.operation === undefined || body.operation === operation) as SitePublishAnswer;
}

/** POST: waits up to `budgetMs` for the execution just started. */
export async function awaitSitePublish(container: Container, executionId: string, statusUrl: string, budgetMs: number): Promise<SitePublishAnswer> {
  return answerOf(await awaitWorkflowOutcome<SitePublishBody>(container, SITE_PUBLISH_WORKFLOW, executionId, { budgetMs, started: true }), executionId, statusUrl);
}

/** GET `<path>/{execution_id}`: the response once finished, 202 while running, 404 when unknown (or another operation's). */
export async function readSitePublish(container: Container, operation: SitePublishOperation, executionId: string, statusUrl: string): Promise<SitePublishAnswer> {
  return answerOf(await workflowOutcome<SitePublishBody>(container, SITE_PUBLISH_WORKFLOW, executionId), executionId, statusUrl, operation);
}
