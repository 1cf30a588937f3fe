/**
 * The fleet's Lambda defaults in one place (the Powertools "construct that holds fleet
 * defaults" idea): Node.js 22 on arm64, an explicit log group with retention, X-Ray
 * tracing, 512 MB, esbuild bundling with minification and source maps, and the AWS SDK v3
 * left to the runtime.
 *
 * Each function gets its own role whose only built-in permission is writing to its own log
 * group (no AWSLambdaBasicExecutionRole managed policy, whose logs:* actions cover every log
 * group); callers add data grants (table, bucket, secrets) per function.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { externalsOf, FLEET_LAYERS } from '../layers';
import { LOCK_FILE, PROJECT_ROOT } from '../paths';
import { packageLayer } from './package-layer';
import { RUNTIME } from './runtime';

export const DEFAULT_TIMEOUT_SECONDS = 29;
export const DEFAULT_MEMORY_MB = 512;
export const LOG_RETENTION = logs.RetentionDays.ONE_MONTH;

export interface ApiFunctionProps {
  /** Absolute path of the TypeScript module exporting `handler`. */
  entry: string;
  description?: string;
  /** Defaults to 29 s, the API Gateway integration limit. */
  timeoutSeconds?: number;
  memorySize?: number;
  environment?: Record<string, string>;
  /** Packages left out of the bundle besides `@aws-sdk/*` (the runtime's) and Powertools; they must come from `layers`. */
  externalModules?: string[];
  layers?: lambda.ILayerVersion[];
}

export class ApiFunction extends nodejs.NodejsFunction {
  readonly serviceRole: iam.Role;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    // Created beside the function (not inside it) because they are needed before super().
    const logGroup = new logs.LogGroup(scope, `${id}LogGroup`, { retention: LOG_RETENTION });
    const role = new iam.Role(scope, `${id}ServiceRole`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${id}`,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? DEFAULT_MEMORY_MB,
      timeout: Duration.seconds(props.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      role,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: LOCK_FILE,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      // Powertools (logs and metrics) comes from a layer every function attaches (lib/layers.ts).
      layers: [...FLEET_LAYERS.map((pkg) => packageLayer(scope, pkg)), ...(props.layers ?? [])],
      bundling: {
        minify: true,
        sourceMap: true,
        externalModules: ['@aws-sdk/*', ...externalsOf(FLEET_LAYERS), ...(props.externalModules ?? [])],
        target: 'node22',
      },
    });
    this.serviceRole = role;

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is pinned on purpose: the code is also run on Node 20/22 locally and in CI; moving to a newer runtime is a deliberate fleet-wide change.',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active X-Ray tracing needs xray:PutTraceSegments/PutTelemetryRecords, which support no resource-level permissions.',
    });
  }
}
