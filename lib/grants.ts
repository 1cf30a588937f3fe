/** Data grants shared by the API and workflow stacks. */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { ApiFunction } from './constructs/api-function';
import { acknowledgeBucketObjectAccess } from './nag';

/**
 * Read, write and delete AI-site files, and list the bucket: explicit actions instead of
 * grantReadWrite's `s3:GetObject*`/`s3:DeleteObject*`/`s3:Abort*` wildcards.
 */
export function grantSiteFiles(fn: ApiFunction, bucket: s3.IBucket): void {
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
    resources: [bucket.arnForObjects('*')],
  }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  acknowledgeBucketObjectAccess(fn.serviceRole, bucket);
}

/**
 * The shared rate limiter counts with UpdateItem on `RATE#...` items. A read-only (GET)
 * route that is rate-limited gets exactly that, and nothing else, through the
 * `dynamodb:LeadingKeys` condition.
 */
export function grantRateLimitCounters(fn: ApiFunction, table: dynamodb.ITableV2): void {
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
  }));
}
