/** The CloudFront CdnGateway against a mocked CloudFront API (aws-sdk-client-mock). */
import {
  CloudFrontClient,
  CreateDistributionCommand,
  DistributionAlreadyExists,
  GetDistributionCommand,
  GetDistributionConfigCommand,
  ListDistributionsCommand,
  NoSuchDistribution,
  PreconditionFailed,
  UpdateDistributionCommand,
} from '@aws-sdk/client-cloudfront';
import { mockClient } from 'aws-sdk-client-mock';
import {
  commentOf,
  createCloudFrontCdn,
  distributionConfig,
  MANAGED_ALL_VIEWER_ORIGIN_REQUEST_POLICY,
  MANAGED_CACHING_DISABLED_POLICY,
} from '../../functions/adapters/aws/cloudfront-cdn';

const ARN = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router:7';
const OLD_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router:6';
const NEW_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router:8';
const INPUT = {
  orgSlug: 'demo-store',
  storeOrigin: 'https://shop.example',
  aiSiteHost: 'demo-store.aisites.example',
  callerReference: 'ai-visibility-proxy-demo-store',
};

const cf = mockClient(CloudFrontClient);
const client = () => new CloudFrontClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

beforeEach(() => cf.reset());

const httpsOnly = (HTTPSPort = 443) => ({
  HTTPPort: 80,
  HTTPSPort,
  OriginProtocolPolicy: 'https-only',
  OriginSslProtocols: { Quantity: 1, Items: ['TLSv1.2'] },
  OriginReadTimeout: 30,
  OriginKeepaliveTimeout: 5,
});

describe('createDistribution', () => {
  test('sends the exact distribution config: two origins, edge function on origin-request, AllViewer, no caching, https redirect', async () => {
    cf.on(CreateDistributionCommand).resolves({ Distribution: { Id: 'E2QWRUHEXAMPLE', DomainName: 'd1abcdef8.cloudfront.net', Status: 'InProgress' } as never });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution(INPUT)).resolves.toEqual({ distributionId: 'E2QWRUHEXAMPLE', domainName: 'd1abcdef8.cloudfront.net', edgeFunctionVersionArn: ARN });

    const calls = cf.commandCalls(CreateDistributionCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      DistributionConfig: {
        CallerReference: 'ai-visibility-proxy-demo-store',
        Comment: 'ai-visibility proxy ai-visibility-proxy-demo-store',
        Enabled: true,
        PriceClass: 'PriceClass_100',
        HttpVersion: 'http2and3',
        IsIPV6Enabled: true,
        Aliases: { Quantity: 0, Items: [] },
        Origins: {
          Quantity: 2,
          Items: [
            {
              Id: 'store',
              DomainName: 'shop.example',
              OriginPath: '',
              CustomHeaders: { Quantity: 1, Items: [{ HeaderName: 'x-ai-site-host', HeaderValue: 'demo-store.aisites.example' }] },
              CustomOriginConfig: httpsOnly(),
              ConnectionAttempts: 3,
              ConnectionTimeout: 10,
              OriginShield: { Enabled: false },
            },
            {
              Id: 'ai-site',
              DomainName: 'demo-store.aisites.example',
              OriginPath: '',
              CustomHeaders: { Quantity: 0, Items: [] },
              CustomOriginConfig: httpsOnly(),
              ConnectionAttempts: 3,
              ConnectionTimeout: 10,
              OriginShield: { Enabled: false },
            },
          ],
        },
        DefaultCacheBehavior: {
          TargetOriginId: 'store',
          ViewerProtocolPolicy: 'redirect-to-https',
          AllowedMethods: {
            Quantity: 7,
            Items: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'POST', 'PATCH', 'DELETE'],
            CachedMethods: { Quantity: 2, Items: ['GET', 'HEAD'] },
          },
          Compress: true,
          CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
          OriginRequestPolicyId: '216adef6-5c7f-47e4-b989-5492eafa07d3',
          LambdaFunctionAssociations: {
            Quantity: 1,
            Items: [{ EventType: 'origin-request', LambdaFunctionARN: ARN, IncludeBody: false }],
          },
          FunctionAssociations: { Quantity: 0, Items: [] },
        },
        CacheBehaviors: { Quantity: 0, Items: [] },
        ViewerCertificate: { CloudFrontDefaultCertificate: true },
        Restrictions: { GeoRestriction: { RestrictionType: 'none', Quantity: 0, Items: [] } },
      },
    });
    expect(MANAGED_CACHING_DISABLED_POLICY).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect(MANAGED_ALL_VIEWER_ORIGIN_REQUEST_POLICY).toBe('216adef6-5c7f-47e4-b989-5492eafa07d3');
  });

  test('a store origin with port and base path, and a chosen price class', async () => {
    cf.on(CreateDistributionCommand).resolves({ Distribution: { Id: 'E1', DomainName: 'd2.cloudfront.net' } as never });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN, priceClass: 'PriceClass_All' });
    await gateway.createDistribution({ ...INPUT, storeOrigin: 'https://shop.example:8443/eu/' });
    const config = cf.commandCalls(CreateDistributionCommand)[0].args[0].input.DistributionConfig!;
    expect(config.PriceClass).toBe('PriceClass_All');
    expect(config.Origins!.Items![0]).toMatchObject({ DomainName: 'shop.example', OriginPath: '/eu', CustomOriginConfig: httpsOnly(8443) });
  });

  test('refuses an unversioned edge function ($LATEST, alias, other region)', () => {
    for (const arn of [
      'arn:aws:lambda:us-east-1:123456789012:function:router',
      'arn:aws:lambda:us-east-1:123456789012:function:router:$LATEST',
      'arn:aws:lambda:us-east-1:123456789012:function:router:live',
      'arn:aws:lambda:eu-west-1:123456789012:function:router:3',
    ]) {
      expect(() => createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: arn })).toThrow(/numbered version/);
    }
  });

  test('a retried create (DistributionAlreadyExists) returns the distribution of the first call, found by its caller reference', async () => {
    cf.on(CreateDistributionCommand).rejects(new DistributionAlreadyExists({ message: 'The caller reference that you are using to create a distribution is associated with another distribution.', $metadata: {} }));
    cf.on(ListDistributionsCommand, { Marker: undefined, MaxItems: 100 }).resolves({
      DistributionList: {
        Marker: '', MaxItems: 100, Quantity: 2, IsTruncated: true, NextMarker: 'page2',
        Items: [
          { Id: 'EOTHER1', DomainName: 'd-other.cloudfront.net', Comment: 'unrelated' } as never,
          // Same comment, another reference (e.g. a comment truncated to 128 characters).
          { Id: 'ESAMECOMMENT', DomainName: 'd-same.cloudfront.net', Comment: commentOf(INPUT.callerReference) } as never,
        ],
      },
    });
    cf.on(ListDistributionsCommand, { Marker: 'page2', MaxItems: 100 }).resolves({
      DistributionList: {
        Marker: 'page2', MaxItems: 100, Quantity: 1, IsTruncated: false,
        Items: [{ Id: 'EFIRST', DomainName: 'd-first.cloudfront.net', Comment: commentOf(INPUT.callerReference) } as never],
      },
    });
    cf.on(GetDistributionConfigCommand, { Id: 'ESAMECOMMENT' }).resolves({ DistributionConfig: { CallerReference: 'something-else' } as never });
    // The first create attached an older version: that is the one the distribution has.
    cf.on(GetDistributionConfigCommand, { Id: 'EFIRST' }).resolves({ DistributionConfig: { ...distributionConfig(INPUT, OLD_ARN) } as never, ETag: 'E1' });

    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution(INPUT)).resolves.toEqual({ distributionId: 'EFIRST', domainName: 'd-first.cloudfront.net', edgeFunctionVersionArn: OLD_ARN });
    expect(cf.commandCalls(CreateDistributionCommand)).toHaveLength(1);
    expect(cf.commandCalls(ListDistributionsCommand)).toHaveLength(2);
  });

  test('when CloudFront names the existing distribution, it is confirmed and returned without listing', async () => {
    cf.on(CreateDistributionCommand).rejects(new DistributionAlreadyExists({ message: 'Already exists: E3NAMEDEXAMPLE', $metadata: {} }));
    cf.on(GetDistributionConfigCommand, { Id: 'E3NAMEDEXAMPLE' }).resolves({ DistributionConfig: { CallerReference: INPUT.callerReference } as never });
    cf.on(GetDistributionCommand, { Id: 'E3NAMEDEXAMPLE' }).resolves({ Distribution: { Id: 'E3NAMEDEXAMPLE', DomainName: 'd3.cloudfront.net' } as never });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution(INPUT)).resolves.toEqual({ distributionId: 'E3NAMEDEXAMPLE', domainName: 'd3.cloudfront.net', edgeFunctionVersionArn: null });
    expect(cf.commandCalls(ListDistributionsCommand)).toHaveLength(0);
  });

  test('DistributionAlreadyExists with no matching distribution is rethrown; other errors pass through', async () => {
    cf.on(CreateDistributionCommand).rejectsOnce(new DistributionAlreadyExists({ message: 'exists', $metadata: {} }))
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'Throttling' }));
    cf.on(ListDistributionsCommand).resolves({ DistributionList: { Marker: '', MaxItems: 100, Quantity: 0, IsTruncated: false, Items: [] } });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution(INPUT)).rejects.toMatchObject({ name: 'DistributionAlreadyExists' });
    await expect(gateway.createDistribution(INPUT)).rejects.toMatchObject({ name: 'Throttling' });
  });
});

describe('getDistribution', () => {
  test('maps id, domain, status and aliases', async () => {
    cf.on(GetDistributionCommand, { Id: 'E2QWRUHEXAMPLE' }).resolves({
      Distribution: {
        Id: 'E2QWRUHEXAMPLE', DomainName: 'd1abcdef8.cloudfront.net', Status: 'Deployed',
        DistributionConfig: { Aliases: { Quantity: 2, Items: ['www.shop.example', 'shop.example'] } },
      } as never,
    });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.getDistribution('E2QWRUHEXAMPLE')).resolves.toEqual({
      id: 'E2QWRUHEXAMPLE', domainName: 'd1abcdef8.cloudfront.net', status: 'Deployed', aliases: ['www.shop.example', 'shop.example'], certificateArn: null, edgeFunctionVersionArn: null,
    });
  });

  test('the edge-function version on origin-request', async () => {
    cf.on(GetDistributionCommand).resolves({ Distribution: { Id: 'E2', DomainName: 'd2.cloudfront.net', Status: 'Deployed', DistributionConfig: distributionConfig(INPUT, OLD_ARN) } as never });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.getDistribution('E2')).resolves.toMatchObject({ edgeFunctionVersionArn: OLD_ARN });
  });

  test('the viewer certificate\'s ARN when one is attached', async () => {
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc-123';
    cf.on(GetDistributionCommand).resolves({
      Distribution: {
        Id: 'E2QWRUHEXAMPLE', DomainName: 'd1abcdef8.cloudfront.net', Status: 'InProgress',
        DistributionConfig: { Aliases: { Quantity: 1, Items: ['www.shop.example'] }, ViewerCertificate: { ACMCertificateArn: certificateArn, SSLSupportMethod: 'sni-only', CloudFrontDefaultCertificate: false } },
      } as never,
    });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.getDistribution('E2QWRUHEXAMPLE')).resolves.toMatchObject({ status: 'InProgress', certificateArn });
  });

  test('an unknown id is null', async () => {
    cf.on(GetDistributionCommand).rejects(new NoSuchDistribution({ message: 'The specified distribution does not exist.', $metadata: {} }));
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.getDistribution('ENOPE')).resolves.toBeNull();
  });
});

describe('attachCertificate (issue 13 Part 1)', () => {
  const CERT = { certificatePem: 'leaf', chainPem: 'chain', privateKeyPem: 'key', notAfter: '2027-01-01T00:00:00.000Z', tags: { org: 'demo-store' } };
  const ACM_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/abc-123';

  test('imports the certificate, then updates the distribution with the aliases, the certificate (SNI) and TLSv1.2_2021, under the ETag', async () => {
    const imported: unknown[] = [];
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN, importCertificate: async (c) => (imported.push(c), ACM_ARN) });
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E1', DistributionConfig: { CallerReference: 'ref', Comment: 'c', Enabled: true, Origins: { Quantity: 0, Items: [] }, DefaultCacheBehavior: { TargetOriginId: 'store', ViewerProtocolPolicy: 'redirect-to-https' }, ViewerCertificate: { CloudFrontDefaultCertificate: true } } as never });
    cf.on(UpdateDistributionCommand).resolves({});
    const attached = await gateway.attachCertificate('E2ABCDEFGHIJKL', { aliases: ['WWW.Shop.example.', 'shop.example'], certificate: CERT });
    expect(imported).toEqual([CERT]);
    expect(attached).toEqual({ certificateArn: ACM_ARN, aliases: ['www.shop.example', 'shop.example'], notAfter: CERT.notAfter });
    const update = cf.commandCalls(UpdateDistributionCommand)[0].args[0].input;
    expect(update.Id).toBe('E2ABCDEFGHIJKL');
    expect(update.IfMatch).toBe('E1');
    expect(update.DistributionConfig).toMatchObject({
      CallerReference: 'ref',
      Aliases: { Quantity: 2, Items: ['www.shop.example', 'shop.example'] },
      ViewerCertificate: { ACMCertificateArn: ACM_ARN, SSLSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2021', CloudFrontDefaultCertificate: false },
    });
  });

  test('nothing is updated when the import fails', async () => {
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN, importCertificate: async () => { throw new Error('acm down'); } });
    await expect(gateway.attachCertificate('E2ABCDEFGHIJKL', { aliases: ['shop.example'], certificate: CERT })).rejects.toThrow('acm down');
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(0);
  });
});

/** The configuration CloudFront holds for a business after Part 1: created by us, then aliases and the imported certificate. */
function deployedConfig(storeOrigin = 'https://www.shop.example') {
  const imported = 'arn:aws:acm:us-east-1:123456789012:certificate/imported-1';
  return {
    ...distributionConfig({ ...INPUT, storeOrigin }, ARN),
    Aliases: { Quantity: 2, Items: ['www.shop.example', 'shop.example'] },
    ViewerCertificate: { ACMCertificateArn: imported, SSLSupportMethod: 'sni-only' as const, MinimumProtocolVersion: 'TLSv1.2_2021' as const, CloudFrontDefaultCertificate: false },
  };
}

describe('setStoreOrigin (domain connection Part 2)', () => {
  test('changes only the store origin\'s domain, under the ETag; path, header, the other origin and everything else stay', async () => {
    const current = deployedConfig();
    cf.on(GetDistributionConfigCommand, { Id: 'E2ABCDEFGHIJKL' }).resolves({ ETag: 'ETAG1', DistributionConfig: current });
    cf.on(UpdateDistributionCommand).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://shops.myshopify.com')).resolves.toEqual({ storeOrigin: 'https://shops.myshopify.com', changed: true });

    const calls = cf.commandCalls(UpdateDistributionCommand);
    expect(calls).toHaveLength(1);
    const [store, aiSite] = current.Origins!.Items!;
    expect(calls[0].args[0].input).toEqual({
      Id: 'E2ABCDEFGHIJKL',
      IfMatch: 'ETAG1',
      DistributionConfig: {
        ...current,
        Origins: { Quantity: 2, Items: [{ ...store, DomainName: 'shops.myshopify.com' }, aiSite] },
      },
    });
    expect(store).toMatchObject({ Id: 'store', DomainName: 'www.shop.example' });
  });

  test('a port is the origin\'s https port; an origin path configured at creation is kept', async () => {
    const current = deployedConfig('https://www.shop.example/eu');
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'ETAG2', DistributionConfig: current });
    cf.on(UpdateDistributionCommand).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://Origin.Shop-Host.example:8443/')).resolves.toEqual({ storeOrigin: 'https://origin.shop-host.example:8443', changed: true });
    const updated = cf.commandCalls(UpdateDistributionCommand)[0].args[0].input.DistributionConfig!;
    expect(updated.Origins!.Items![0]).toEqual({ ...current.Origins!.Items![0], DomainName: 'origin.shop-host.example', CustomOriginConfig: httpsOnly(8443) });
    expect(updated.Origins!.Items![0].OriginPath).toBe('/eu');
  });

  test('already pointing there: no update, changed false', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'ETAG3', DistributionConfig: deployedConfig('https://shops.myshopify.com') });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://SHOPS.myshopify.com:443')).resolves.toEqual({ storeOrigin: 'https://shops.myshopify.com', changed: false });
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(0);
  });

  test('another update in between (PreconditionFailed): read again and retried with the new ETag', async () => {
    cf.on(GetDistributionConfigCommand).resolvesOnce({ ETag: 'OLD', DistributionConfig: deployedConfig() }).resolves({ ETag: 'NEW', DistributionConfig: deployedConfig() });
    cf.on(UpdateDistributionCommand, { IfMatch: 'OLD' }).rejects(new PreconditionFailed({ message: 'The precondition given in one or more of the request-header fields evaluated to false.', $metadata: {} }));
    cf.on(UpdateDistributionCommand, { IfMatch: 'NEW' }).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://shops.myshopify.com')).resolves.toEqual({ storeOrigin: 'https://shops.myshopify.com', changed: true });
    expect(cf.commandCalls(UpdateDistributionCommand).map((c) => c.args[0].input.IfMatch)).toEqual(['OLD', 'NEW']);
  });

  test('gives up after three stale ETags; other errors are not retried', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E', DistributionConfig: deployedConfig() });
    cf.on(UpdateDistributionCommand).rejects(new PreconditionFailed({ message: 'stale', $metadata: {} }));
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://shops.myshopify.com')).rejects.toMatchObject({ name: 'PreconditionFailed' });
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(3);
    cf.reset();
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E', DistributionConfig: deployedConfig() });
    cf.on(UpdateDistributionCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'Throttling' }));
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://shops.myshopify.com')).rejects.toMatchObject({ name: 'Throttling' });
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(1);
  });

  test('refused without a call: an origin on one of the distribution\'s aliases (a loop), http, a path, a query, not a URL', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E', DistributionConfig: deployedConfig() });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://WWW.shop.example')).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/loop/) });
    for (const bad of ['http://shops.myshopify.com', 'https://shops.myshopify.com/eu', 'https://shops.myshopify.com/?a=1', 'https://u:p@shops.myshopify.com', 'shops.myshopify.com']) {
      await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', bad)).rejects.toMatchObject({ name: 'ValidationError' });
    }
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(0);
  });

  test('a distribution without a store origin is an error', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E', DistributionConfig: { ...deployedConfig(), Origins: { Quantity: 0, Items: [] } } });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setStoreOrigin('E2ABCDEFGHIJKL', 'https://shops.myshopify.com')).rejects.toThrow(/no "store" origin/);
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(0);
  });
});

describe('useCertificate (domain connection Part 2)', () => {
  const NATIVE = 'arn:aws:acm:us-east-1:123456789012:certificate/native-2';

  test('replaces the viewer certificate (SNI, TLSv1.2_2021) under the ETag; aliases and the rest stay', async () => {
    const current = deployedConfig();
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'ETAG9', DistributionConfig: current });
    cf.on(UpdateDistributionCommand).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.useCertificate('E2ABCDEFGHIJKL', NATIVE)).resolves.toBeUndefined();
    const calls = cf.commandCalls(UpdateDistributionCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      Id: 'E2ABCDEFGHIJKL',
      IfMatch: 'ETAG9',
      DistributionConfig: {
        ...current,
        ViewerCertificate: { ACMCertificateArn: NATIVE, SSLSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2021', CloudFrontDefaultCertificate: false },
      },
    });
  });

  test('from the default certificate: legacy fields are dropped', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E', DistributionConfig: { ...deployedConfig(), ViewerCertificate: { CloudFrontDefaultCertificate: true, CertificateSource: 'cloudfront', MinimumProtocolVersion: 'TLSv1' } } });
    cf.on(UpdateDistributionCommand).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await gateway.useCertificate('E2ABCDEFGHIJKL', NATIVE);
    expect(cf.commandCalls(UpdateDistributionCommand)[0].args[0].input.DistributionConfig!.ViewerCertificate)
      .toEqual({ ACMCertificateArn: NATIVE, SSLSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2021', CloudFrontDefaultCertificate: false });
  });

  test('already in use with the same settings: no update', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E', DistributionConfig: { ...deployedConfig(), ViewerCertificate: { ACMCertificateArn: NATIVE, SSLSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2021', CloudFrontDefaultCertificate: false, CertificateSource: 'acm' } } });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await gateway.useCertificate('E2ABCDEFGHIJKL', NATIVE);
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(0);
  });

  test('the same certificate under an older TLS policy is updated', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ ETag: 'E', DistributionConfig: { ...deployedConfig(), ViewerCertificate: { ACMCertificateArn: NATIVE, SSLSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2019', CloudFrontDefaultCertificate: false } } });
    cf.on(UpdateDistributionCommand).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await gateway.useCertificate('E2ABCDEFGHIJKL', NATIVE);
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(1);
  });

  test('a certificate outside us-east-1 or not an ACM ARN is refused without a call', async () => {
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    for (const bad of ['arn:aws:acm:eu-west-1:123456789012:certificate/x', 'local:native:E1:abc', '']) {
      await expect(gateway.useCertificate('E2ABCDEFGHIJKL', bad)).rejects.toMatchObject({ name: 'ValidationError' });
    }
    expect(cf.commandCalls(GetDistributionConfigCommand)).toHaveLength(0);
  });
});

describe('native certificates through the injected certificate manager', () => {
  test('request and describe are passed through; without the option they are refused', async () => {
    const requested: unknown[] = [];
    const info = { status: 'PENDING_VALIDATION' as const, validationRecords: [{ name: '_a.www.shop.example', value: '_b.acm-validations.aws' }], notAfter: null };
    const gateway = createCloudFrontCdn({
      client: client(), edgeFunctionVersionArn: ARN,
      nativeCertificates: {
        request: async (input) => (requested.push(input), 'arn:aws:acm:us-east-1:123456789012:certificate/n'),
        describe: async (arn, names) => ({ ...info, reason: `${arn} ${names.join(',')}` }),
      },
    });
    await expect(gateway.requestNativeCertificate({ distributionId: 'E2ABCDEFGHIJKL', names: ['www.shop.example'], idempotencyKey: 'k', tags: { org: 'demo-store' } }))
      .resolves.toEqual({ certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/n' });
    expect(requested).toEqual([{ names: ['www.shop.example'], idempotencyKey: 'k', tags: { org: 'demo-store' } }]);
    await expect(gateway.describeNativeCertificate('arn:x', ['www.shop.example'])).resolves.toEqual({ ...info, reason: 'arn:x www.shop.example' });

    const bare = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(bare.requestNativeCertificate({ distributionId: 'E', names: ['a.example'], idempotencyKey: 'k' })).rejects.toThrow(/nativeCertificates/);
    await expect(bare.describeNativeCertificate('arn:x', ['a.example'])).rejects.toThrow(/nativeCertificates/);
  });
});

describe('edge-function version at creation (issue 15)', () => {
  test('the version passed in (the stored current version) is attached instead of the bootstrap setting', async () => {
    cf.on(CreateDistributionCommand).resolves({ Distribution: { Id: 'E1', DomainName: 'd1.cloudfront.net' } as never });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution({ ...INPUT, edgeFunctionVersionArn: NEW_ARN })).resolves.toMatchObject({ edgeFunctionVersionArn: NEW_ARN });
    const config = cf.commandCalls(CreateDistributionCommand)[0].args[0].input.DistributionConfig!;
    expect(config.DefaultCacheBehavior!.LambdaFunctionAssociations!.Items).toEqual([{ EventType: 'origin-request', LambdaFunctionARN: NEW_ARN, IncludeBody: false }]);
  });

  test('null or empty falls back to the bootstrap version; an unversioned one is refused without a call', async () => {
    cf.on(CreateDistributionCommand).resolves({ Distribution: { Id: 'E1', DomainName: 'd1.cloudfront.net' } as never });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution({ ...INPUT, edgeFunctionVersionArn: null })).resolves.toMatchObject({ edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution({ ...INPUT, edgeFunctionVersionArn: ' ' })).resolves.toMatchObject({ edgeFunctionVersionArn: ARN });
    await expect(gateway.createDistribution({ ...INPUT, edgeFunctionVersionArn: 'arn:aws:lambda:us-east-1:123456789012:function:router:$LATEST' })).rejects.toMatchObject({ name: 'ValidationError' });
    expect(cf.commandCalls(CreateDistributionCommand)).toHaveLength(2);
  });
});

describe('standard logging of customer distributions', () => {
  const BUCKET = 'aivisibilitydata-accesslogsbucket-abc.s3.eu-central-1.amazonaws.com';

  test('with a log bucket: logging to cloudfront/proxy/<org>/ without cookies; CallerReference and the rest unchanged', async () => {
    cf.on(CreateDistributionCommand).resolves({ Distribution: { Id: 'E1', DomainName: 'd1.cloudfront.net' } as never });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN, logBucketDomain: BUCKET });
    await gateway.createDistribution(INPUT);
    const config = cf.commandCalls(CreateDistributionCommand)[0].args[0].input.DistributionConfig!;
    expect(config.Logging).toEqual({ Enabled: true, IncludeCookies: false, Bucket: BUCKET, Prefix: 'cloudfront/proxy/demo-store/' });
    const { Logging: _logging, ...rest } = config;
    expect(rest).toEqual(distributionConfig(INPUT, ARN));
    expect(config.CallerReference).toBe(INPUT.callerReference);
  });

  test('distributionConfig: no Logging without a bucket, Logging with one', () => {
    expect(distributionConfig(INPUT, ARN)).not.toHaveProperty('Logging');
    expect(distributionConfig(INPUT, ARN, 'PriceClass_100', BUCKET).Logging).toMatchObject({ Bucket: BUCKET, Prefix: 'cloudfront/proxy/demo-store/' });
  });
});

describe('setEdgeFunction (the edge-function rollout, issue 15)', () => {
  const withAssociations = (items: { EventType: string; LambdaFunctionARN: string; IncludeBody?: boolean }[]) => {
    const config = distributionConfig(INPUT, OLD_ARN);
    return { ...config, DefaultCacheBehavior: { ...config.DefaultCacheBehavior!, LambdaFunctionAssociations: { Quantity: items.length, Items: items } } };
  };

  test('replaces only the origin-request association\'s ARN, under the ETag; other associations and everything else stay', async () => {
    const viewer = { EventType: 'viewer-response', LambdaFunctionARN: 'arn:aws:lambda:us-east-1:123456789012:function:other:3', IncludeBody: false };
    const current = withAssociations([viewer, { EventType: 'origin-request', LambdaFunctionARN: OLD_ARN, IncludeBody: false }]);
    cf.on(GetDistributionConfigCommand).resolves({ DistributionConfig: current as never, ETag: 'ETAG1' });
    cf.on(UpdateDistributionCommand).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setEdgeFunction('E2', NEW_ARN)).resolves.toEqual({ changed: true, previousVersionArn: OLD_ARN });
    const calls = cf.commandCalls(UpdateDistributionCommand);
    expect(calls).toHaveLength(1);
    const { Id, IfMatch, DistributionConfig } = calls[0].args[0].input;
    expect([Id, IfMatch]).toEqual(['E2', 'ETAG1']);
    expect(DistributionConfig).toEqual({
      ...current,
      DefaultCacheBehavior: { ...current.DefaultCacheBehavior, LambdaFunctionAssociations: { Quantity: 2, Items: [viewer, { EventType: 'origin-request', LambdaFunctionARN: NEW_ARN, IncludeBody: false }] } },
    });
  });

  test('already on that version: no update', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ DistributionConfig: distributionConfig(INPUT, NEW_ARN) as never, ETag: 'ETAG1' });
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setEdgeFunction('E2', NEW_ARN)).resolves.toEqual({ changed: false, previousVersionArn: NEW_ARN });
    expect(cf.commandCalls(UpdateDistributionCommand)).toHaveLength(0);
  });

  test('no origin-request association yet: one is added', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ DistributionConfig: withAssociations([]) as never, ETag: 'ETAG1' });
    cf.on(UpdateDistributionCommand).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setEdgeFunction('E2', NEW_ARN)).resolves.toEqual({ changed: true, previousVersionArn: null });
    expect(cf.commandCalls(UpdateDistributionCommand)[0].args[0].input.DistributionConfig!.DefaultCacheBehavior!.LambdaFunctionAssociations)
      .toEqual({ Quantity: 1, Items: [{ EventType: 'origin-request', LambdaFunctionARN: NEW_ARN, IncludeBody: false }] });
  });

  test('another update in between (PreconditionFailed): read again and retried with the new ETag', async () => {
    cf.on(GetDistributionConfigCommand).resolvesOnce({ DistributionConfig: distributionConfig(INPUT, OLD_ARN) as never, ETag: 'ETAG1' })
      .resolves({ DistributionConfig: distributionConfig(INPUT, OLD_ARN) as never, ETag: 'ETAG2' });
    cf.on(UpdateDistributionCommand).rejectsOnce(new PreconditionFailed({ message: 'stale', $metadata: {} })).resolves({});
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setEdgeFunction('E2', NEW_ARN)).resolves.toEqual({ changed: true, previousVersionArn: OLD_ARN });
    expect(cf.commandCalls(UpdateDistributionCommand).map((c) => c.args[0].input.IfMatch)).toEqual(['ETAG1', 'ETAG2']);
  });

  test('a CloudFront refusal passes through (the rollout reports it); $LATEST, an alias or another region is refused without a call', async () => {
    cf.on(GetDistributionConfigCommand).resolves({ DistributionConfig: distributionConfig(INPUT, OLD_ARN) as never, ETag: 'ETAG1' });
    cf.on(UpdateDistributionCommand).rejects(Object.assign(new Error('The function ARN must reference a specific function version.'), { name: 'InvalidLambdaFunctionAssociation' }));
    const gateway = createCloudFrontCdn({ client: client(), edgeFunctionVersionArn: ARN });
    await expect(gateway.setEdgeFunction('E2', NEW_ARN)).rejects.toMatchObject({ name: 'InvalidLambdaFunctionAssociation' });
    cf.reset();
    for (const arn of ['arn:aws:lambda:us-east-1:123456789012:function:router:$LATEST', 'arn:aws:lambda:us-east-1:123456789012:function:router:live', 'arn:aws:lambda:eu-west-1:123456789012:function:router:3']) {
      await expect(gateway.setEdgeFunction('E2', arn)).rejects.toMatchObject({ name: 'ValidationError' });
    }
    expect(cf.calls()).toHaveLength(0);
  });
});
