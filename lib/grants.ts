/** Data grants shared by the API and workflow stacks. */
import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { deployedStateMachineName } from './workflows/asl';
import { stateMachineArnVariable, WORKFLOW_OBJECTS_PREFIX, type WorkflowName } from '../functions/core/workflows';
import { unversionedFunctionArn } from '../functions/core/edge/rollout';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { ApiFunction } from './constructs/api-function';
import { acknowledgeBucketObjectAccess, acknowledgeWildcardResources, acknowledgeWildcardUnder } from './nag';

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
 * What Step Functions does in S3 on a Distributed Map's behalf (issue 47): its ItemReader reads
 * the run's item list and its ResultWriter writes the Map run's results (multipart for large
 * ones), all under WORKFLOW_OBJECTS_PREFIX of the sites bucket and nowhere else.
 */
export function grantDistributedMapObjects(policy: iam.Policy, role: iam.IRole, bucket: s3.IBucket): void {
  const objects = bucket.arnForObjects(`${WORKFLOW_OBJECTS_PREFIX}/*`);
  policy.addStatements(
    new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [objects] }),
    new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload'], resources: [objects] }),
  );
  acknowledgeWildcardUnder(role, bucket.bucketArn, `/${WORKFLOW_OBJECTS_PREFIX}/*`,
    'A Distributed Map reads its item list and writes its results under this prefix; object names carry the run date, execution and Map run ids.');
  acknowledgeWildcardUnder(policy, bucket.bucketArn, `/${WORKFLOW_OBJECTS_PREFIX}/*`,
    'A Distributed Map reads its item list and writes its results under this prefix; object names carry the run date, execution and Map run ids.');
}

/**
 * Reading the AI-site record's lists kept in the artifact store behind a pointer (D39: a
 * 20,000-product snapshot): GetObject on that prefix only, and the bucket setting the artifact
 * store reads. Every route that reads the table may read the record.
 */
export function grantAiSiteFieldReads(fn: ApiFunction, site: SiteFiles): void {
  fn.addEnvironment('SITES_BUCKET', site.bucket.bucketName);
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [site.bucket.arnForObjects('artifacts/ai-site-fields/*')] }));
  acknowledgeWildcardUnder(fn.serviceRole, site.bucket.bucketArn, '/artifacts/ai-site-fields/*',
    'The AI-site record\'s lists too big for its item are objects named by business and content hash under this prefix; reads only.');
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

/**
 * Creating customer distributions with the Lambda@Edge router attached: CloudFront's
 * distribution actions (no resource-level scoping for CreateDistribution) and the edge
 * function permissions CloudFront checks on the caller when associating it.
 */
export function grantCdnManagement(fn: ApiFunction, edgeFunctionVersionArn: string | undefined): void {
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['cloudfront:CreateDistribution', 'cloudfront:GetDistribution', 'cloudfront:GetDistributionConfig', 'cloudfront:ListDistributions', 'cloudfront:TagResource'],
    resources: ['*'],
  }));
  if (edgeFunctionVersionArn) {
    grantEdgeAssociation(fn, edgeFunctionVersionArn);
    fn.addToRolePolicy(new iam.PolicyStatement({
      actions: ['iam:CreateServiceLinkedRole'],
      resources: ['arn:aws:iam::*:role/aws-service-role/replicator.lambda.amazonaws.com/AWSServiceRoleForLambdaReplicator'],
      conditions: { StringLike: { 'iam:AWSServiceName': 'replicator.lambda.amazonaws.com' } },
    }));
  }
  acknowledgeWildcardResources(fn.serviceRole, (r) => r === '*' || r.includes('AWSServiceRoleForLambdaReplicator'),
    'CloudFront CreateDistribution/ListDistributions support no resource-level permissions, and the replicator role is the one Lambda@Edge needs; the task creates one distribution per customer.');
}

/**
 * The domain-connection tasks (issue 13): the ACME account key's own secret, the certificate
 * manager (us-east-1, for CloudFront): import of the free certificate, request and describe of
 * the native one; and the distribution update (aliases, certificate, TLS policy, store origin).
 * ACME_* / DNS_RESOLVERS settings are not passed by the stack yet (the defaults apply: Let's
 * Encrypt production, public resolvers).
 */
export function grantCertificateManagement(fn: ApiFunction, edgeFunctionVersionArn: string | undefined): void {
  const stack = Stack.of(fn);
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:CreateSecret'],
    resources: [stack.formatArn({ service: 'secretsmanager', resource: 'secret', resourceName: 'ai-visibility/acme-account-key-*', arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
  }));
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['acm:ImportCertificate', 'acm:AddTagsToCertificate', 'acm:RequestCertificate', 'acm:DescribeCertificate'],
    resources: [stack.formatArn({ service: 'acm', region: 'us-east-1', resource: 'certificate', resourceName: '*' })],
  }));
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['cloudfront:GetDistribution', 'cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
    resources: [stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: '*' })],
  }));
  // A distribution update re-sends the Lambda@Edge association, which CloudFront checks like a create.
  if (edgeFunctionVersionArn) grantEdgeAssociation(fn, edgeFunctionVersionArn);
  acknowledgeWildcardResources(fn.serviceRole, (r) => /acme-account-key-\*|certificate\/\*|distribution\/\*/.test(r),
    'The account-key secret name carries the random suffix Secrets Manager adds; imported and requested certificates and per-customer distributions are created at run time, so their ids are not known to the stack.');
}

/**
 * Delegated DNS-01 (D203): the certificate tasks write and remove challenge TXT records in the
 * service's own Route 53 zone (ACME_DNS_ZONE_ID), then wait for the change (GetChange). Only
 * that zone, only TXT, only UPSERT and DELETE, only names under the zone; nothing without the
 * setting (the tasks then answer the TXT records to add by hand).
 */
export function grantChallengeDns(fn: ApiFunction, zone: { id?: string; name?: string }): void {
  if (!zone.id || !zone.name) return;
  const zoneName = zone.name.toLowerCase().replace(/\.$/, '');
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['route53:ChangeResourceRecordSets'],
    resources: [`arn:aws:route53:::hostedzone/${zone.id.replace(/^\/?hostedzone\//, '')}`],
    conditions: {
      'ForAllValues:StringEquals': { 'route53:ChangeResourceRecordSetsRecordTypes': ['TXT'], 'route53:ChangeResourceRecordSetsActions': ['UPSERT', 'DELETE'] },
      'ForAllValues:StringLike': { 'route53:ChangeResourceRecordSetsNormalizedRecordNames': [`*.${zoneName}`] },
    },
  }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['route53:GetChange'], resources: ['arn:aws:route53:::change/*'] }));
  acknowledgeWildcardResources(fn.serviceRole, (r) => r === 'arn:aws:route53:::change/*',
    'Route 53 change ids are made by each ChangeResourceRecordSets call; GetChange only reads a change\'s status.');
}

/** The edge function's ARN without its version; the setting must be a numbered version in us-east-1. */
export function edgeFunctionArnOf(edgeFunctionVersionArn: string): string {
  const arn = unversionedFunctionArn(edgeFunctionVersionArn);
  if (!arn) throw new Error(`ai-visibility:edgeFunctionVersionArn must be a numbered Lambda version in us-east-1 (…:function:<name>:<n>), got ${edgeFunctionVersionArn}`);
  return arn;
}

/**
 * The edge function's versions, as CloudFront checks them on the caller that associates one:
 * any version, since the one attached is the rollout's current version (issue 15), which
 * starts as the bootstrap setting and moves on with every publish.
 */
export function grantEdgeAssociation(fn: ApiFunction, edgeFunctionVersionArn: string): void {
  const functionArn = edgeFunctionArnOf(edgeFunctionVersionArn);
  fn.addEnvironment('EDGE_FUNCTION_VERSION_ARN', edgeFunctionVersionArn);
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['lambda:GetFunction', 'lambda:EnableReplication*'],
    resources: [`${functionArn}:*`],
  }));
  acknowledgeWildcardResources(fn.serviceRole, (r) => r === `${functionArn}:*`,
    'The numbered versions of the one edge function: distributions get the version the last rollout published, which the stack cannot know; limited to that function.');
  Validations.of(fn.serviceRole).acknowledge({
    id: 'AwsSolutions-IAM5[Action::lambda:EnableReplication*]',
    reason: 'lambda:EnableReplication* is the action set CloudFront documents for associating a Lambda@Edge function; it is granted on the edge function\'s versions only.',
  });
}

/**
 * The rollout's publish step (PlanEdgeRollout, issue 15): the code of the edge function's
 * `$LATEST` and of its versions (GetFunction) and PublishVersion, on that function only.
 * The function's ARN comes from the bootstrap version setting (its number dropped), which also
 * reaches the task as EDGE_FUNCTION_VERSION_ARN. Nothing without the setting (the task then
 * reports the CDN as not configured).
 */
export function grantEdgePublish(fn: ApiFunction, edgeFunctionVersionArn: string | undefined): void {
  if (!edgeFunctionVersionArn) return;
  const functionArn = edgeFunctionArnOf(edgeFunctionVersionArn);
  fn.addEnvironment('EDGE_FUNCTION_VERSION_ARN', edgeFunctionVersionArn);
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['lambda:GetFunction', 'lambda:PublishVersion'],
    resources: [functionArn, `${functionArn}:*`],
  }));
  acknowledgeWildcardResources(fn.serviceRole, (r) => r === `${functionArn}:*`,
    'GetFunction on the numbered versions of the one edge function (the stored current version\'s code is compared with $LATEST); limited to that function.');
}

/**
 * The rollout's move step (MoveEdgeBatch, issue 15): reads and updates customer distributions
 * (only the origin-request association changes), associating any version of the edge function.
 */
export function grantEdgeRollout(fn: ApiFunction, edgeFunctionVersionArn: string | undefined): void {
  if (!edgeFunctionVersionArn) return;
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['cloudfront:GetDistribution', 'cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
    resources: [Stack.of(fn).formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: '*' })],
  }));
  grantEdgeAssociation(fn, edgeFunctionVersionArn);
  acknowledgeWildcardResources(fn.serviceRole, (r) => /distribution\/\*/.test(r),
    'Customer distributions are created at run time (one per business), so their ids are not known to the stack; only distributions of this account.');
}

/**
 * Standard logging of the customer distributions (the task that creates them): the access-log
 * bucket's regional domain as CDN_LOG_BUCKET_DOMAIN, and the bucket ACL actions CloudFront
 * requires of the caller that turns logging on (it adds its log-delivery grant to the ACL).
 */
export function grantCdnLogging(fn: ApiFunction, logsBucket: s3.IBucket): void {
  fn.addEnvironment('CDN_LOG_BUCKET_DOMAIN', logsBucket.bucketRegionalDomainName);
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['s3:GetBucketAcl', 's3:PutBucketAcl'],
    resources: [logsBucket.bucketArn],
  }));
}

function stateMachineArn(fn: ApiFunction, workflow: WorkflowName): string {
  return Stack.of(fn).formatArn({
    service: 'states', resource: 'stateMachine', resourceName: deployedStateMachineName(workflow), arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

/** A route that starts a workflow: StartExecution on exactly that state machine, whose ARN it gets. */
export function grantStartWorkflow(fn: ApiFunction, workflow: WorkflowName): void {
  const arn = stateMachineArn(fn, workflow);
  fn.addEnvironment(stateMachineArnVariable(workflow), arn);
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['states:StartExecution'], resources: [arn] }));
}

/** A route that reads a workflow's executions: DescribeExecution on that state machine's executions only. */
export function grantReadWorkflow(fn: ApiFunction, workflow: WorkflowName): void {
  const arn = stateMachineArn(fn, workflow);
  fn.addEnvironment(stateMachineArnVariable(workflow), arn);
  const executions = Stack.of(fn).formatArn({
    service: 'states', resource: 'execution', resourceName: `${deployedStateMachineName(workflow)}:*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['states:DescribeExecution'], resources: [executions] }));
  acknowledgeWildcardResources(fn.serviceRole, (r) => r.includes(':execution:'),
    'DescribeExecution on the executions of this one state machine; execution names are chosen at run time.');
}
