/**
 * lib/constructs/access-log-ingest.ts in the data stack (docs/operations.md: Metrics and logs):
 * the ingest Lambda, its least-privilege grants, the bucket notification for new CloudFront
 * log files, and cdk-nag with every finding fixed or acknowledged.
 */
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CLOUDFRONT_LOG_PREFIX } from '../../lib/constructs/access-log-ingest';
import { buildTestService, ofType } from './helpers';

function build() {
  const service = buildTestService({ nag: true });
  return { ...service, ingest: service.stacks.data.accessLogIngest };
}

test('a new log file under cloudfront/ invokes the ingest function', () => {
  const { stacks } = build();
  const template = Template.fromStack(stacks.data);
  template.hasResourceProperties('Custom::S3BucketNotifications', {
    NotificationConfiguration: {
      LambdaFunctionConfigurations: [Match.objectLike({
        Events: ['s3:ObjectCreated:*'],
        Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: CLOUDFRONT_LOG_PREFIX }] } },
      })],
    },
  });
  template.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('CloudFront access logs'),
    Timeout: 300,
    Environment: { Variables: Match.objectLike({ TABLE_NAME: Match.anyValue(), AI_SITE_DOMAIN: Match.anyValue() }) },
  });
  template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { MaximumRetryAttempts: 2 });
});

test('it reads only the log prefix of the access-log bucket', () => {
  const { stacks, ingest } = build();
  const template = Template.fromStack(stacks.data);
  const policies = Object.values(ofType(template, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties!.Roles).includes(Stack.of(ingest).getLogicalId(ingest.function.serviceRole.node.defaultChild as never)));
  const statements = policies.flatMap((p) => (p.Properties!.PolicyDocument as { Statement: Array<{ Action: unknown; Resource: unknown }> }).Statement);
  const s3Statements = statements.filter((s) => JSON.stringify(s.Action).includes('s3:'));
  expect(s3Statements.length).toBeGreaterThan(0);
  for (const s of s3Statements) {
    expect(JSON.stringify(s.Action)).not.toMatch(/s3:(Put|Delete)/);
    const objectResources = [s.Resource].flat().map((r) => JSON.stringify(r)).filter((r) => r.includes('/'));
    for (const r of objectResources) expect(r).toContain(`/${CLOUDFRONT_LOG_PREFIX}*`);
  }
});

test('cdk-nag: every finding fixed or acknowledged', () => {
  const { app } = build();
  expect(() => app.synth()).not.toThrow();
  const violations = new AwsSolutionsChecks().validateScope(app).violations
    .flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
  expect(violations).toEqual([]);
});
