import { upgradeToNativeCertificate } from '../app/domain/native-certificate';
import { readyContainer } from '../container';
import { cdnOf } from '../engines/cdn';
import { lambdaTask } from '../invocation';

/**
 * domain-connect: one look at the native certificate; issued → attached to the distribution
 * (`certificate_type` NATIVE). The workflow repeats it while it is pending. Safe to repeat.
 */
export const handler = lambdaTask(async (event: { org_slug: string; look: number }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const outcome = await upgradeToNativeCertificate(container, cdnOf(container).gateway, event.org_slug);
  return { org_slug: event.org_slug, look: event.look, ...outcome };
});
