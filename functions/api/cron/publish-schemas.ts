/**
 * Success contracts of the site-publish routes (D20, D149): deploy-site and
 * update-all-timestamps answer their release once it is live (with the execution's id), or
 * the running 202; `GET <path>/{execution_id}` reads the same back.
 */
import * as z from 'zod/mini';
import { runningResponse, workflowResponse } from '../../http/workflow-http';

/** deploy-site: the files deployed in one release with the generated home, sitemap and robots.txt. */
const deployed = z.object({
  status: z.literal('success'),
  operation: z.literal('deploy-site'),
  business_id: z.string(),
  deployment_url: z.string(),
  release_id: z.string(),
  files_deployed: z.number().check(z.describe('files in the release (the generated parts included)')),
  deployed_at: z.string(),
  execution_id: z.string(),
}).check(z.meta({ id: 'SiteDeployment' }));

/** update-all-timestamps: every stored part published again with today's `Last checked` (D112). */
const refreshed = z.object({
  status: z.literal('success'),
  operation: z.literal('update-all-timestamps'),
  business_id: z.string(),
  release_id: z.string(),
  files: z.number().check(z.describe('files in the release')),
  refreshed_at: z.string(),
  execution_id: z.string(),
}).check(z.meta({ id: 'TimestampRefresh' }));

export const deploySiteResponse = workflowResponse(deployed);
export const updateTimestampsResponse = workflowResponse(refreshed);
/** The read-back serves both operations' paths (each reads only its own executions). */
export const sitePublishStatusResponse = z.union([deployed, refreshed, runningResponse]);
