/**
 * The HTTP API: one REST API, one Lambda per entry of the route manifest
 * (functions/routes.ts), each on its own method and resource path.
 *
 * Resource budget: a route costs 6 CloudFormation resources (function, role, policy, log
 * group, method, invoke permission; `allowTestInvoke: false` saves a 7th). To keep every
 * template far below the 500-resource cap as routes are added, the functions (4 resources
 * each) live in one nested stack per area, while the API resources, methods and
 * permissions stay in this stack. test/infra asserts each template's count.
 *
 * Secrets (D104): no secret value ever appears in the template or in the Lambda
 * configuration. API_KEY and IDP_WEBHOOK_SECRET are Secrets Manager secrets created here;
 * the provider keys are in the data stack's JSON secrets. Each route reads exactly the
 * secret groups of routeSecretGroups: its ARN variable plus secretsmanager:GetSecretValue
 * on that secret only (lib/secrets.ts); the functions read the values through
 * Container.secrets at first use.
 */
import { NestedStack, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import * as path from 'node:path';
import { ROUTES, routeId, routeKey, type RouteDef } from '../../functions/routes';
import { ApiFunction, LOG_RETENTION } from '../constructs/api-function';
import { ApiDocumentation } from '../constructs/api-documentation';
import { packageLayer } from '../constructs/package-layer';
import { externalsOf, layerPackagesOf } from '../layers';
import { grantAiSiteFieldReads, grantRateLimitCounters, grantReadWorkflow, grantSiteFiles, grantStartWorkflow, type SiteFiles } from '../grants';
import { acknowledgeTableIndexAccess } from '../nag';
import { FUNCTIONS_DIR } from '../paths';
import { grantSecretGroups, type SecretsByGroup } from '../secrets';
import { type AppSettings, commonEnvironment } from '../settings';
import type { SecretGroup } from '../../functions/core/provider-settings';

export const STAGE_NAME = 'v1';

export type RouteArea = 'Jobs' | 'App';

/** Scheduled and operator jobs (KEY routes under /api/cron and /api/manual-trigger) vs the rest. */
export function routeArea(route: Pick<RouteDef, 'path'>): RouteArea {
  return /^\/api\/(cron|manual-trigger)(\/|$)/.test(route.path) ? 'Jobs' : 'App';
}

/** Routes outside the Jobs area that call a content or AI provider (search, webmaster console). */
export const PROVIDER_ROUTES: readonly string[] = [
  'POST /api/competitor-research',
  'POST /api/domain/start-google-verification/{org_id}',
  'POST /api/domain/complete-google-verification/{org_id}',
  'POST /api/domain/resubmit-sitemap/{org_id}',
];

/** Routes that call the identity provider's or the payment provider's API. */
export const ACCOUNT_ROUTES: readonly string[] = [
  'POST /api/billing-portal',
  'GET /api/subscription-status',
  'GET /organization/{org_id}/members',
  'POST /webhooks/idp',
];

/**
 * The secret groups a route's Lambda may read (least privilege): its auth class's secret
 * (KEY: the API key, WEBHOOK: the webhook secret); the provider keys for the Jobs area
 * (the daily schedule's cron routes) and PROVIDER_ROUTES; the identity/payment keys for
 * ACCOUNT_ROUTES. Every other route reads no secret at all.
 */
export function routeSecretGroups(route: Pick<RouteDef, 'method' | 'path' | 'auth'>): SecretGroup[] {
  const key = routeKey(route);
  const groups: SecretGroup[] = [];
  if (route.auth === 'KEY') groups.push('apiKey');
  if (route.auth === 'WEBHOOK') groups.push('idpWebhook');
  if (routeArea(route) === 'Jobs' || PROVIDER_ROUTES.includes(key)) groups.push('providers');
  if (ACCOUNT_ROUTES.includes(key)) groups.push('accounts');
  return groups;
}

export function handlerEntry(route: Pick<RouteDef, 'handler'>): string {
  return path.join(FUNCTIONS_DIR, `${route.handler}.ts`);
}

export interface ApiStackProps extends StackProps {
  settings: AppSettings;
  table: dynamodb.ITableV2;
  siteFiles: SiteFiles;
  /** The provider secrets (data stack), by group. */
  secrets: SecretsByGroup;
  /** Defaults to the manifest; tests may pass a subset. */
  routes?: readonly RouteDef[];
}

export class ApiStack extends Stack {
  readonly api: apigateway.RestApi;
  readonly apiKeySecret: secretsmanager.Secret;
  readonly idpWebhookSecret: secretsmanager.Secret;
  /** Nested stack per area holding that area's functions. */
  readonly functionStacks = new Map<RouteArea, NestedStack>();
  /** Function per route, keyed by `routeKey` ("GET /health"). */
  readonly routeFunctions = new Map<string, ApiFunction>();

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const routes = props.routes ?? ROUTES;

    this.apiKeySecret = new secretsmanager.Secret(this, 'ApiKeySecret', {
      description: 'X-API-Key for KEY operations (scheduler, operators); generated at creation',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(this.apiKeySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'A shared key held by external callers (scheduler, operators): rotating it is a coordinated manual change, not a Lambda rotation.',
    });
    this.idpWebhookSecret = new secretsmanager.Secret(this, 'IdpWebhookSecret', {
      description: 'Standard Webhooks signing secret (whsec_...) issued by the identity provider; set its value after the first deploy',
    });
    Validations.of(this.idpWebhookSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The identity provider issues and rotates this signing secret; the new value is pasted here, it cannot be rotated from AWS.',
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: LOG_RETENTION });
    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: `${this.stackName}-api`,
      description: 'AI visibility service HTTP API (one Lambda per route of functions/routes.ts)',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      cloudWatchRole: true,
      deployOptions: {
        stageName: STAGE_NAME,
        throttlingRateLimit: props.settings.apiThrottleRate,
        throttlingBurstLimit: props.settings.apiThrottleBurst,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        metricsEnabled: true,
        tracingEnabled: true,
      },
    });
    const documentation = new ApiDocumentation(this, 'Documentation', { api: this.api, routes });
    (this.api.deploymentStage.node.defaultChild as apigateway.CfnStage).documentationVersion = documentation.version;
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason: 'Requests are validated in each Lambda by zod schemas (functions/http middleware), which also give the spec\'s error bodies.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'Auth is per route class in the Lambda middleware (JWT via JWKS, X-API-Key in constant time, Standard Webhooks signatures, or PUBLIC by spec), shared with the local runtime.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-COG4',
      reason: 'Users come from an external identity provider (JWKS-verified JWTs), not Cognito.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason: 'Abuse control is stage throttling plus the shared DynamoDB rate limiter on public routes; raw-body webhook routes would need WAF body-inspection exceptions. Revisit with traffic.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The account-level API Gateway logging role; this AWS managed policy is the documented way to let API Gateway write execution logs.',
    });

    const resources = new Map<string, apigateway.IResource>([['/', this.api.root]]);
    const resourceFor = (routePath: string): apigateway.IResource => {
      let current = this.api.root;
      let sofar = '';
      for (const segment of routePath.split('/').filter(Boolean)) {
        sofar += `/${segment}`;
        let next = resources.get(sofar);
        if (!next) {
          next = current.addResource(segment);
          resources.set(sofar, next);
        }
        current = next;
      }
      return current;
    };

    const baseEnv = commonEnvironment(props.settings, props.table.tableName);
    const secrets: SecretsByGroup = { ...props.secrets, apiKey: this.apiKeySecret, idpWebhook: this.idpWebhookSecret };
    for (const route of routes) {
      const area = routeArea(route);
      let functionStack = this.functionStacks.get(area);
      if (!functionStack) {
        functionStack = new NestedStack(this, `${area}Functions`, {
          description: `Lambda functions of the ${area} routes`,
        });
        this.functionStacks.set(area, functionStack);
      }

      const key = routeKey(route);
      // Packages too big for a route bundle (stripe) come from a layer of the area's stack (lib/layers.ts).
      const layerPackages = layerPackagesOf(route);
      const fn = new ApiFunction(functionStack, routeId(route), {
        entry: handlerEntry(route),
        description: key,
        timeoutSeconds: route.timeoutSeconds,
        environment: baseEnv,
        externalModules: externalsOf(layerPackages),
        layers: layerPackages.map((pkg) => packageLayer(functionStack, pkg)),
      });
      // Every auth class touches the table (rate limiter, repositories): GET routes read only,
      // plus the rate-limit counters when the route is limited.
      if (route.method === 'GET') {
        props.table.grantReadData(fn);
        if (route.rateLimit) grantRateLimitCounters(fn, props.table);
      } else {
        props.table.grantReadWriteData(fn);
      }
      acknowledgeTableIndexAccess(fn.serviceRole, props.table);
      grantSecretGroups(fn, secrets, routeSecretGroups(route));
      if (route.startsWorkflow) grantStartWorkflow(fn, route.startsWorkflow);
      if (route.readsWorkflow) grantReadWorkflow(fn, route.readsWorkflow);
      if (route.writesSiteFiles) grantSiteFiles(fn, props.siteFiles);
      else grantAiSiteFieldReads(fn, props.siteFiles);
      this.routeFunctions.set(key, fn);

      resourceFor(route.path).addMethod(
        route.method,
        new apigateway.LambdaIntegration(fn, { allowTestInvoke: false }),
      );
    }
  }
}
