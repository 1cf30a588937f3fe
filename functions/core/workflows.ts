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

/**
 * Where in the sites bucket the workflows keep what a Distributed Map reads and writes: the
 * daily run's business list (its ItemReader) and the Map run's results (its ResultWriter,
 * `Prefix` in the ASL). The state machine's role may read and write under it and nowhere else.
 */
export const WORKFLOW_OBJECTS_PREFIX = 'daily-runs';
