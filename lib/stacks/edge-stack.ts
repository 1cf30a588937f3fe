/**
 * The edge router (D4, D28): a Lambda@Edge origin-request function shared by all customer
 * distributions. Lambda@Edge requires us-east-1, numbered versions and no environment
 * variables (per-distribution settings arrive as origin custom headers), and runs on
 * x86_64 only. The stack must be deployed to us-east-1, so EdgeFunction creates the
 * function in this stack (no cross-region support stack).
 *
 * Deploying this stack uploads new code to the function (`$LATEST`, plus the version CDK
 * publishes for `currentVersion`); customer distributions move to it only through the
 * edge-function rollout (POST /api/domain/update-edge-function, issue 15), which publishes a
 * version when `$LATEST`'s code differs from the stored current version's and moves every
 * distribution in batches of 10.
 */
import { CfnOutput, DockerImage, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import * as path from 'node:path';
import { RUNTIME } from '../constructs/runtime';
import { EDGE_FUNCTION_DIR } from '../paths';

export const EDGE_REGION = 'us-east-1';

/**
 * The AI-site manifest resolver's role name: fixed, so the data stack (another region, deployed
 * with the resolver's version ARN) can let exactly this role read release manifests.
 */
export const SITE_RESOLVER_ROLE_NAME = 'ai-visibility-site-resolver';

/** Bundles one edge-function entry (index.ts, ai-site-resolver.ts) with the esbuild devDependency (no Docker). */
function edgeCode(entry: string): lambda.Code {
  return lambda.Code.fromAsset(EDGE_FUNCTION_DIR, {
    bundling: {
      // Only used if local bundling is impossible (the esbuild devDependency is missing).
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      command: ['bash', '-c', `npx --yes esbuild@0.28.2 /asset-input/${entry} --bundle --platform=node --target=node22 --format=cjs --minify --external:@aws-sdk/* --outfile=/asset-output/index.js`],
      local: {
        tryBundle(outputDir: string): boolean {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const esbuild = require('esbuild') as typeof import('esbuild');
          esbuild.buildSync({
            entryPoints: [path.join(EDGE_FUNCTION_DIR, entry)],
            outfile: path.join(outputDir, 'index.js'),
            bundle: true,
            platform: 'node',
            target: 'node22',
            format: 'cjs',
            minify: true,
            // The Lambda runtime provides the AWS SDK v3 (the resolver reads manifests with it).
            external: ['@aws-sdk/*'],
            logLevel: 'error',
          });
          return true;
        },
      },
    },
  });
}

export class EdgeStack extends Stack {
  readonly router: cloudfront.experimental.EdgeFunction;
  readonly siteResolver: cloudfront.experimental.EdgeFunction;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    if (this.region !== EDGE_REGION) {
      throw new Error(`EdgeStack must be deployed to ${EDGE_REGION} (Lambda@Edge), got ${this.region}`);
    }
    this.router = new cloudfront.experimental.EdgeFunction(this, 'Router', {
      description: 'Origin-request router: AI-site paths to the AI-site host, the rest to the store',
      runtime: RUNTIME,
      handler: 'index.handler',
      code: edgeCode('index.ts'),
      memorySize: 128,
      timeout: Duration.seconds(5),
    });
    Validations.of(this.router).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is pinned on purpose (same runtime as the API fleet); Lambda@Edge runtime upgrades are rolled out to every customer distribution deliberately.',
    });
    Validations.of(this.router).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'Lambda@Edge writes logs to /aws/lambda/us-east-1.<name> in every region it runs in; the basic execution policy is the documented minimum for that.',
    });

    // The AI-site distribution's origin-request resolver (D179): reads release manifests from the
    // site bucket, so its role has a fixed name the bucket policy can grant (data stack).
    const resolverRole = new iam.Role(this, 'SiteResolverRole', {
      roleName: SITE_RESOLVER_ROLE_NAME,
      assumedBy: new iam.CompositePrincipal(new iam.ServicePrincipal('lambda.amazonaws.com'), new iam.ServicePrincipal('edgelambda.amazonaws.com')),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    this.siteResolver = new cloudfront.experimental.EdgeFunction(this, 'SiteResolver', {
      description: 'Origin-request resolver of the AI-site distribution: a release file to its content-addressed object',
      runtime: RUNTIME,
      handler: 'index.handler',
      code: edgeCode('ai-site-resolver.ts'),
      memorySize: 128,
      timeout: Duration.seconds(5),
      role: resolverRole,
    });
    Validations.of(this.siteResolver).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is pinned on purpose (same runtime as the API fleet and the router).',
    });
    Validations.of(resolverRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'Lambda@Edge writes logs to /aws/lambda/us-east-1.<name> in every region it runs in; the basic execution policy is the documented minimum for that.',
    });
    new CfnOutput(this, 'SiteResolverVersionArn', {
      description: 'Context ai-visibility:siteResolverVersionArn: AI-site releases reuse unchanged objects (D179)',
      value: this.siteResolver.currentVersion.edgeArn,
    });

    new CfnOutput(this, 'RouterVersionArn', {
      // The bootstrap: later code changes are published and rolled out by POST /api/domain/update-edge-function (issue 15).
      description: 'First numbered version (context ai-visibility:edgeFunctionVersionArn); new code reaches distributions through update-edge-function',
      value: this.router.currentVersion.edgeArn,
    });
  }
}
