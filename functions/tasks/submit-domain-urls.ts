import { runDomainSubmissions } from '../app/domain/connect';
import { outputOncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { searchNotifyEnginesOf } from '../engines/search-notify';
import { lambdaTask } from '../invocation';

/**
 * domain-connect, after the verification polling: IndexNow with the site's URLs on the
 * customer's domain, and the sitemap to the webmaster console when verified (else skipped).
 */
export const handler = lambdaTask(async (event: { org_slug: string; execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  // A repeated delivery submits nothing a second time (D198).
  return outputOncePerExecution(container, event.execution_id, 'submit-domain-urls', () => runDomainSubmissions(container, searchNotifyEnginesOf(container), event.org_slug));
});
