/**
 * The publish a site-publish execution runs (app/site/publish-run.ts starts it): deploy-site's
 * files as their part, or update-all-timestamps' refresh of every part; each one atomic
 * release of the stored parts, so a retry publishes the same thing again.
 */
import { AppError } from '../../core/errors';
import type { Container } from '../../container';
import { createLogger } from '../../logger';
import type { DeployRequest } from './deploy';
import type { SitePublishBody, SitePublishInput } from './publish-run';
import { deployFilesAsPart, publishSiteParts } from './parts';

const log = createLogger({ component: 'site-publish' });

/**
 * The publish itself (the site-publish task): the operation's response, or its failure as a
 * response (an AppError's status; anything else a logged 500). Safe to repeat: a publish is
 * one atomic release of the stored parts.
 */
export async function runSitePublish(container: Container, input: SitePublishInput): Promise<{ httpStatus: number; body: SitePublishBody }> {
  const orgSlug = input.org_slug;
  try {
    if (input.operation === 'update-all-timestamps') {
      const release = await publishSiteParts(container, orgSlug);
      return { httpStatus: 200, body: { status: 'success', operation: input.operation, business_id: orgSlug, release_id: release.releaseId, files: release.fileCount, refreshed_at: release.deployedAt } };
    }
    const request = input.request_key ? await container.artifacts.get<DeployRequest>(input.request_key) : null;
    if (!request) return { httpStatus: 500, body: { status: 'error', operation: input.operation, business_id: orgSlug, error: 'the deploy request\'s files are gone (its artifact is missing)' } };
    const result = await deployFilesAsPart(container, request);
    return {
      httpStatus: 200,
      body: { status: 'success', operation: input.operation, business_id: orgSlug, deployment_url: result.deploymentUrl, release_id: result.releaseId, files_deployed: result.fileCount, deployed_at: result.deployedAt },
    };
  } catch (err) {
    if (err instanceof AppError) return { httpStatus: err.status, body: { status: 'error', operation: input.operation, business_id: orgSlug, error: err.message } };
    const message = err instanceof Error ? err.message : String(err);
    log.error(`${input.operation} failed`, { org_slug: orgSlug, error: message });
    return { httpStatus: 500, body: { status: 'error', operation: input.operation, business_id: orgSlug, error: `${input.operation} failed: ${message}` } };
  }
}

