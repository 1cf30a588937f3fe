/**
 * What the domain routes that run a workflow share (issue 13, D20): the POST starts the
 * operation's workflow and waits up to 20 s (less with `Prefer: respond-async` /
 * `Prefer: wait=<s>`, as the regenerate routes), the GET `<same path>/{execution_id}` reads it back.
 */
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import {
  awaitDomainOperation, readDomainOperation, startDomainOperation,
  type DomainWorkflow,
} from '../../app/domain/operation-run';
import { jwtAuth } from '../../http/auth/jwt';
import { endpoint, parseBody, routeOfEvent } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import type { RouteKey } from '../../routes';
import { executionIdPath, toApiResult, waitBudget, workflowResponse } from '../../http/workflow-http';

/**
 * POST /api/domain/<operation>/{org_id} (JWT, same organization); `finished` is the
 * operation's success body (certificate- or connection-schemas.ts), answered as is or as the running 202; `body`
 * validates a request body when the operation has one, after the organization check (another
 * organization's request is a 403 whatever its body).
 */
export function domainPostHandler(route: RouteKey, workflow: DomainWorkflow, finished: z.ZodMiniType, body?: $ZodType) {
  return endpoint(route, { authenticator: jwtAuth, path: z.object({ org_id: orgSlug }), response: workflowResponse(finished), bodyCheckedByHandler: body }, async ({ path, headers, container, body: raw }) => {
    if (body) parseBody(body, raw);
    const started = await startDomainOperation(container, workflow, path.org_id);
    if ('refused' in started) return toApiResult(started.refused);
    const { budgetMs, applied } = waitBudget(headers);
    const statusUrl = `${route.replace(/^POST /, '').replace('{org_id}', path.org_id)}/${started.executionId}`;
    return toApiResult(await awaitDomainOperation(container, workflow, started.executionId, statusUrl, budgetMs), applied);
  });
}

/** GET /api/domain/<operation>/{org_id}/{execution_id} (JWT, same organization): the POST's answer, read back. */
export function domainStatusHandler(workflow: DomainWorkflow, finished: z.ZodMiniType) {
  return endpoint(routeOfEvent, { authenticator: jwtAuth, path: z.object({ org_id: orgSlug, execution_id: executionIdPath.shape.execution_id }), response: workflowResponse(finished) }, async ({ path, container, route }) => {
    const statusUrl = route.path.replace('{org_id}', path.org_id).replace('{execution_id}', path.execution_id);
    return toApiResult(await readDomainOperation(container, workflow, path.org_id, path.execution_id, statusUrl));
  });
}
