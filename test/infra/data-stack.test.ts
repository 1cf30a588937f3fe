import { Match, Template } from 'aws-cdk-lib/assertions';
import { TABLE_SCHEMA } from '../../functions/adapters/dynamodb/table-schema';
import { buildTestService, ofType } from './helpers';

let template: Template;

beforeAll(() => {
  template = Template.fromStack(buildTestService().stacks.data);
});

describe('data stack: table', () => {
  test('key schema, attributes and GSIs equal TABLE_SCHEMA', () => {
    const tables = Object.values(ofType(template, 'AWS::DynamoDB::GlobalTable'));
    expect(tables).toHaveLength(1);
    const props = tables[0].Properties!;
    expect(props.KeySchema).toEqual([
      { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
    ]);
    expect(props.GlobalSecondaryIndexes).toEqual(
      TABLE_SCHEMA.globalSecondaryIndexes.map((gsi) => ({
        IndexName: gsi.indexName,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    const names = [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey, ...TABLE_SCHEMA.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey])];
    expect(props.AttributeDefinitions).toEqual(expect.arrayContaining(names.map((AttributeName) => ({ AttributeName, AttributeType: 'S' }))));
    expect(props.AttributeDefinitions).toHaveLength(names.length);
  });

  test('TTL attribute, on-demand billing, PITR, deletion protection and RETAIN', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true },
        Replicas: [Match.objectLike({
          DeletionProtectionEnabled: true,
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        })],
      }),
    });
  });
});

describe('data stack: AI-site files', () => {
  const blockAll = { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true };

  test('site bucket: public access blocked, versioned, encrypted, access-logged', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: blockAll,
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 's3/site-bucket/' }),
    });
  });

  test('every bucket denies requests without TLS', () => {
    const buckets = Object.keys(ofType(template, 'AWS::S3::Bucket'));
    const policies = Object.values(ofType(template, 'AWS::S3::BucketPolicy'));
    for (const bucket of buckets) {
      const policy = policies.find((p) => p.Properties!.Bucket.Ref === bucket);
      expect(policy?.Properties!.PolicyDocument.Statement).toEqual(expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      ]));
    }
  });

  test('CloudFront serves the bucket through Origin Access Control, HTTPS only, with logs', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https', AllowedMethods: ['GET', 'HEAD'] }),
        Origins: [Match.objectLike({
          OriginAccessControlId: { 'Fn::GetAtt': [Match.anyValue(), 'Id'] },
          S3OriginConfig: { OriginAccessIdentity: '' },
        })],
        Logging: Match.objectLike({ Prefix: 'cloudfront/site/' }),
      }),
    });
  });

  test('with a certificate, the distribution answers on *.{aiSiteDomain} with TLS 1.2+', () => {
    const { stacks } = buildTestService({
      context: {
        'ai-visibility:aiSiteDomain': 'ai.test.example',
        'ai-visibility:aiSiteCertificateArn': 'arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-0000-0000-000000000000',
      },
    });
    Template.fromStack(stacks.data).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['*.ai.test.example'],
        ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021' }),
      }),
    });
  });
});

describe('data stack: the AI sites\' DNS in Route 53 (issue 37)', () => {
  const CERTIFICATE = 'arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-0000-0000-000000000000';

  test('with a hosted zone id, *.{aiSiteDomain} is aliased (A and AAAA) to the AI-site distribution', () => {
    const { stacks } = buildTestService({
      context: {
        'ai-visibility:aiSiteDomain': 'ai.test.example',
        'ai-visibility:aiSiteCertificateArn': CERTIFICATE,
        'ai-visibility:aiSiteHostedZoneId': 'Z0123456789ABCDEFGHIJ',
        'ai-visibility:aiSiteHostedZoneName': 'test.example',
      },
    });
    const records = Object.values(Template.fromStack(stacks.data).findResources('AWS::Route53::RecordSet')).map((r) => r.Properties);
    expect(records.map((r) => [r.Type, r.Name, r.HostedZoneId]).sort()).toEqual([
      ['A', '*.ai.test.example.', 'Z0123456789ABCDEFGHIJ'],
      ['AAAA', '*.ai.test.example.', 'Z0123456789ABCDEFGHIJ'],
    ]);
    for (const r of records) {
      // CloudFront's fixed alias zone, and the distribution's own domain name.
      expect(r.AliasTarget).toEqual({ HostedZoneId: expect.anything(), DNSName: { 'Fn::GetAtt': [expect.stringMatching(/^SiteDistribution/), 'DomainName'] } });
    }
  });

  test('no hosted zone id: no record (the DNS is the operator\'s); a zone without the certificate, or not holding the domain, fails synth', () => {
    expect(template.findResources('AWS::Route53::RecordSet')).toEqual({});
    expect(() => buildTestService({ context: { 'ai-visibility:aiSiteHostedZoneId': 'Z0123456789ABCDEFGHIJ' } })).toThrow(/aiSiteHostedZoneId needs .*aiSiteCertificateArn/);
    expect(() => buildTestService({
      context: { 'ai-visibility:aiSiteDomain': 'ai.test.example', 'ai-visibility:aiSiteCertificateArn': CERTIFICATE, 'ai-visibility:aiSiteHostedZoneId': 'Z0123456789ABCDEFGHIJ', 'ai-visibility:aiSiteHostedZoneName': 'other.example' },
    })).toThrow(/other.example does not hold ai.test.example/);
  });
});

describe('data stack: AI-site releases at the edge', () => {
  test('a KeyValueStore and a JS 2.0 CloudFront Function pick the release per host on viewer-request', () => {
    template.resourceCountIs('AWS::CloudFront::KeyValueStore', 1);
    const functions = template.findResources('AWS::CloudFront::Function');
    const [fn] = Object.values(functions);
    expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(fn.Properties.FunctionConfig.KeyValueStoreAssociations).toHaveLength(1);
    expect(fn.Properties.FunctionCode).toContain('/releases/');
    expect(fn.Properties.FunctionCode).not.toContain('__AI_SITE_DOMAIN__');
    const [dist] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    expect(dist.Properties.DistributionConfig.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
  });
});

describe('data stack: the manifest resolver (D179)', () => {
  const RESOLVER = 'arn:aws:lambda:us-east-1:111111111111:function:AiVisibilityEdge-SiteResolver:3';
  const distributionOf = (t: Template) => Object.values(t.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
  const resolverStatements = (t: Template) => Object.values(ofType(t, 'AWS::S3::BucketPolicy'))
    .flatMap((p) => p.Properties!.PolicyDocument.Statement as any[])
    .filter((st) => JSON.stringify(st.Principal ?? {}).includes('role/ai-visibility-site-resolver'));

  test('without its version ARN: no origin-request function, no grant, releases as prefixes', () => {
    expect(distributionOf(template).DefaultCacheBehavior.LambdaFunctionAssociations).toBeUndefined();
    expect(resolverStatements(template)).toEqual([]);
    const ingest = Object.values(ofType(template, 'AWS::Lambda::Function')).find((f) => f.Properties!.Environment?.Variables?.TABLE_NAME);
    expect(ingest!.Properties!.Environment.Variables.SITES_LAYOUT).toBe('prefix');
  });

  test('with it: the resolver on origin-request, its role may read manifests only, and every Lambda writes manifests', () => {
    const { stacks } = buildTestService({ context: { 'ai-visibility:siteResolverVersionArn': RESOLVER } });
    const data = Template.fromStack(stacks.data);
    expect(distributionOf(data).DefaultCacheBehavior.LambdaFunctionAssociations).toEqual([{ EventType: 'origin-request', LambdaFunctionARN: RESOLVER }]);
    const statements = resolverStatements(data);
    expect(statements.map((st) => st.Action).sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    const get = statements.find((st) => st.Action === 's3:GetObject');
    expect(JSON.stringify(get.Resource)).toContain('/sites/*/releases/*.json');
    const layouts: string[] = [];
    for (const stack of [stacks.data, stacks.workflow, ...stacks.api.functionStacks.values()]) {
      for (const fn of Object.values(ofType(Template.fromStack(stack), 'AWS::Lambda::Function'))) {
        const vars = fn.Properties!.Environment?.Variables;
        if (vars?.TABLE_NAME) layouts.push(vars.SITES_LAYOUT);
      }
    }
    expect(layouts.length).toBeGreaterThan(50);
    expect(new Set(layouts)).toEqual(new Set(['manifest']));
  });
});
