/**
 * cdk-nag v3 wiring, shared by bin/app.ts and test/infra. Findings are fixed where the
 * construct allows it; the rest are acknowledged next to the construct that causes them
 * (Validations.of(construct).acknowledge), each with its reason. Two helpers here handle
 * findings whose id embeds a CloudFormation reference that only exists once the app is
 * prepared (e.g. the table ARN seen from a nested stack is a parameter Ref).
 */
import { type App, type IResolvable, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference';
import type { IConstruct } from 'constructs';

/** Registers the AWS Solutions rule pack: a finding that is neither fixed nor acknowledged fails synth. */
export function enableNag(app: App): AwsSolutionsChecks {
  const pack = new AwsSolutionsChecks(app);
  Validations.of(app).addPlugins(pack);
  return pack;
}

/**
 * Acknowledges `AwsSolutions-IAM5[Resource::<ref><suffix>]` on `scope`, where `<ref>` is
 * how `token` (an ARN attribute) appears in scope's template. The id can only be computed
 * after cross-stack references are resolved, so it is added from a construct validation,
 * which CDK runs after preparing the app and before the validation plugins.
 */
export function acknowledgeWildcardUnder(scope: IConstruct, token: string, suffix: string, reason: string): void {
  scope.node.addValidation({
    validate: () => {
      const resolved = Stack.of(scope).resolve(token) as string | IResolvable;
      Validations.of(scope).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(resolved)}${suffix}]`,
        reason,
      });
      return [];
    },
  });
}

/**
 * Acknowledges the IAM5 findings of the IAM policies under `scope` whose flattened
 * wildcard resource satisfies `match` (for ARNs CDK assembles itself, such as the
 * execution ARNs of grantExecution), with the same post-preparation timing as above.
 */
export function acknowledgeWildcardResources(scope: IConstruct, match: (resource: string) => boolean, reason: string): void {
  scope.node.addValidation({
    validate: () => {
      for (const node of scope.node.findAll()) {
        if (!(node instanceof iam.CfnPolicy)) continue;
        const doc = Stack.of(node).resolve(node.policyDocument) as { Statement?: { Resource?: unknown }[] };
        for (const statement of doc.Statement ?? []) {
          const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
          for (const resource of resources) {
            if (resource === undefined) continue;
            const flat = flattenCfnReference(resource as string);
            if (flat.includes('*') && match(flat)) {
              Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[Resource::${flat}]`, reason });
            }
          }
        }
      }
      return [];
    },
  });
}

/** grantReadData / grantReadWriteData on a TableV2 includes `<table arn>/index/*`. */
export function acknowledgeTableIndexAccess(scope: IConstruct, table: dynamodb.ITableV2): void {
  acknowledgeWildcardUnder(scope, table.tableArn, '/index/*',
    'Queries on the table\'s own GSIs (TABLE_SCHEMA: GSI1, GSI2); the wildcard is limited to this table\'s indexes.');
}

/** Object-level access to the AI-site bucket is `<bucket arn>/*`: sites are keyed by business. */
export function acknowledgeBucketObjectAccess(scope: IConstruct, bucket: s3.IBucket): void {
  acknowledgeWildcardUnder(scope, bucket.bucketArn, '/*',
    'AI-site writers publish files for any business (keys are per business slug); the wildcard is limited to objects of the AI-site bucket.');
}
