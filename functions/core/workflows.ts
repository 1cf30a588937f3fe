/**
 * The service's workflows: one ASL file each under state-machines/ (D3), deployed as
 * `ai-visibility-<name>` and run unchanged by the local runtime.
 */
export const WORKFLOWS = ['onboarding', 'daily-schedule', 'visibility-analysis', 'domain-connect', 'edge-rollout', 'regenerate-prompts', 'start-certificate', 'complete-certificate', 'domain-disconnect', 'site-publish'] as const;
export type WorkflowName = (typeof WORKFLOWS)[number];

/**
 * The environment variable that carries a workflow's state machine ARN to the Lambdas that
 * start or read it: `daily-schedule` → `DAILY_SCHEDULE_STATE_MACHINE_ARN` (a hyphen is not
 * valid in a Lambda environment variable name).
 */
export function stateMachineArnVariable(workflow: WorkflowName): string {
  return `${workflow.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_STATE_MACHINE_ARN`;
}

/**
 * Memory of a workflow task's Lambda (the CDK sets it, lib/stacks/workflow-stack.ts). The
 * local runtime gives each task worker the heap Lambda's Node runtime gives such a function
 * (about 90% of it for the old generation), so a task that would run out of memory on AWS
 * runs out locally too. Site steps on a 5,000-page store once held the scraped pages and
 * ~15,000 generated files at once; more memory also buys Lambda CPU.
 */
export const TASK_MEMORY_MB = 2048;
/** A task Lambda's timeout (its state's TimeoutSeconds is 330): past it the invocation is ended, as Lambda ends it. */
export const TASK_TIMEOUT_SECONDS = 300;

/**
 * Where in the sites bucket the workflows keep what a Distributed Map reads and writes: the
 * daily run's business list (its ItemReader) and the Map run's results (its ResultWriter,
 * `Prefix` in the ASL). The state machine's role may read and write under it and nowhere else.
 */
export const WORKFLOW_OBJECTS_PREFIX = 'daily-runs';

/**
 * Businesses per shard of the daily list (D222): the batch platforms' checks of a shard go to
 * each vendor as one job once all its businesses are done, whichever Map children ran them.
 * 100 businesses × the day's 10 prompts = 1,000 requests: one job item's MAX_JOB_CHECKS, and one
 * batch per vendor (Gemini's as a JSONL input file, D223). Fewer, larger jobs matter because
 * Gemini runs at most 100 batch jobs at once: 500 jobs a platform at 50,000 businesses.
 */
export const BATCH_SHARD_BUSINESSES = 100;

/** One item of the daily list: a business, and its shard (`shard_size` businesses in all). */
export interface DailyBusinessItem { org_slug: string; shard: number; shard_size: number }

/** The list's items: shards of BATCH_SHARD_BUSINESSES in list order (the last may be short). */
export function dailyBusinessItems(orgSlugs: readonly string[], shardSize: number = BATCH_SHARD_BUSINESSES): DailyBusinessItem[] {
  return orgSlugs.map((org_slug, i) => {
    const shard = Math.floor(i / shardSize);
    return { org_slug, shard, shard_size: Math.min(shardSize, orgSlugs.length - shard * shardSize) };
  });
}
