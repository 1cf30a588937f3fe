/**
 * The daily fan-out's two ends in S3 (issue 47): the day's businesses written as the JSON
 * array the ProcessBusinesses Distributed Map reads with its ItemReader (so the state never
 * holds the fleet's list, at any size), and the Map run's results, written by its
 * ResultWriter, read back at the end to close the businesses of a batch whose child
 * execution failed outright (each business's own failures are caught and recorded inside).
 */
import type { Container } from '../../container';
import { dailyBusinessItems, WORKFLOW_OBJECTS_PREFIX, type DailyBusinessItem } from '../../core/workflows';
import type { WorkflowObjectStore } from '../../ports';
import { createLogger } from '../../logger';
import { finishBusinessRun } from './business-run';
import type { DailyRunState } from './execution';

const log = createLogger({ component: 'daily-business-list' });

/** Businesses read per listing query while the list is written. */
const LISTING_PAGE = 1000;

export interface BusinessListRef { bucket: string; key: string; count: number }

/** Writes the run's business list (all businesses, or the manual run's named ones). A retry rewrites the same key. */
export async function writeDailyBusinessList(container: Container, objects: WorkflowObjectStore, state: DailyRunState): Promise<BusinessListRef> {
  const slugs = state.org_slugs ?? (await allBusinessSlugs(container));
  const key = `${WORKFLOW_OBJECTS_PREFIX}/${state.run_date}/${state.execution_id}/businesses.json`;
  const items = dailyBusinessItems(slugs);
  await objects.putJson(key, items);
  return { bucket: objects.bucket, key, count: items.length };
}

async function allBusinessSlugs(container: Container): Promise<string[]> {
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await container.businessListing.list({ cursor, limit: LISTING_PAGE });
    slugs.push(...page.businesses.map((b) => b.orgSlug));
    cursor = page.nextCursor;
  } while (cursor);
  return slugs;
}

/** What a Distributed Map with a ResultWriter outputs. */
export interface MapRunOutput { MapRunArn?: string; ResultWriterDetails?: { Bucket: string; Key: string } }

interface ResultManifest { ResultFiles?: { FAILED?: Array<{ Key: string }> } }
interface ChildResult { Input?: string; Error?: string; Cause?: string }

/**
 * Closes, as failed with the child execution's error, every business of a failed batch that
 * its child left running. Returns how many it closed. A retry closes none twice (a closed run
 * is not running).
 */
export async function settleFailedBatches(container: Container, objects: WorkflowObjectStore, state: Pick<DailyRunState, 'execution_id' | 'run_date'>, mapRun: MapRunOutput | null | undefined): Promise<number> {
  const details = mapRun?.ResultWriterDetails;
  if (!details) return 0;
  if (details.Bucket !== objects.bucket) throw new Error(`the Map run's results are in bucket ${details.Bucket}, not in ${objects.bucket}`);
  const manifest = await objects.getJson<ResultManifest>(details.Key);
  if (!manifest) throw new Error(`the Map run's result manifest ${details.Key} is missing`);
  let closed = 0;
  for (const file of manifest.ResultFiles?.FAILED ?? []) {
    for (const child of (await objects.getJson<ChildResult[]>(file.Key)) ?? []) {
      const items = (JSON.parse(child.Input ?? '{}') as { Items?: Array<Pick<DailyBusinessItem, 'org_slug'>> }).Items ?? [];
      for (const { org_slug } of items) {
        const run = await container.dailyRuns.getBusinessRun(state.execution_id, org_slug);
        if (run?.status !== 'running') continue;
        await finishBusinessRun(container, { org_slug, run_date: state.run_date, execution_id: state.execution_id, error: { Error: child.Error ?? 'ChildExecutionFailed', Cause: child.Cause ?? '' } });
        closed += 1;
      }
    }
  }
  if (closed > 0) log.warn('closed the businesses of failed batches', { execution_id: state.execution_id, closed });
  return closed;
}
