/**
 * The real daily-schedule state machine as the CDK app deploys it: valid JSONPath ASL, one
 * Distributed Map over the day's business list in S3 (ItemReader, ItemBatcher, ResultWriter,
 * the same fields CDK's DistributedMap construct renders) whose every step catches its failures, batch 2
 * as one Parallel (2a beside 2b) in the file and in the asset CDK uploads, the
 * EventBridge rule at 14:00 UTC, and the routes that start and read it granted exactly that.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { WORKFLOW_OBJECTS_PREFIX } from '../../functions/core/workflows';
import { taskStates } from '../../functions/local/runtime/workflow-runner';
import { STATE_MACHINES_DIR } from '../../lib/paths';
import { asArray, buildTestService, ofType, roleOf, statementsOfRole } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { StateMachine } = require('aws-local-stepfunctions') as typeof import('aws-local-stepfunctions');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const aslValidator = require('asl-validator') as (definition: unknown) => { isValid: boolean; errorsText: (sep?: string) => string };

const text = readFileSync(join(STATE_MACHINES_DIR, 'daily-schedule.asl.json'), 'utf8');
const definition = JSON.parse(text);
/** One business's day: inside each batch's child execution, the ProcessBatch Map's item processor. */
const perBusiness = (def: typeof definition) => def.States.ProcessBusinesses.ItemProcessor.States.ProcessBatch.ItemProcessor;

describe('daily-schedule.asl.json', () => {
  test('is valid ASL in JSONPath', () => {
    const result = aslValidator(definition);
    expect({ valid: result.isValid, errors: result.errorsText() }).toEqual({ valid: true, errors: '' });
    expect(text).not.toMatch(/"(QueryLanguage|Arguments|Output|Assign)"/);
  });

  test('fans out with one Distributed Map: the day\'s list read from S3, batches of businesses per child execution, results written to S3 (issue 47)', () => {
    expect(definition.States.WriteDailyBusinessList).toMatchObject({ ResultPath: '$.business_list', Next: 'ProcessBusinesses' });
    const map = definition.States.ProcessBusinesses;
    expect(map).toMatchObject({
      Type: 'Map',
      ItemReader: { Resource: 'arn:aws:states:::s3:getObject', ReaderConfig: { InputType: 'JSON' }, Parameters: { 'Bucket.$': '$.business_list.bucket', 'Key.$': '$.business_list.key' } },
      ItemBatcher: { BatchInput: { 'run_date.$': '$.run_date', 'execution_id.$': '$.execution_id', 'edge_wait_seconds.$': '$.edge_wait_seconds' } },
      ResultWriter: { Resource: 'arn:aws:states:::s3:putObject', Parameters: { 'Bucket.$': '$.business_list.bucket' } },
      ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'ProcessBatch' },
      // Only where the results are comes back, never the children's outputs.
      ResultPath: '$.map_run',
      Next: 'ListPendingVisibilityBatches',
    });
    expect(map.ItemsPath).toBeUndefined();
    expect(map.ResultWriter.Parameters.Prefix.startsWith(`${WORKFLOW_OBJECTS_PREFIX}/`)).toBe(true);
    expect(map.MaxConcurrency).toBeGreaterThanOrEqual(1);
    expect(map.ToleratedFailurePercentage).toBeGreaterThan(0);
    // A child runs its whole batch at once, each business with the run's ids.
    const batch = map.ItemProcessor.States.ProcessBatch;
    expect(batch).toMatchObject({ Type: 'Map', ItemsPath: '$.Items', MaxConcurrency: map.ItemBatcher.MaxItemsPerBatch, ResultPath: null, Next: 'SubmitVisibilityBatches' });
    expect(batch.ItemSelector).toEqual({ 'org_slug.$': '$$.Map.Item.Value.org_slug', 'run_date.$': '$.BatchInput.run_date', 'execution_id.$': '$.BatchInput.execution_id', 'edge_wait_seconds.$': '$.BatchInput.edge_wait_seconds' });
    expect(definition.States.FinishDailyRun.Parameters.Payload).toEqual({ 'execution_id.$': '$.execution_id', 'run_date.$': '$.run_date', 'map_run.$': '$.map_run' });
    for (const gone of ['ListDailyBusinesses', 'MorePages', 'NextPage']) expect(definition.States[gone]).toBeUndefined();
    // Each child submits its businesses' queued checks as vendor batches once they are done.
    expect(map.ItemProcessor.States.ProcessBatch.Next).toBe('SubmitVisibilityBatches');
    expect(map.ItemProcessor.States.SubmitVisibilityBatches).toMatchObject({ End: true, Catch: [{ ErrorEquals: ['States.ALL'], Next: 'VisibilityBatchesNotSubmitted' }] });
  });

  test('then collects the vendor batches until none is open: list, wait, a Distributed Map over the waiting businesses, list again (issue 47)', () => {
    const s = definition.States;
    expect(s.ListPendingVisibilityBatches).toMatchObject({ ResultPath: '$.pending_batches', Next: 'VisibilityBatchesPending' });
    expect(s.VisibilityBatchesPending).toMatchObject({ Choices: [{ Variable: '$.pending_batches.count', NumericGreaterThan: 0, Next: 'WaitForVisibilityBatches' }], Default: 'FinishDailyRun' });
    expect(s.WaitForVisibilityBatches).toMatchObject({ Type: 'Wait', SecondsPath: '$.batch_poll_seconds', Next: 'CollectVisibilityBatches' });
    expect(s.CollectVisibilityBatches).toMatchObject({
      Type: 'Map',
      ItemReader: { Parameters: { 'Bucket.$': '$.pending_batches.bucket', 'Key.$': '$.pending_batches.key' } },
      ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED' }, StartAt: 'CollectBatchResults' },
      ResultWriter: { Resource: 'arn:aws:states:::s3:putObject' },
      ResultPath: null,
      Next: 'ListPendingVisibilityBatches',
    });
    expect(s.CollectVisibilityBatches.ResultWriter.Parameters.Prefix.startsWith(`${WORKFLOW_OBJECTS_PREFIX}/`)).toBe(true);
  });

  test('its S3 fields are the ones CDK\'s DistributedMap construct renders for the same settings', () => {
    const map = definition.States.ProcessBusinesses;
    const app = new App({ context: { '@aws-cdk/aws-stepfunctions:useDistributedMapResultWriterV2': true } });
    const stack = new Stack(app, 'Render');
    const path = (p: string) => sfn.JsonPath.stringAt(p);
    const cdkMap = new sfn.DistributedMap(stack, 'ProcessBusinesses', {
      itemReader: new sfn.S3JsonItemReader({ bucketNamePath: path(map.ItemReader.Parameters['Bucket.$']), key: path(map.ItemReader.Parameters['Key.$']) }),
      itemBatcher: new sfn.ItemBatcher({ maxItemsPerBatch: map.ItemBatcher.MaxItemsPerBatch, batchInput: map.ItemBatcher.BatchInput }),
      resultWriterV2: new sfn.ResultWriterV2({ bucketNamePath: path(map.ResultWriter.Parameters['Bucket.$']), prefix: map.ResultWriter.Parameters.Prefix }),
      maxConcurrency: map.MaxConcurrency,
      toleratedFailurePercentage: map.ToleratedFailurePercentage,
      mapExecutionType: sfn.StateMachineType.STANDARD,
      resultPath: map.ResultPath,
    });
    cdkMap.itemProcessor(new sfn.Pass(stack, 'Child'));
    const rendered = JSON.parse(JSON.stringify(stack.resolve(cdkMap.toStateJson())).replace(/\{"Fn::Join":\["",\["arn:",\{"Ref":"AWS::Partition"\},":(states:::s3:\w+)"\]\]\}/g, '"arn:aws:$1"'));
    for (const field of ['ItemReader', 'ItemBatcher', 'ResultWriter', 'MaxConcurrency', 'ToleratedFailurePercentage', 'ResultPath']) {
      expect({ field, value: map[field] }).toEqual({ field, value: rendered[field] });
    }
    expect(rendered.ItemProcessor.ProcessorConfig).toEqual(map.ItemProcessor.ProcessorConfig);
  });

  test('per business: 1a in parallel with 1b, then one merged deploy, the edge wait only after a deploy', () => {
    const states = perBusiness(definition).States;
    expect(states.DailyBatch1.Branches.map((b: { StartAt: string }) => b.StartAt)).toEqual(['DetectChanges', 'DiscoverNewProducts']);
    const chain = [];
    for (let s = states.DailyBatch1.Branches[1].States.DiscoverNewProducts; s; s = states.DailyBatch1.Branches[1].States[s.Next]) chain.push(s.Parameters.FunctionName);
    expect(chain).toEqual(['${DiscoverNewProductsFunctionArn}', '${GenerateProductPromptsFunctionArn}', '${GenerateProductLlmsTxtFunctionArn}', '${CommitProductSnapshotFunctionArn}']);
    expect(states.DailyBatch1.Next).toBe('UpdateAiSite');
    expect(states.DeployedToday.Choices[0]).toMatchObject({ Variable: '$.deploy.deployed', BooleanEquals: true, Next: 'WaitForEdgePropagation' });
    expect(states.WaitForEdgePropagation).toMatchObject({ Type: 'Wait', SecondsPath: '$.edge_wait_seconds' });
  });

  test('after the merged deploy and the edge wait: batch 2 as one Parallel, 2a (plan, articles, one publish, then batch 3) beside 2b', () => {
    const states = perBusiness(definition).States;
    expect(states.DeployedToday.Default).toBe('DailyBatch2');
    expect(states.WaitForEdgePropagation.Next).toBe('DailyBatch2');
    const batch2 = states.DailyBatch2;
    expect(batch2).toMatchObject({ Type: 'Parallel', Next: 'FinishBusinessRun', ResultPath: null, Catch: [{ ErrorEquals: ['States.ALL'], Next: 'RecordBusinessFailure' }] });
    expect(batch2.Branches.map((b: { StartAt: string }) => b.StartAt)).toEqual(['PlanArticles', 'AnalyzeVisibility']);
    // Only the business's ids go in (the article plan stays inside its branch); nothing comes back.
    expect(batch2.Parameters).toEqual({ 'org_slug.$': '$.org_slug', 'run_date.$': '$.run_date', 'execution_id.$': '$.execution_id' });
    for (const name of ['PlanArticles', 'CreateArticles', 'PublishArticlesAndTimestamps', 'AnalyzeVisibility', 'NotifySearchEngines']) expect(states[name]).toBeUndefined();

    const [a, b] = batch2.Branches.map((br: { States: Record<string, any> }) => br.States);
    const chain: string[] = [];
    for (let name: string | undefined = 'PlanArticles'; name; name = a[name].Next) chain.push(name);
    // Batch 3 ends branch 2a: after every deploy of the day (2b deploys nothing), never waiting for the platforms.
    expect(chain).toEqual(['PlanArticles', 'CreateArticles', 'PublishArticlesAndTimestamps', 'NotifySearchEngines']);
    expect(a.NotifySearchEngines.End).toBe(true);
    expect(a.PlanArticles.ResultPath).toBe('$.articles');
    expect(a.CreateArticles).toMatchObject({ Type: 'Map', ItemsPath: '$.articles.items', ItemProcessor: { StartAt: 'CreateArticleBatch' } });
    // A failing 2a step (it recorded its reason as step 2a) still lets batch 3 announce batch 1's deploy.
    for (const name of ['PlanArticles', 'CreateArticles', 'PublishArticlesAndTimestamps']) {
      expect(a[name].Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'NotifySearchEngines' }]);
    }
    expect(a.NotifySearchEngines.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'SearchNotificationFailed' }]);
    expect(Object.keys(b)).toEqual(['AnalyzeVisibility', 'VisibilityAnalysisFailed']);
    expect(b.AnalyzeVisibility).toMatchObject({ End: true, Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'VisibilityAnalysisFailed' }] });
    for (const pass of [a.SearchNotificationFailed, b.VisibilityAnalysisFailed]) expect(pass).toMatchObject({ Type: 'Pass', End: true });
    expect(states.FinishBusinessRun.Parameters.Payload).toEqual({ 'org_slug.$': '$.org_slug', 'run_date.$': '$.run_date', 'execution_id.$': '$.execution_id' });
  });

  test('in the engine: 2a and 2b run at once, batch 3 does not wait for 2b, and a failure in one branch never stops the other', async () => {
    const item = perBusiness(definition);
    const runBusiness = async (failing: string | null) => {
      const events: string[] = [];
      const task = (name: string, payload: object = {}) => async (): Promise<any> => {
        events.push(`start ${name}`);
        // A slow platform: 2b answers only once batch 3 is done (or after 2 s, when something waits for it).
        for (let waited = 0; name === 'AnalyzeVisibility' && !events.includes('end NotifySearchEngines') && waited < 2000; waited += 5) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, 5));
        events.push(`end ${name}`);
        if (name === failing) throw Object.assign(new Error(`${name} broke`), { name: 'Broken' });
        return { Payload: payload };
      };
      const handlers: Record<string, ReturnType<typeof task>> = Object.fromEntries([...taskStates(item.States).keys()].map((name) => [name, task(name)]));
      handlers.StartBusinessRun = task('StartBusinessRun', { run: 'go', reason: null });
      handlers.UpdateAiSite = task('UpdateAiSite', { deployed: false });
      handlers.PlanArticles = task('PlanArticles', { items: [{ org_slug: 'acme', product_id: null, count: 2 }] });
      const machine = new StateMachine({ StartAt: item.StartAt, States: item.States }, { validationOptions: { checkPaths: true, checkArn: false } });
      const started = Date.now();
      const output = await machine.run({ org_slug: 'acme', run_date: '2026-03-02', execution_id: 'e1', edge_wait_seconds: 0 }, { overrides: { taskResourceLocalHandlers: handlers } }).result;
      return { events, output, waitedForTimeout: Date.now() - started >= 2000 };
    };

    const ok = await runBusiness(null);
    const at = (e: string) => ok.events.indexOf(e);
    expect(at('start AnalyzeVisibility')).toBeLessThan(at('end PlanArticles'));
    expect(at('end PublishArticlesAndTimestamps')).toBeLessThan(at('end AnalyzeVisibility'));
    expect(at('end NotifySearchEngines')).toBeLessThan(at('end AnalyzeVisibility'));
    expect(at('start FinishBusinessRun')).toBeGreaterThan(at('end AnalyzeVisibility'));
    expect(ok.waitedForTimeout).toBe(false);
    expect(ok.output).not.toHaveProperty('articles');

    // A failed plan ends 2a's articles only: batch 3 still runs, 2b goes on, the business is finished (not recorded as a failure).
    const planFailed = await runBusiness('PlanArticles');
    expect(planFailed.events).not.toContain('start PublishArticlesAndTimestamps');
    expect(planFailed.events).toEqual(expect.arrayContaining(['end NotifySearchEngines', 'end AnalyzeVisibility', 'start FinishBusinessRun']));
    expect(planFailed.events).not.toContain('start RecordBusinessFailure');

    // 2b failing (it recorded its reason as its step) ends 2b only: 2a publishes, batch 3 runs.
    const visibilityFailed = await runBusiness('AnalyzeVisibility');
    expect(visibilityFailed.events).toEqual(expect.arrayContaining(['end PublishArticlesAndTimestamps', 'end NotifySearchEngines', 'start FinishBusinessRun']));
    expect(visibilityFailed.events).not.toContain('start RecordBusinessFailure');
  });

  test('no state of a business can fail the fan-out: every task catches, retries with jitter and times out', () => {
    const states = perBusiness(definition).States;
    const walk = (all: Record<string, any>): void => {
      for (const [name, st] of Object.entries(all)) {
        if (st.Type === 'Task' || st.Type === 'Parallel') expect({ name, caught: st.Catch?.[0]?.ErrorEquals }).toEqual({ name, caught: ['States.ALL'] });
        if (st.Type === 'Task') expect({ name, timeout: st.TimeoutSeconds }).toEqual({ name, timeout: 330 });
        for (const b of st.Branches ?? []) walk(b.States);
      }
    };
    walk(states);
    expect(Object.values(states).some((s: any) => s.Type === 'Fail')).toBe(false);
    for (const [name, { retry }] of taskStates(definition.States)) {
      expect({ name, jitter: retry.some((r) => (r as { JitterStrategy?: string }).JitterStrategy === 'FULL') }).toEqual({ name, jitter: true });
    }
  });
});

describe('the deployed daily schedule (CDK)', () => {
  const { app, stacks } = buildTestService({ realWorkflows: true });
  const workflows = Template.fromStack(stacks.workflow);
  const apiTemplates = [...stacks.api.functionStacks.values()].map((n) => Template.fromStack(n));
  const routeFunction = (description: string) => apiTemplates
    .flatMap((t) => Object.entries(ofType(t, 'AWS::Lambda::Function')).map(([id, fn]) => ({ t, id, fn })))
    .find(({ fn }) => fn.Properties!.Description === description)!;

  test('the deployed definition (the S3 asset CDK uploads, DefinitionBody.fromFile) has batch 2 as one Parallel: 2a beside 2b', () => {
    const [sm] = Object.values(ofType(workflows, 'AWS::StepFunctions::StateMachine')).filter((r) => r.Properties!.StateMachineName === 'ai-visibility-daily-schedule');
    // Not a DefinitionString: the file goes up as an asset, and the template points at its key.
    expect(sm.Properties!.DefinitionString).toBeUndefined();
    const { Key } = sm.Properties!.DefinitionS3Location as { Key: string };
    const assembly = app.synth();
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${stacks.workflow.artifactId}.assets.json`), 'utf8')) as
      { files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }> };
    const asset = Object.values(manifest.files).find((f) => Object.values(f.destinations).some((d) => d.objectKey === Key))!;
    const deployed = JSON.parse(readFileSync(join(assembly.directory, asset.source.path), 'utf8'));
    const states = perBusiness(deployed).States;
    expect(states.DailyBatch2).toMatchObject({ Type: 'Parallel', ResultPath: null, Next: 'FinishBusinessRun' });
    expect(states.DailyBatch2.Branches.map((b: { StartAt: string; States: object }) => [b.StartAt, Object.keys(b.States)])).toEqual([
      ['PlanArticles', ['PlanArticles', 'CreateArticles', 'PublishArticlesAndTimestamps', 'NotifySearchEngines', 'SearchNotificationFailed']],
      ['AnalyzeVisibility', ['AnalyzeVisibility', 'VisibilityAnalysisFailed']],
    ]);
    expect(states.DeployedToday.Default).toBe('DailyBatch2');
    // The placeholders inside the branches are substituted like any other.
    const substitutions = sm.Properties!.DefinitionSubstitutions as Record<string, unknown>;
    for (const name of ['PlanArticles', 'CreateArticleBatch', 'PublishArticlesAndTimestamps', 'AnalyzeVisibility', 'NotifySearchEngines']) expect(substitutions).toHaveProperty(`${name}FunctionArn`);
  });

  test('its role may read the day\'s list and write the Map run\'s results under the workflow-objects prefix only (ItemReader, ResultWriter)', () => {
    const [[, sm]] = Object.entries(ofType(workflows, 'AWS::StepFunctions::StateMachine')).filter(([, r]) => r.Properties!.StateMachineName === 'ai-visibility-daily-schedule');
    const statements = statementsOfRole(workflows, sm.Properties!.RoleArn['Fn::GetAtt'][0]);
    const s3Statements = statements.filter((st) => asArray(st.Action).some((a) => a.startsWith('s3:')));
    expect(s3Statements.flatMap((st) => asArray(st.Action)).sort()).toEqual(['s3:AbortMultipartUpload', 's3:GetObject', 's3:ListMultipartUploadParts', 's3:PutObject']);
    for (const st of s3Statements) expect(JSON.stringify(st.Resource)).toMatch(new RegExp(`/${WORKFLOW_OBJECTS_PREFIX}/\\*"`));
  });

  test('the state machine exists and the 14:00 UTC rule starts it', () => {
    const machines = Object.values(ofType(workflows, 'AWS::StepFunctions::StateMachine')).map((r) => r.Properties!.StateMachineName);
    expect(machines).toContain('ai-visibility-daily-schedule');
    const rules = Object.values(ofType(workflows, 'AWS::Events::Rule'));
    expect(rules.map((r) => r.Properties!.ScheduleExpression)).toEqual(['cron(0 14 * * ? *)']);
  });

  test.each(['POST /api/cron/trigger-all', 'POST /api/cron/detect-changes', 'POST /api/cron/update-ai-site'])('%s may start exactly the daily schedule (a valid variable name)', (route) => {
    const { t, fn } = routeFunction(route);
    const variables = fn.Properties!.Environment.Variables;
    expect(JSON.stringify(variables.DAILY_SCHEDULE_STATE_MACHINE_ARN)).toContain('stateMachine:ai-visibility-daily-schedule');
    expect(Object.keys(variables).every((name) => /^[A-Za-z][A-Za-z0-9_]*$/.test(name))).toBe(true);
    const statements = statementsOfRole(t, roleOf(fn));
    const start = statements.find((st) => asArray(st.Action).includes('states:StartExecution'));
    expect(JSON.stringify(start!.Resource)).toContain('stateMachine:ai-visibility-daily-schedule');
  });

  test('the status route may describe the executions of that one state machine', () => {
    const { t, fn } = routeFunction('GET /api/cron/trigger-all/{execution_id}');
    const statements = statementsOfRole(t, roleOf(fn));
    const describe = statements.find((st) => asArray(st.Action).includes('states:DescribeExecution'));
    expect(JSON.stringify(describe!.Resource)).toContain('execution:ai-visibility-daily-schedule:*');
    expect(statements.some((st) => asArray(st.Action).includes('states:StartExecution'))).toBe(false);
  });
});
