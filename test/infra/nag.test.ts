import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildTestService } from './helpers';

function violations(app: App): string[] {
  return new AwsSolutionsChecks().validateScope(app).violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
}

describe('cdk-nag (AwsSolutions)', () => {
  test('the real app synthesizes with every finding fixed or acknowledged', () => {
    const { app } = buildTestService({ realWorkflows: true, nag: true });
    expect(() => app.synth()).not.toThrow();
    expect(violations(app)).toEqual([]);
  });

  test('so does the real app with the delegated-challenge zone (D203: Route 53 grants on the certificate tasks)', () => {
    const { app } = buildTestService({ realWorkflows: true, nag: true, context: { 'ai-visibility:acmeDnsZoneId': 'Z0ACMEZONE000001', 'ai-visibility:acmeDnsZoneName': 'acme.example.com' } });
    expect(() => app.synth()).not.toThrow();
    expect(violations(app)).toEqual([]);
  });

  test('so does the app with the fixture workflows (task Lambdas, Distributed Map, schedule)', () => {
    const { app } = buildTestService({ nag: true });
    expect(() => app.synth()).not.toThrow();
    expect(violations(app)).toEqual([]);
  });

  test('the gate is real: an unacknowledged finding fails synth', () => {
    const { app, stacks } = buildTestService({ nag: true });
    new s3.Bucket(stacks.data, 'Careless');
    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  });

  test('every acknowledgement carries a reason', () => {
    const { app } = buildTestService({ realWorkflows: true, nag: true });
    app.synth();
    const reasons: string[] = [];
    for (const c of app.node.findAll()) {
      for (const entry of c.node.metadata) {
        if (entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY) reasons.push(...Object.values(entry.data as Record<string, string>));
      }
    }
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason.length).toBeGreaterThan(30);
    expect(Stack.isStack(app.node.findChild('AiVisibilityApi'))).toBe(true);
  });
});
