/** Where the daily fan-out's business list and the Distributed Map's results live (WorkflowObjectStore). */
import { ProviderNotConfiguredError } from '../core/errors';
import { createFsWorkflowObjects } from '../adapters/local/fs-buckets';
import type { WorkflowObjectStore } from '../ports';
import { perContainer } from './per-container';

export const workflowObjectsOf = perContainer(({ config }): WorkflowObjectStore => {
  if (config.sites.bucket) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createAwsWorkflowObjects } = require('../adapters/aws/site-store-factory') as typeof import('../adapters/aws/site-store-factory');
    return createAwsWorkflowObjects(config);
  }
  if (config.workflowObjectsDir) return createFsWorkflowObjects(config.workflowObjectsDir);
  const missing = async (): Promise<never> => {
    throw new ProviderNotConfiguredError('workflow object storage is not configured (SITES_BUCKET on AWS, WORKFLOW_OBJECTS_DIR locally)');
  };
  return { bucket: '', putJson: missing, getJson: missing };
}, { needsSecrets: false });
