/**
 * Shared set-up of the CDK assertion tests: the real app (lib/app.ts) with cdk.json's
 * context (feature flags and settings, as `cdk synth` sees them) and bundling switched off,
 * so no esbuild run or Docker happens. Workflows come from the fixtures unless a test asks
 * for the real state-machines/ directory.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as path from 'node:path';
import { buildApp, cdkJsonContext, type BuildOptions, type ServiceStacks } from '../../lib/app';
import { enableNag } from '../../lib/nag';

export const FIXTURES = path.join(__dirname, 'fixtures');
export const FIXTURE_STATE_MACHINES = path.join(FIXTURES, 'state-machines');
export const FIXTURE_TASKS = path.join(FIXTURES, 'tasks');

export function testApp(extraContext: Record<string, unknown> = {}): App {
  return new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...extraContext } });
}

export interface TestService {
  app: App;
  stacks: ServiceStacks;
}

export interface TestServiceOptions extends BuildOptions {
  /** Use state-machines/ and functions/tasks/ instead of the fixtures. */
  realWorkflows?: boolean;
  nag?: boolean;
  context?: Record<string, unknown>;
}

export function buildTestService(options: TestServiceOptions = {}): TestService {
  const app = testApp(options.context);
  const stacks = buildApp(app, {
    env: options.env,
    stateMachinesDir: options.realWorkflows ? undefined : options.stateMachinesDir ?? FIXTURE_STATE_MACHINES,
    tasksDir: options.realWorkflows ? undefined : options.tasksDir ?? FIXTURE_TASKS,
  });
  if (options.nag) enableNag(app);
  return { app, stacks };
}

export type CfnResource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
export type Resources = Record<string, CfnResource>;

export function resourcesOf(template: Template): Resources {
  return (template.toJSON().Resources ?? {}) as Resources;
}

export function ofType(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/** IAM policy statements attached to a role (by the role's logical id). */
export function statementsOfRole(template: Template, roleLogicalId: string): { Action: string | string[]; Resource: unknown; Effect: string }[] {
  const out: { Action: string | string[]; Resource: unknown; Effect: string }[] = [];
  for (const policy of Object.values(ofType(template, 'AWS::IAM::Policy'))) {
    const roles = (policy.Properties?.Roles ?? []) as { Ref?: string }[];
    if (!roles.some((r) => r.Ref === roleLogicalId)) continue;
    out.push(...(policy.Properties?.PolicyDocument?.Statement ?? []));
  }
  return out;
}

export const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Logical id of a function's execution role (`Role: {Fn::GetAtt: [id, 'Arn']}`). */
export function roleOf(fn: CfnResource): string {
  return fn.Properties?.Role?.['Fn::GetAtt']?.[0];
}

export function templates(...stacks: Stack[]): Template[] {
  return stacks.map((s) => Template.fromStack(s));
}
