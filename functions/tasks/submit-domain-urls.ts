import { runDomainSubmissions } from '../app/domain/connect';
import { readyContainer } from '../container';
import { searchNotifyEnginesOf } from '../engines/search-notify';
import { lambdaTask } from '../invocation';

/**
 * domain-connect, after the verification polling: IndexNow with the site's URLs on the
 * customer's domain, and the sitemap to the webmaster console when verified (else skipped).
 */
export const handler = lambdaTask(async (event: { org_slug: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  return runDomainSubmissions(container, searchNotifyEnginesOf(container), event.org_slug);
});
