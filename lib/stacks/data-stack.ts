/**
 * Stateful resources: the single DynamoDB table (built from TABLE_SCHEMA, the same constant
 * the local embedded database uses), the AI-site files (S3) with the CloudFront
 * distribution in front of them, the AI-site host on AWS, and the provider secrets
 * (lib/secrets.ts). Other stacks receive `table`, `siteBucket` and `secrets` as props.
 */
import { Annotations, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as route53Targets from 'aws-cdk-lib/aws-route53-targets';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { TABLE_SCHEMA } from '../../functions/adapters/dynamodb/table-schema';
import { WORKFLOW_OBJECTS_PREFIX } from '../../functions/core/workflows';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EDGE_FUNCTION_DIR } from '../paths';
import { SITE_RESOLVER_ROLE_NAME } from './edge-stack';
import { createJsonSecrets, type SecretsByGroup } from '../secrets';
import { AccessLogIngest } from '../constructs/access-log-ingest';
import { commonEnvironment, type AppSettings } from '../settings';

export interface DataStackProps extends StackProps {
  settings: AppSettings;
}

const str = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

export class DataStack extends Stack {
  readonly table: dynamodb.TableV2;
  readonly siteBucket: s3.Bucket;
  readonly logsBucket: s3.Bucket;
  /** Server-side AI visits from the CloudFront access logs (issue 14). */
  readonly accessLogIngest: AccessLogIngest;
  readonly siteDistribution: cloudfront.Distribution;
  /** slug → current release id, read at the edge; deploys switch releases by writing it. */
  readonly siteReleases: cloudfront.KeyValueStore;
  /** The JSON secrets of provider keys (`ai-visibility/providers`, `ai-visibility/accounts`). */
  readonly secrets: SecretsByGroup;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { settings } = props;
    this.secrets = createJsonSecrets(this);

    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: str(TABLE_SCHEMA.partitionKey),
      sortKey: str(TABLE_SCHEMA.sortKey),
      globalSecondaryIndexes: TABLE_SCHEMA.globalSecondaryIndexes.map((gsi) => ({
        indexName: gsi.indexName,
        partitionKey: str(gsi.partitionKey),
        sortKey: str(gsi.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      })),
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Access logs of the site bucket (S3 server access logs) and of the distribution
    // (CloudFront standard logs, which still need ACLs: hence OBJECT_WRITER ownership).
    this.logsBucket = new s3.Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.logsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log destination bucket; logging it into itself would loop.',
    });

    this.siteBucket = new s3.Bucket(this, 'SiteBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 's3/site-bucket/',
      // Old versions are only kept for rollbacks of recent deploys; a daily run's business lists
      // and Map results (D217) are read within the run and kept two weeks for looking back.
      lifecycleRules: [
        { noncurrentVersionExpiration: Duration.days(30) },
        { prefix: `${WORKFLOW_OBJECTS_PREFIX}/`, expiration: Duration.days(14), noncurrentVersionExpiration: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const certificate = settings.aiSiteCertificateArn
      ? acm.Certificate.fromCertificateArn(this, 'SiteCertificate', settings.aiSiteCertificateArn)
      : undefined;
    this.siteReleases = new cloudfront.KeyValueStore(this, 'SiteReleases', {
      comment: 'AI-site slug -> current release id',
    });
    const router = new cloudfront.Function(this, 'SiteRouter', {
      comment: 'Host {slug}.{AI_SITE_DOMAIN} -> sites/<slug>/releases/<current>/<path>',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      keyValueStore: this.siteReleases,
      code: cloudfront.FunctionCode.fromInline(
        readFileSync(join(EDGE_FUNCTION_DIR, 'ai-site-router.js'), 'utf8').replace('__AI_SITE_DOMAIN__', settings.aiSiteDomain),
      ),
    });
    this.siteDistribution = new cloudfront.Distribution(this, 'SiteDistribution', {
      comment: 'AI-site host: static AI-readable store mirrors',
      defaultBehavior: {
        // LIST lets a missing file answer 404 instead of S3's 403.
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.siteBucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
        }),
        functionAssociations: [{ function: router, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        edgeLambdas: settings.siteResolverVersionArn ? [{
          eventType: cloudfront.LambdaEdgeEventType.ORIGIN_REQUEST,
          functionVersion: lambda.Version.fromVersionArn(this, 'SiteResolverVersion', settings.siteResolverVersionArn),
        }] : undefined,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
      },
      // The router already maps `/` to index.html; set anyway, as S3 LIST access recommends.
      defaultRootObject: 'index.html',
      domainNames: certificate ? [`*.${settings.aiSiteDomain}`] : undefined,
      certificate,
      minimumProtocolVersion: certificate ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logsBucket,
      logFilePrefix: 'cloudfront/site/',
    });
    if (settings.siteResolverVersionArn) this.grantManifestReads();
    if (settings.aiSiteHostedZoneId) this.aliasAiSites(settings.aiSiteHostedZoneId, settings.aiSiteHostedZoneName ?? settings.aiSiteDomain, settings.aiSiteDomain);

    // Every request reaches S3 only through the router, which maps it to a file key of one site's
    // release (a directory URL to its index.html) or answers 404 itself: S3 is never asked for a listing.
    Annotations.of(this.siteDistribution).acknowledgeWarning('@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'The viewer-request router rewrites every URI to sites/<slug>/releases/<id>/<file> or answers 404, and defaultRootObject is set.');
    Validations.of(this.siteDistribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'AI sites are public, read-only pages meant for crawlers everywhere; no geo restriction applies.',
    });
    Validations.of(this.siteDistribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason: 'Static GET/HEAD-only content from a private bucket: no forms or dynamic origin for a WAF to protect; add one if abuse shows up.',
    });
    if (!certificate) {
      Validations.of(this.siteDistribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason: 'Without ai-visibility:aiSiteCertificateArn the default *.cloudfront.net certificate is used, whose TLS floor cannot be set; configuring the certificate sets TLSv1.2_2021.',
      });
    }

    // Server-side AI visits (issue 14): each new CloudFront log file → the ingest Lambda. In the
    // bucket's own stack, or the two stacks would reference each other.
    this.accessLogIngest = new AccessLogIngest(this, 'AccessLogIngest', { logsBucket: this.logsBucket, table: this.table, environment: commonEnvironment(settings, this.table.tableName) });
  }

  /**
   * The manifest resolver (edge stack, us-east-1, role SITE_RESOLVER_ROLE_NAME) reads release
   * manifests and no other object. It may list the bucket: S3 answers a GetObject of a missing
   * key with NoSuchKey only to a caller allowed to list (a prefix condition does not apply to
   * that check), and NoSuchKey is how the resolver tells a release of the prefix layout (D179).
   * The role must exist before this policy (the edge stack is deployed first).
   */
  /** `*.{aiSiteDomain}` (A and AAAA) aliased to the AI-site distribution, in the zone the settings name. */
  private aliasAiSites(hostedZoneId: string, zoneName: string, aiSiteDomain: string): void {
    const zone = route53.HostedZone.fromHostedZoneAttributes(this, 'AiSiteZone', { hostedZoneId, zoneName });
    const target = route53.RecordTarget.fromAlias(new route53Targets.CloudFrontTarget(this.siteDistribution));
    const recordName = `*.${aiSiteDomain}`;
    new route53.ARecord(this, 'AiSiteAlias', { zone, recordName, target, comment: 'every AI site, {slug}.{aiSiteDomain}' });
    new route53.AaaaRecord(this, 'AiSiteAliasIpv6', { zone, recordName, target, comment: 'every AI site, {slug}.{aiSiteDomain}' });
  }

  private grantManifestReads(): void {
    const resolver = new iam.ArnPrincipal(Stack.of(this).formatArn({ service: 'iam', region: '', resource: 'role', resourceName: SITE_RESOLVER_ROLE_NAME }));
    this.siteBucket.addToResourcePolicy(new iam.PolicyStatement({
      principals: [resolver], actions: ['s3:GetObject'], resources: [this.siteBucket.arnForObjects('sites/*/releases/*.json')],
    }));
    this.siteBucket.addToResourcePolicy(new iam.PolicyStatement({
      principals: [resolver], actions: ['s3:ListBucket'], resources: [this.siteBucket.bucketArn],
    }));
  }
}
