/**
 * The real onboarding state machine as the CDK app deploys it, and the same file as the
 * local runtime runs it: JSONPath only, valid ASL, every task placeholder resolved to its
 * own task function, and generate-all allowed to start exactly this state machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { taskStates } from '../../functions/local/runtime/workflow-runner';
import { kebabCase } from '../../lib/workflows/asl';
import { STATE_MACHINES_DIR, TASKS_DIR } from '../../lib/paths';
import { asArray, buildTestService, ofType, roleOf, statementsOfRole } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const aslValidator = require('asl-validator') as (definition: unknown) => { isValid: boolean; errorsText: (sep?: string) => string };

const text = readFileSync(join(STATE_MACHINES_DIR, 'onboarding.asl.json'), 'utf8');
const definition = JSON.parse(text);

describe('onboarding.asl.json', () => {
  test('is valid ASL, in JSONPath (the local engine ignores JSONata and Distributed-Map extras)', () => {
    const result = aslValidator(definition);
    expect({ valid: result.isValid, errors: result.errorsText() }).toEqual({ valid: true, errors: '' });
    expect(text).not.toMatch(/"(QueryLanguage|Arguments|Output|Assign|ItemReader|ItemBatcher|ResultWriter|ToleratedFailure\w*)"/);
  });

  test('runs group 1 in parallel, 2a after 1a, 3a and 3b after 1c, and finishes once', () => {
    const group1 = definition.States.OnboardingGroups;
    expect(group1.Type).toBe('Parallel');
    const starts = group1.Branches.map((b: { StartAt: string }) => b.StartAt);
    expect(starts).toEqual(['ScrapeWebsite', 'DiscoverCompetitors', 'DiscoverProducts', 'FetchFavicon', 'CopyPrepaymentScore', 'CreateCdnDistribution']);
    expect(group1.Branches[0].States.ScrapeWebsite.Next).toBe('CreateAiWebsite');
    expect(group1.Branches[2].States.ProductFollowUps.Branches.map((b: { StartAt: string }) => b.StartAt)).toEqual(['GenerateOnboardingPrompts', 'GenerateProductLlmsFiles']);
    expect(group1.Next).toBe('FinishOnboarding');
  });

  test('every step retries transient errors with jitter and catches the rest in its own branch', () => {
    for (const [name, { retry }] of taskStates(definition.States)) {
      expect({ name, jitter: retry.some((r) => (r as { JitterStrategy?: string }).JitterStrategy === 'FULL') }).toEqual({ name, jitter: true });
    }
    const walk = (states: Record<string, any>): void => {
      for (const [name, st] of Object.entries(states)) {
        if (st.Type === 'Task' && !name.startsWith('Record') && name !== 'FinishOnboarding') {
          expect({ name, catch: st.Catch?.[0]?.Next }).toEqual({ name, catch: `Record${name}Failure` });
          expect(st.Retry.some((r: { ErrorEquals: string[] }) => r.ErrorEquals.includes('UpstreamError'))).toBe(true);
        }
        for (const b of st.Branches ?? []) walk(b.States);
      }
    };
    walk(definition.States);
  });
});

describe('the deployed onboarding state machine (CDK)', () => {
  const { stacks } = buildTestService({ realWorkflows: true });
  const workflows = Template.fromStack(stacks.workflow);
  const [sm] = Object.values(ofType(workflows, 'AWS::StepFunctions::StateMachine')).filter((r) => r.Properties!.StateMachineName === 'ai-visibility-onboarding');

  test('exists, and each placeholder resolves to the ARN of its own task function', () => {
    expect(sm).toBeDefined();
    const substitutions = sm.Properties!.DefinitionSubstitutions as Record<string, { 'Fn::GetAtt': [string, string] }>;
    const placeholders = [...new Set([...taskStates(definition.States).values()].map((t) => `${t.fn}FunctionArn`))].sort();
    expect(Object.keys(substitutions).sort()).toEqual(placeholders);
    const functions = ofType(workflows, 'AWS::Lambda::Function');
    for (const [placeholder, ref] of Object.entries(substitutions)) {
      const fn = functions[ref['Fn::GetAtt'][0]];
      expect({ placeholder, description: fn.Properties!.Description }).toEqual({ placeholder, description: `Step Functions task ${placeholder.replace(/FunctionArn$/, '')}` });
      expect(require('node:fs').existsSync(join(TASKS_DIR, `${kebabCase(placeholder.replace(/FunctionArn$/, ''))}.ts`))).toBe(true);
    }
  });

  test('generate-all may start exactly this state machine, and knows its ARN', () => {
    const api = stacks.api.functionStacks;
    const templatesOfApi = [...api.values()].map((n) => Template.fromStack(n));
    const found = templatesOfApi.flatMap((t) => Object.entries(ofType(t, 'AWS::Lambda::Function')).map(([id, fn]) => ({ t, id, fn })))
      .find(({ fn }) => fn.Properties!.Description === 'POST /api/onboarding/generate-all')!;
    expect(JSON.stringify(found.fn.Properties!.Environment.Variables.ONBOARDING_STATE_MACHINE_ARN)).toContain('stateMachine:ai-visibility-onboarding');
    const actions = statementsOfRole(found.t, roleOf(found.fn)).flatMap((st) => asArray(st.Action));
    expect(actions).toContain('states:StartExecution');
  });

  test('the edge functions (the router and the AI-site resolver) are numbered versions in us-east-1', () => {
    expect(stacks.edge.region).toBe('us-east-1');
    const edge = Template.fromStack(stacks.edge);
    expect(Object.keys(ofType(edge, 'AWS::Lambda::Version')).map((id) => id.replace(/FnCurrentVersion.*$/, '')).sort()).toEqual(['Router', 'SiteResolver']);
  });
});
