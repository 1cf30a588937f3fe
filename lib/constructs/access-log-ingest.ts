/**
 * Server-side AI visits on AWS: the CloudFront standard logs of the AI-site distribution and
 * of the customer distributions land in the access-log bucket under `cloudfront/`; every new
 * log file (S3 ObjectCreated) invokes functions/tasks/ingest-access-logs.ts, which classifies
 * each request and writes the AI-crawler visits to the table (the same dedupe key as the
 * beacon, so a visit seen by both counts once).
 *
 * The function reads only objects under the log prefix and writes only the visit items of
 * organizations' partitions (plus reads of the business and distribution lookups). It must
 * live in the stack of the bucket (a bucket notification to a function of another stack
 * would make the two stacks reference each other).
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import * as path from 'node:path';
import { ApiFunction } from './api-function';
import { acknowledgeTableIndexAccess, acknowledgeWildcardUnder } from '../nag';
import { FUNCTIONS_DIR } from '../paths';

/** Where CloudFront standard logs go in the access-log bucket (the AI-site distribution uses `cloudfront/site/`). */
export const CLOUDFRONT_LOG_PREFIX = 'cloudfront/';

/** The construct id aws-cdk-lib gives its per-stack bucket-notification custom resource. */
const BUCKET_NOTIFICATIONS_HANDLER = 'BucketNotificationsHandler050a0587b7544547bf325f094a3db834';

export interface AccessLogIngestProps {
  logsBucket: s3.IBucket;
  table: dynamodb.ITableV2;
  /** The Lambda environment (commonEnvironment: TABLE_NAME, AI_SITE_DOMAIN, LOG_LEVEL, ...). */
  environment: Record<string, string>;
  /** Key prefix of the log files; default `cloudfront/`. */
  prefix?: string;
}

export class AccessLogIngest extends Construct {
  readonly function: ApiFunction;

  constructor(scope: Construct, id: string, props: AccessLogIngestProps) {
    super(scope, id);
    const prefix = props.prefix ?? CLOUDFRONT_LOG_PREFIX;
    this.function = new ApiFunction(this, 'Function', {
      entry: path.join(FUNCTIONS_DIR, 'tasks', 'ingest-access-logs.ts'),
      description: 'CloudFront access logs -> AI-crawler visits (AI recommendations, source server)',
      // A log file holds up to a few hundred thousand lines; writes run 8 at a time.
      timeoutSeconds: 300,
      memorySize: 512,
      environment: props.environment,
    });
    props.logsBucket.grantRead(this.function, `${prefix}*`);
    props.table.grantReadWriteData(this.function);
    props.logsBucket.addEventNotification(
      s3.EventType.OBJECT_CREATED,
      new s3n.LambdaDestination(this.function),
      { prefix },
    );
    // CDK's own singleton that writes the bucket's notification configuration (one per stack).
    const notificationsHandler = Stack.of(this).node.tryFindChild(BUCKET_NOTIFICATIONS_HANDLER);
    if (notificationsHandler) {
      Validations.of(notificationsHandler).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'CDK\'s BucketNotificationsHandler (a deploy-time custom resource that only writes this bucket\'s notification configuration) is built with the basic execution policy; its role is not configurable.',
      });
      Validations.of(notificationsHandler).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'CDK\'s BucketNotificationsHandler is granted s3:PutBucketNotification on * by aws-cdk-lib; it runs only at deploy time.',
      });
      Validations.of(notificationsHandler).acknowledge({
        id: 'AwsSolutions-L1',
        reason: 'CDK\'s BucketNotificationsHandler runtime is chosen by aws-cdk-lib and updated with it.',
      });
    }
    acknowledgeTableIndexAccess(this.function.serviceRole, props.table);
    acknowledgeWildcardUnder(this.function.serviceRole, props.logsBucket.bucketArn, `/${prefix}*`,
      'Every log file under the CloudFront log prefix of the access-log bucket: CloudFront names the files.');
    for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*']) {
      Validations.of(this.function.serviceRole).acknowledge({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: 'grantRead of the log prefix of the access-log bucket only: the ingest reads the files CloudFront delivers there.',
      });
    }
    // Keep the retry window short enough that a failing file does not pile up invocations.
    this.function.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6) });
  }
}
