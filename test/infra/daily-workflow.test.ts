/**
 * The real daily-schedule state machine as the CDK app deploys it: valid JSONPath ASL, a
 * Distributed Map per page of businesses whose every step catches its failures, the
 * EventBridge rule at 14:00 UTC, and the routes that start and read it granted exactly that.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { taskStates } from '../../functions/local/workflow-runner';
import { STATE_MACHINES_DIR } from '../../lib/paths';
import { asArray, buildTestService, ofType, roleOf, statementsOfRole } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const aslValidator = require('asl-validator') as (definition: unknown) => { isValid: boolean; errorsText: (sep?: string) => string };

const text = readFileSync(join(STATE_MACHINES_DIR, 'daily-schedule.asl.json'), 'utf8');
const definition = JSON.parse(text);

describe('daily-schedule.asl.json', () => {
  test('is valid ASL in JSONPath, without the Distributed Map extras the local engine ignores', () => {
    const result = aslValidator(definition);
    expect({ valid: result.isValid, errors: result.errorsText() }).toEqual({ valid: true, errors: '' });
    expect(text).not.toMatch(/"(QueryLanguage|Arguments|Output|Assign|ItemReader|ItemBatcher|ResultWriter|ToleratedFailure\w*)"/);
  });

  test('fans out one page at a time, with a Distributed Map per page, and loops on the cursor', () => {
    const map = definition.States.ProcessBusinesses;
    expect(map).toMatchObject({ Type: 'Map', ItemsPath: '$.page.items', ResultPath: null, ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' } } });
    expect(definition.States.MorePages.Choices[0]).toMatchObject({ Variable: '$.page.next_cursor', Next: 'NextPage' });
    expect(definition.States.NextPage.Next).toBe('ListDailyBusinesses');
  });

  test('per business: 1a in parallel with 1b, then one merged deploy, the edge wait only after a deploy', () => {
    const states = definition.States.ProcessBusinesses.ItemProcessor.States;
    expect(states.DailyBatch1.Branches.map((b: { StartAt: string }) => b.StartAt)).toEqual(['DetectChanges', 'DiscoverNewProducts']);
    const chain = [];
    for (let s = states.DailyBatch1.Branches[1].States.DiscoverNewProducts; s; s = states.DailyBatch1.Branches[1].States[s.Next]) chain.push(s.Parameters.FunctionName);
    expect(chain).toEqual(['${DiscoverNewProductsFunctionArn}', '${GenerateProductPromptsFunctionArn}', '${GenerateProductLlmsTxtFunctionArn}', '${CommitProductSnapshotFunctionArn}']);
    expect(states.DailyBatch1.Next).toBe('UpdateAiSite');
    expect(states.DeployedToday.Choices[0]).toMatchObject({ Variable: '$.deploy.deployed', BooleanEquals: true, Next: 'WaitForEdgePropagation' });
    expect(states.WaitForEdgePropagation).toMatchObject({ Type: 'Wait', SecondsPath: '$.edge_wait_seconds' });
  });

  test('after the merged deploy and the edge wait: 2a (plan, articles, one publish), 2b, and batch 3 last, after every deploy', () => {
    const states = definition.States.ProcessBusinesses.ItemProcessor.States;
    expect(states.DeployedToday.Default).toBe('PlanArticles');
    expect(states.WaitForEdgePropagation.Next).toBe('PlanArticles');
    const chain: string[] = [];
    for (let name: string | undefined = 'PlanArticles'; name; name = states[name].Next) chain.push(name);
    expect(chain).toEqual(['PlanArticles', 'CreateArticles', 'PublishArticlesAndTimestamps', 'AnalyzeVisibility', 'NotifySearchEngines', 'FinishBusinessRun']);
    expect(states.CreateArticles).toMatchObject({ Type: 'Map', ItemsPath: '$.articles.items', ItemProcessor: { StartAt: 'CreateArticleBatch' } });
  });

  test('no state of a business can fail the fan-out: every task catches, retries with jitter and times out', () => {
    const states = definition.States.ProcessBusinesses.ItemProcessor.States;
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
  const { stacks } = buildTestService({ realWorkflows: true });
  const workflows = Template.fromStack(stacks.workflow);
  const apiTemplates = [...stacks.api.functionStacks.values()].map((n) => Template.fromStack(n));
  const routeFunction = (description: string) => apiTemplates
    .flatMap((t) => Object.entries(ofType(t, 'AWS::Lambda::Function')).map(([id, fn]) => ({ t, id, fn })))
    .find(({ fn }) => fn.Properties!.Description === description)!;

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
