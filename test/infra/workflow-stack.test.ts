import { Match, Template } from 'aws-cdk-lib/assertions';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { STATE_MACHINES_DIR } from '../../lib/paths';
import { DAILY_SCHEDULE, TASK_MEMORY_MB } from '../../lib/stacks/workflow-stack';
import { loadAslFiles } from '../../lib/workflows/asl';
import { asArray, buildTestService, FIXTURE_TASKS, ofType, type Resources, roleOf, statementsOfRole } from './helpers';

describe('workflow stack with the fixture state machines', () => {
  let template: Template;
  let functions: Resources;
  let machines: Resources;

  beforeAll(() => {
    template = Template.fromStack(buildTestService().stacks.workflow);
    functions = ofType(template, 'AWS::Lambda::Function');
    machines = ofType(template, 'AWS::StepFunctions::StateMachine');
  });

  const functionByTask = (name: string): string => {
    const ids = Object.entries(functions).filter(([, f]) => f.Properties!.Description === `Step Functions task ${name}`).map(([id]) => id);
    expect(ids).toHaveLength(1);
    return ids[0];
  };

  test('one state machine per ASL file, loaded from the file (S3 asset)', () => {
    expect(Object.keys(machines).sort()).toEqual([expect.stringMatching(/^DailySchedule/), expect.stringMatching(/^Onboarding/)]);
    for (const sm of Object.values(machines)) {
      expect(sm.Properties!.DefinitionS3Location).toBeDefined();
      expect(sm.Properties!.LoggingConfiguration.Level).toBe('ALL');
      expect(sm.Properties!.TracingConfiguration).toEqual({ Enabled: true });
    }
  });

  test('one task function per distinct placeholder, shared between workflows', () => {
    expect(Object.keys(functions)).toHaveLength(5);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
    }
  });

  test('each placeholder is substituted with the ARN of its own task function', () => {
    const expected: Record<string, string[]> = {
      DailySchedule: ['CollectPrompts', 'DeploySite', 'DetectChanges', 'ListActiveCustomers'],
      Onboarding: ['CollectPrompts', 'SubmitIndexNow'],
    };
    for (const [id, sm] of Object.entries(machines)) {
      const names = expected[Object.keys(expected).find((k) => id.startsWith(k))!];
      expect(sm.Properties!.DefinitionSubstitutions).toEqual(Object.fromEntries(
        names.map((n) => [`${n}FunctionArn`, { 'Fn::GetAtt': [functionByTask(n), 'Arn'] }]),
      ));
      // grantInvoke: the state machine's role may invoke exactly these functions.
      const invoked = statementsOfRole(template, sm.Properties!.RoleArn['Fn::GetAtt'][0])
        .filter((st) => asArray(st.Action).includes('lambda:InvokeFunction'))
        .flatMap((st) => asArray(st.Resource as object))
        .map((r) => JSON.stringify(r));
      for (const n of names) expect(invoked).toContain(JSON.stringify({ 'Fn::GetAtt': [functionByTask(n), 'Arn'] }));
    }
  });

  test('the Distributed Map workflow may start and watch its own child executions', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyName: Match.stringLikeRegexp('DistributedMapPolicy'),
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'states:StartExecution' })]) },
    });
  });

  test('task functions write the table and the sites bucket (site files and step artifacts), and switch releases', () => {
    for (const [id, fn] of Object.entries(functions)) {
      const actions = statementsOfRole(template, roleOf(fn)).flatMap((st) => asArray(st.Action));
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query', 's3:PutObject', 'cloudfront-keyvaluestore:PutKey']));
      expect({ id, bucket: 'SITES_BUCKET' in fn.Properties!.Environment.Variables }).toEqual({ id, bucket: true });
      expect(actions.some((a) => a.startsWith('cloudfront:'))).toBe(false);
    }
  });

  test('task functions get the memory the 5,000-page site steps need', () => {
    for (const fn of Object.values(functions)) expect(fn.Properties!.MemorySize).toBe(TASK_MEMORY_MB);
  });

  test('state machines have fixed names, so routes can address them without a cross-stack reference', () => {
    const names = Object.values(ofType(template, 'AWS::StepFunctions::StateMachine')).map((sm) => sm.Properties!.StateMachineName);
    expect(names.every((n) => /^ai-visibility-[a-z-]+$/.test(n))).toBe(true);
  });

  test(`EventBridge starts ${DAILY_SCHEDULE} at 14:00 UTC every day`, () => {
    const rules = Object.values(ofType(template, 'AWS::Events::Rule'));
    expect(rules).toHaveLength(1);
    expect(rules[0].Properties).toMatchObject({
      ScheduleExpression: 'cron(0 14 * * ? *)',
      Targets: [{ Arn: { Ref: expect.stringMatching(/^DailySchedule/) } }],
    });
  });
});

describe('workflow stack edge cases', () => {
  const tmp = (files: Record<string, string>): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sm-'));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  };
  const task = (name: string) => JSON.stringify({
    StartAt: 'A', States: { A: { Type: 'Task', Resource: 'arn:aws:states:::lambda:invoke', Parameters: { FunctionName: `\${${name}}` }, End: true } },
  });

  test('no ASL files: no state machine, no rule, still a deployable template', () => {
    const template = Template.fromStack(buildTestService({ stateMachinesDir: tmp({}) }).stacks.workflow);
    template.resourceCountIs('AWS::StepFunctions::StateMachine', 0);
    template.resourceCountIs('AWS::Events::Rule', 0);
    expect(Object.keys(template.toJSON().Resources)).toHaveLength(1);
  });

  test('without daily-schedule there is no daily rule', () => {
    const template = Template.fromStack(buildTestService({ stateMachinesDir: tmp({ 'other.asl.json': task('CollectPromptsFunctionArn') }) }).stacks.workflow);
    template.resourceCountIs('AWS::StepFunctions::StateMachine', 1);
    template.resourceCountIs('AWS::Events::Rule', 0);
  });

  test('a placeholder that is not <Name>FunctionArn fails synth', () => {
    expect(() => buildTestService({ stateMachinesDir: tmp({ 'x.asl.json': task('TableName') }) })).toThrow(/\$\{TableName\}/);
  });

  test('a placeholder without its task module fails synth, naming the file', () => {
    expect(() => buildTestService({ stateMachinesDir: tmp({ 'x.asl.json': task('NoSuchTaskFunctionArn') }), tasksDir: FIXTURE_TASKS }))
      .toThrow(/no-such-task\.ts does not exist/);
  });

  test('the real state-machines/ directory synthesizes', () => {
    const { stacks } = buildTestService({ realWorkflows: true });
    const template = Template.fromStack(stacks.workflow);
    template.resourceCountIs('AWS::StepFunctions::StateMachine', loadAslFiles(STATE_MACHINES_DIR).length);
  });
});

describe('the domain-connection tasks (issue 13)', () => {
  test('the certificate, switch and upgrade tasks may use the ACME account-key secret, the certificate manager and update distributions; other tasks may not', () => {
    const template = Template.fromStack(buildTestService({ realWorkflows: true }).stacks.workflow);
    const functions = ofType(template, 'AWS::Lambda::Function');
    const domainTask = /^(StartCertificate|CompleteCertificate|ConnectDomain|UpgradeCertificate)Task/;
    const actionsOf = (match: (id: string) => boolean) => Object.entries(functions).filter(([id]) => match(id))
      .map(([, fn]) => statementsOfRole(template, roleOf(fn)).flatMap((st) => asArray(st.Action)));
    const domain = actionsOf((id) => domainTask.test(id));
    expect(domain).toHaveLength(4);
    for (const actions of domain) {
      expect(actions).toEqual(expect.arrayContaining([
        'secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'acm:ImportCertificate', 'acm:RequestCertificate', 'acm:DescribeCertificate',
        'cloudfront:UpdateDistribution', 'cloudfront:GetDistributionConfig',
      ]));
    }
    const others = actionsOf((id) => !domainTask.test(id));
    expect(others.length).toBeGreaterThan(10);
    for (const actions of others) {
      expect(actions).not.toContain('acm:ImportCertificate');
      expect(actions).not.toContain('acm:RequestCertificate');
    }
  });
  test('with the delegated-challenge zone set (D203), the certificate tasks alone may write TXT records under it and read changes', () => {
    const context = { 'ai-visibility:acmeDnsZoneId': 'Z0ACMEZONE000001', 'ai-visibility:acmeDnsZoneName': 'acme.example.com' };
    const template = Template.fromStack(buildTestService({ realWorkflows: true, context }).stacks.workflow);
    const functions = ofType(template, 'AWS::Lambda::Function');
    const route53 = (id: string) => statementsOfRole(template, roleOf(functions[id])).filter((st) => asArray(st.Action).some((a) => String(a).startsWith('route53:')));
    const certificateTasks = Object.keys(functions).filter((id) => /^(StartCertificate|CompleteCertificate)Task/.test(id));
    expect(certificateTasks).toHaveLength(2);
    for (const id of certificateTasks) {
      expect(route53(id)).toEqual([
        {
          Effect: 'Allow', Action: 'route53:ChangeResourceRecordSets', Resource: 'arn:aws:route53:::hostedzone/Z0ACMEZONE000001',
          Condition: {
            'ForAllValues:StringEquals': { 'route53:ChangeResourceRecordSetsRecordTypes': ['TXT'], 'route53:ChangeResourceRecordSetsActions': ['UPSERT', 'DELETE'] },
            'ForAllValues:StringLike': { 'route53:ChangeResourceRecordSetsNormalizedRecordNames': ['*.acme.example.com'] },
          },
        },
        { Effect: 'Allow', Action: 'route53:GetChange', Resource: 'arn:aws:route53:::change/*' },
      ]);
      expect(functions[id].Properties!.Environment.Variables).toMatchObject({ ACME_DNS_ZONE_ID: 'Z0ACMEZONE000001', ACME_DNS_ZONE_NAME: 'acme.example.com' });
    }
    for (const id of Object.keys(functions).filter((i) => !certificateTasks.includes(i))) expect({ id, route53: route53(id) }).toEqual({ id, route53: [] });
    // Without the setting no task may touch Route 53.
    const plain = Template.fromStack(buildTestService({ realWorkflows: true }).stacks.workflow);
    for (const fn of Object.values(ofType(plain, 'AWS::Lambda::Function'))) {
      expect(statementsOfRole(plain, roleOf(fn)).flatMap((st) => asArray(st.Action)).filter((a) => String(a).startsWith('route53:'))).toEqual([]);
    }
  });
});
