/**
 * Builds the whole CDK app: used by bin/app.ts and by test/infra, so both synthesize the
 * same stacks with the same settings.
 */
import type { App, Environment } from 'aws-cdk-lib';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from './paths';
import { settingsFromContext, type AppSettings } from './settings';
import { ApiStack } from './stacks/api-stack';
import { DataStack } from './stacks/data-stack';
import { EDGE_REGION, EdgeStack } from './stacks/edge-stack';
import { WorkflowStack } from './stacks/workflow-stack';

export const STACK_PREFIX = 'AiVisibility';

export interface ServiceStacks {
  settings: AppSettings;
  data: DataStack;
  api: ApiStack;
  workflow: WorkflowStack;
  edge: EdgeStack;
}

export interface BuildOptions {
  /** Account/region of the regional stacks; env-agnostic when undefined. */
  env?: Environment;
  /** Overrides for tests (fixtures instead of state-machines/ and functions/tasks/). */
  stateMachinesDir?: string;
  tasksDir?: string;
}

/** Environment from CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION, when the CLI provides them. */
export function envFromProcess(vars: NodeJS.ProcessEnv = process.env): Environment | undefined {
  const account = vars.CDK_DEFAULT_ACCOUNT || undefined;
  const region = vars.CDK_DEFAULT_REGION || undefined;
  return account || region ? { account, region } : undefined;
}

/** The `context` block of cdk.json (feature flags and settings), for apps built outside the CLI. */
export function cdkJsonContext(): Record<string, unknown> {
  const file = path.join(PROJECT_ROOT, 'cdk.json');
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { context?: Record<string, unknown> };
  return json.context ?? {};
}

export function buildApp(app: App, options: BuildOptions = {}): ServiceStacks {
  const settings = settingsFromContext(app.node);
  const env = options.env;
  const data = new DataStack(app, `${STACK_PREFIX}Data`, {
    env,
    settings,
    description: 'AI visibility service: table, AI-site bucket and its CloudFront host',
  });
  // What the API and the workflows both get from the data stack.
  const shared = { env, settings, table: data.table, siteFiles: { bucket: data.siteBucket, releases: data.siteReleases }, secrets: data.secrets };
  const api = new ApiStack(app, `${STACK_PREFIX}Api`, {
    ...shared,
    description: 'AI visibility service: REST API, one Lambda per route',
  });
  const workflow = new WorkflowStack(app, `${STACK_PREFIX}Workflows`, {
    ...shared,
    logsBucket: data.logsBucket,
    stateMachinesDir: options.stateMachinesDir,
    tasksDir: options.tasksDir,
    description: 'AI visibility service: state machines (state-machines/*.asl.json) and the daily trigger',
  });
  const edge = new EdgeStack(app, `${STACK_PREFIX}Edge`, {
    env: { account: env?.account, region: EDGE_REGION },
    description: 'AI visibility service: Lambda@Edge origin-request router (us-east-1)',
  });
  return { settings, data, api, workflow, edge };
}
