/** Data grants shared by the API and workflow stacks. */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { ApiFunction } from './constructs/api-function';
import { acknowledgeBucketObjectAccess } from './nag';

/** Where AI-site releases live on AWS: the bucket, and the edge's slug → release store. */
export interface SiteFiles {
  bucket: s3.IBucket;
  releases: cloudfront.IKeyValueStore;
}

/**
 * Read, write and delete AI-site files, list the bucket and switch releases in the
 * KeyValueStore; sets the settings the site store reads (SITES_BUCKET, SITES_KVS_ARN).
 * Explicit actions instead of grantReadWrite's `s3:GetObject*`/`s3:DeleteObject*` wildcards.
 */
export function grantSiteFiles(fn: ApiFunction, site: SiteFiles): void {
  const { bucket } = site;
  fn.addEnvironment('SITES_BUCKET', bucket.bucketName);
  fn.addEnvironment('SITES_KVS_ARN', site.releases.keyValueStoreArn);
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:PutKey'],
    resources: [site.releases.keyValueStoreArn],
  }));
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
