/**
 * The edge-function rollout as deployed (issue 15): the workflow file (publish, batches of 10
 * with a Wait read from the input between them, a response stored either way), the task
 * permissions (publish on the edge function only, distribution updates with any of its
 * versions), the routes' workflow grants, the customer distributions' standard logging, and
 * cdk-nag with the edge function configured.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskStates } from '../../functions/local/runtime/workflow-runner';
import { STATE_MACHINES_DIR } from '../../lib/paths';
import { CDN_TASK, EDGE_MOVE_TASKS, EDGE_PUBLISH_TASKS } from '../../lib/stacks/workflow-stack';
import { asArray, buildTestService, type CfnResource, ofType, roleOf, statementsOfRole } from './helpers';

const VERSION_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router:7';
const FUNCTION_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router';
const EDGE_CONTEXT = { 'ai-visibility:edgeFunctionVersionArn': VERSION_ARN };

describe('edge-rollout.asl.json', () => {
  const definition = JSON.parse(readFileSync(join(STATE_MACHINES_DIR, 'edge-rollout.asl.json'), 'utf8'));
  const s = definition.States;

  test('plan (publish when changed), then batches in a loop: move, count, a Wait from the input between batches, then the response', () => {
    expect(definition.StartAt).toBe('PlanEdgeRollout');
    expect(s.PlanEdgeRollout).toMatchObject({ Parameters: { Payload: { 'execution_id.$': '$$.Execution.Name' } }, OutputPath: '$.rollout', Next: 'AnyBatch' });
    expect(s.AnyBatch).toEqual(expect.objectContaining({ Type: 'Choice', Choices: [{ Variable: '$.batch_count', NumericGreaterThan: 0, Next: 'MoveEdgeBatch' }], Default: 'FinishEdgeRollout' }));
    expect(s.MoveEdgeBatch).toMatchObject({ Parameters: { Payload: { 'execution_id.$': '$.execution_id', 'batch.$': '$.batch' } }, ResultPath: null, Next: 'CountBatch' });
    expect(s.CountBatch.Parameters['batch.$']).toBe('States.MathAdd($.batch, 1)');
    expect(s.MoreBatches.Choices).toEqual([{ Variable: '$.batch', NumericLessThanPath: '$.batch_count', Next: 'PauseBetweenBatches' }]);
    expect(s.MoreBatches.Default).toBe('FinishEdgeRollout');
    expect(s.PauseBetweenBatches).toMatchObject({ Type: 'Wait', SecondsPath: '$.pause_seconds', Next: 'MoveEdgeBatch' });
    expect(s.FinishEdgeRollout.End).toBe(true);
  });

  test('CountBatch carries every field the later states read', () => {
    const carried = Object.keys(s.CountBatch.Parameters).map((k) => k.replace(/\.\$$/, '')).sort();
    expect(carried).toEqual(['batch', 'batch_count', 'edge_function_arn', 'execution_id', 'pause_seconds', 'published', 'total']);
  });

  test('every task is retried on Lambda service errors only, and a failure stores the error response before failing the execution', () => {
    const tasks = taskStates(s);
    expect([...tasks.values()].map((t) => t.fn).sort()).toEqual(['FinishEdgeRollout', 'MoveEdgeBatch', 'PlanEdgeRollout', 'RecordEdgeRolloutFailure']);
    for (const { retry } of tasks.values()) expect(retry.flatMap((r) => r.ErrorEquals).every((e) => e.startsWith('Lambda.'))).toBe(true);
    for (const name of ['PlanEdgeRollout', 'MoveEdgeBatch', 'FinishEdgeRollout']) {
      expect(s[name].Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'RecordEdgeRolloutFailure' }]);
    }
    expect(s.RecordEdgeRolloutFailure.Next).toBe('RolloutFailed');
    expect(s.RolloutFailed.Type).toBe('Fail');
  });

  test('the task lists of the workflow stack name this file\'s tasks', () => {
    const names = [...taskStates(s).values()].map((t) => t.fn);
    for (const name of [...EDGE_PUBLISH_TASKS, ...EDGE_MOVE_TASKS]) expect(names).toContain(name);
  });
});

describe('deployed with the edge function configured', () => {
  const { stacks } = buildTestService({ realWorkflows: true, context: EDGE_CONTEXT });
  const workflows = Template.fromStack(stacks.workflow);
  const functions = ofType(workflows, 'AWS::Lambda::Function');
  const task = (name: string): CfnResource => {
    const found = Object.values(functions).filter((fn) => fn.Properties!.Description === `Step Functions task ${name}`);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const statementsOf = (fn: CfnResource) => statementsOfRole(workflows, roleOf(fn));
  const resourcesFor = (fn: CfnResource, action: string) => statementsOf(fn).filter((st) => asArray(st.Action).includes(action)).flatMap((st) => asArray(st.Resource));

  test('the state machine is deployed under its fixed name', () => {
    const names = Object.values(ofType(workflows, 'AWS::StepFunctions::StateMachine')).map((sm) => sm.Properties!.StateMachineName);
    expect(names).toContain('ai-visibility-edge-rollout');
  });

  test('PlanEdgeRollout: GetFunction and PublishVersion on the edge function (unversioned and its versions) only, and the setting it derives it from', () => {
    const plan = task('PlanEdgeRollout');
    expect(resourcesFor(plan, 'lambda:PublishVersion')).toEqual([FUNCTION_ARN, `${FUNCTION_ARN}:*`]);
    expect(resourcesFor(plan, 'lambda:GetFunction')).toEqual(expect.arrayContaining([FUNCTION_ARN, `${FUNCTION_ARN}:*`]));
    expect(plan.Properties!.Environment.Variables.EDGE_FUNCTION_VERSION_ARN).toBe(VERSION_ARN);
    expect(statementsOf(plan).flatMap((st) => asArray(st.Action)).some((a) => a.startsWith('cloudfront:'))).toBe(false);
  });

  test('MoveEdgeBatch: reads and updates distributions, and may associate any version of the edge function', () => {
    const move = task('MoveEdgeBatch');
    for (const action of ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution']) {
      expect(JSON.stringify(resourcesFor(move, action))).toContain(':distribution/*');
    }
    expect(resourcesFor(move, 'lambda:EnableReplication*')).toEqual([`${FUNCTION_ARN}:*`]);
    expect(resourcesFor(move, 'lambda:GetFunction')).toEqual([`${FUNCTION_ARN}:*`]);
    expect(resourcesFor(move, 'lambda:PublishVersion')).toEqual([]);
    expect(move.Properties!.Environment.Variables.EDGE_FUNCTION_VERSION_ARN).toBe(VERSION_ARN);
  });

  test('no other task may publish; the tasks that attach the edge function may associate any of its versions', () => {
    for (const [, fn] of Object.entries(functions)) {
      const name = String(fn.Properties!.Description).replace('Step Functions task ', '');
      if (!EDGE_PUBLISH_TASKS.includes(name)) expect({ name, publish: resourcesFor(fn, 'lambda:PublishVersion') }).toEqual({ name, publish: [] });
    }
    for (const name of [CDN_TASK, 'ConnectDomain', 'UpgradeCertificate']) {
      expect(resourcesFor(task(name), 'lambda:EnableReplication*')).toEqual([`${FUNCTION_ARN}:*`]);
    }
  });

  test('the finish and failure tasks need nothing beyond the table and artifacts', () => {
    for (const name of ['FinishEdgeRollout', 'RecordEdgeRolloutFailure']) {
      const actions = statementsOf(task(name)).flatMap((st) => asArray(st.Action));
      expect(actions.some((a) => a.startsWith('lambda:') || a.startsWith('cloudfront:'))).toBe(false);
    }
  });

  test('the customer distributions log to the access-log bucket: its regional domain reaches the CDN task, with the bucket ACL actions on that bucket only', () => {
    const cdn = task(CDN_TASK);
    expect(JSON.stringify(cdn.Properties!.Environment.Variables.CDN_LOG_BUCKET_DOMAIN)).toMatch(/AccessLogsBucket.*RegionalDomainName/);
    const acl = statementsOf(cdn).filter((st) => asArray(st.Action).includes('s3:PutBucketAcl'));
    expect(acl).toHaveLength(1);
    expect(asArray(acl[0].Action).sort()).toEqual(['s3:GetBucketAcl', 's3:PutBucketAcl']);
    expect(JSON.stringify(acl[0].Resource)).toMatch(/AccessLogsBucket.*Arn/);
    for (const [, fn] of Object.entries(functions)) {
      if (fn === cdn) continue;
      expect(fn.Properties!.Environment.Variables.CDN_LOG_BUCKET_DOMAIN).toBeUndefined();
      expect(resourcesFor(fn, 's3:PutBucketAcl')).toEqual([]);
    }
  });

  test('the routes: the POST may start and read exactly the edge-rollout executions; the GET may only read them', () => {
    const apiTemplates = [...stacks.api.functionStacks.values()].map((n) => Template.fromStack(n));
    const route = (description: string) => apiTemplates
      .flatMap((t) => Object.values(ofType(t, 'AWS::Lambda::Function')).map((fn) => ({ t, fn })))
      .find(({ fn }) => fn.Properties!.Description === description)!;
    const post = route('POST /api/domain/update-edge-function');
    const postStatements = statementsOfRole(post.t, roleOf(post.fn));
    expect(JSON.stringify(post.fn.Properties!.Environment.Variables.EDGE_ROLLOUT_STATE_MACHINE_ARN)).toContain('stateMachine:ai-visibility-edge-rollout');
    expect(JSON.stringify(postStatements.find((st) => asArray(st.Action).includes('states:StartExecution'))!.Resource)).toContain('stateMachine:ai-visibility-edge-rollout');
    expect(JSON.stringify(postStatements.find((st) => asArray(st.Action).includes('states:DescribeExecution'))!.Resource)).toContain('execution:ai-visibility-edge-rollout:*');
    const get = route('GET /api/domain/update-edge-function/{execution_id}');
    const getStatements = statementsOfRole(get.t, roleOf(get.fn));
    expect(getStatements.some((st) => asArray(st.Action).includes('states:StartExecution'))).toBe(false);
    expect(JSON.stringify(getStatements.find((st) => asArray(st.Action).includes('states:DescribeExecution'))!.Resource)).toContain('execution:ai-visibility-edge-rollout:*');
    for (const { t, fn } of [post, get]) {
      const actions = statementsOfRole(t, roleOf(fn)).flatMap((st) => asArray(st.Action));
      expect(actions.some((a) => a.startsWith('lambda:') || a.startsWith('cloudfront:'))).toBe(false);
    }
  });

  test('cdk-nag: every finding fixed or acknowledged with the edge function configured', () => {
    const { app } = buildTestService({ realWorkflows: true, nag: true, context: EDGE_CONTEXT });
    expect(() => app.synth()).not.toThrow();
    const violations = new AwsSolutionsChecks().validateScope(app).violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
    expect(violations).toEqual([]);
  });
});

describe('without the edge function', () => {
  test('the rollout tasks get no Lambda or CloudFront permission (they report the CDN as not configured)', () => {
    const template = Template.fromStack(buildTestService({ realWorkflows: true }).stacks.workflow);
    for (const fn of Object.values(ofType(template, 'AWS::Lambda::Function'))) {
      if (!/Step Functions task (PlanEdgeRollout|MoveEdgeBatch)$/.test(String(fn.Properties!.Description))) continue;
      const actions = statementsOfRole(template, roleOf(fn)).flatMap((st) => asArray(st.Action));
      expect(actions.some((a) => a.startsWith('lambda:') || a.startsWith('cloudfront:'))).toBe(false);
      expect(fn.Properties!.Environment.Variables.EDGE_FUNCTION_VERSION_ARN).toBeUndefined();
    }
  });

  test('a setting that is not a numbered us-east-1 version fails synth, naming it', () => {
    expect(() => buildTestService({ realWorkflows: true, context: { 'ai-visibility:edgeFunctionVersionArn': 'arn:aws:lambda:us-east-1:123456789012:function:router' } }))
      .toThrow(/edgeFunctionVersionArn must be a numbered Lambda version/);
  });
});
