/**
 * Logs and metrics the AWS way (issue 26, D172): every Lambda loads Powertools for AWS Lambda
 * from the fleet's layer (lib/layers.ts). The handler test bundles a real route exactly as the
 * CDK app does, runs it in a separate Node process that can reach Powertools only through the
 * layer's directory (NODE_PATH=/opt/nodejs/node_modules on Lambda, before the runtime's AWS SDK), invokes it twice with a
 * Lambda context, and reads what CloudWatch would: one structured JSON line per event with the
 * correlation id and the cold-start flag, and the invocation's metrics as an EMF blob.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { bundleModule } from '../../bench/bundle';
import { ROUTES, routeKey } from '../../functions/routes';
import { buildPackageLayer, FLEET_LAYERS } from '../../lib/layers';
import { settingsFromContext } from '../../lib/settings';
import { ApiStack } from '../../lib/stacks/api-stack';
import { DataStack } from '../../lib/stacks/data-stack';
import { ofType, testApp } from './helpers';

const SECRET = 'whsec_' + Buffer.from('powertools-layer-test-secret-32b').toString('base64');

let outDir: string;
beforeAll(() => { outDir = mkdtempSync(join(tmpdir(), 'aivis-powertools-')); });
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

test('the layer holds Logger, Metrics and what they require, and nothing else', () => {
  const layer = buildPackageLayer('powertools');
  expect(layer.version).toMatch(/^2\.\d+\.\d+$/);
  const probe = spawnSync(process.execPath, ['-e', `
    for (const m of ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics']) require(m);
    console.log(Object.keys(require.cache).filter((f) => !f.startsWith(process.env.NODE_PATH)).length);
  `], { cwd: outDir, env: { PATH: process.env.PATH, NODE_PATH: layer.nodeModulesDir }, encoding: 'utf8' });
  expect(probe.stderr).toBe('');
  expect(probe.stdout.trim()).toBe('0'); // every module it loaded came from the layer
});

test('every function of the API stack attaches the layer first', () => {
  const app = testApp();
  const settings = settingsFromContext(app.node);
  const data = new DataStack(app, 'PowertoolsTestData', { settings });
  const api = new ApiStack(app, 'PowertoolsTestApi', {
    settings, table: data.table, siteFiles: { bucket: data.siteBucket, releases: data.siteReleases }, secrets: data.secrets,
    routes: ROUTES.filter((r) => ['GET /health', 'POST /webhooks/idp', 'GET /api/subscription-status'].includes(routeKey(r))),
  });
  for (const stack of api.functionStacks.values()) {
    const template = Template.fromStack(stack);
    const layers = ofType(template, 'AWS::Lambda::LayerVersion');
    const powertools = Object.entries(layers).find(([, l]) => /^powertools@/.test(l.Properties?.Description))?.[0];
    expect(powertools).toBeDefined();
    for (const fn of Object.values(ofType(template, 'AWS::Lambda::Function'))) {
      expect(fn.Properties?.Layers[0]).toEqual({ Ref: powertools });
    }
  }
});

test('a Lambda invocation writes one structured line with the correlation id and cold start, and its metrics as EMF', async () => {
  const route = ROUTES.find((r) => routeKey(r) === 'POST /webhooks/idp')!;
  const bundle = await bundleModule(route.handler, join(__dirname, '..', '..', 'functions', `${route.handler}.ts`), outDir, 'api', [...FLEET_LAYERS]);
  // The logger on its own, bundled the same way: a vendor error echoing a secret goes through it below.
  const logger = await bundleModule('logger', join(__dirname, '..', '..', 'functions', 'logger.ts'), outDir, 'api', [...FLEET_LAYERS]);
  const runner = join(outDir, 'invoke.js');
  writeFileSync(runner, `
    const { handler } = require(${JSON.stringify(bundle.outfile)});
    const event = (id) => ({
      httpMethod: 'POST', resource: '/webhooks/idp', path: '/webhooks/idp', isBase64Encoded: false,
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: JSON.stringify({ type: 'organization.created', data: { slug: 'acme' } }),
      requestContext: { requestId: id, identity: { sourceIp: '203.0.113.9' } },
    });
    const context = (id) => ({ awsRequestId: 'lambda-' + id, functionName: 'IdpWebhook', functionVersion: '$LATEST', memoryLimitInMB: '512',
      invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:IdpWebhook', getRemainingTimeInMillis: () => 29000 });
    (async () => {
      for (const id of ['req-cold', 'req-warm']) {
        const res = await handler(event(id), context(id));
        process.stdout.write(JSON.stringify({ answered: res.statusCode }) + '\\n');
      }
      require(${JSON.stringify(logger.outfile)}).createLogger({ task: 'probe' })
        .warn('vendor refused', { api_key: process.env.IDP_WEBHOOK_SECRET, reason: 'upstream echoed ' + process.env.IDP_WEBHOOK_SECRET });
    })().catch((err) => { console.error(err); process.exit(1); });
  `);
  // The Lambda runtime's own node_modules provides the AWS SDK v3 (left out of every bundle).
  const runtimeModules = join(outDir, 'var-runtime', 'node_modules');
  mkdirSync(runtimeModules, { recursive: true });
  symlinkSync(join(__dirname, '..', '..', 'node_modules', '@aws-sdk'), join(runtimeModules, '@aws-sdk'));
  const run = spawnSync(process.execPath, [runner], {
    cwd: outDir, encoding: 'utf8',
    env: {
      PATH: process.env.PATH, NODE_PATH: [buildPackageLayer('powertools').nodeModulesDir, runtimeModules].join(':'),
      // What Lambda's runtime sets; NODE_NO_WARNINGS: the SDK's notice about Node 20 (Lambda runs 22).
      AWS_LAMBDA_FUNCTION_NAME: 'IdpWebhook', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand', AWS_REGION: 'eu-central-1', NODE_NO_WARNINGS: '1', LOG_LEVEL: 'info',
      IDP_WEBHOOK_SECRET: SECRET, TABLE_NAME: 'ai-visibility',
    },
  });
  expect(run.status).toBe(0);
  // Warnings and errors go to stderr, the rest to stdout: CloudWatch Logs receives both.
  const output = `${run.stdout}${run.stderr}`;
  const lines = output.trim().split('\n').map((line) => JSON.parse(line));
  expect(lines.filter((l) => 'answered' in l)).toEqual([{ answered: 401 }, { answered: 401 }]);

  const failures = lines.filter((l) => l.message === 'request failed');
  expect(failures).toHaveLength(2);
  expect(failures[0]).toMatchObject({
    level: 'WARN', service: 'ai-visibility', correlation_id: 'req-cold', request_id: 'req-cold', cold_start: true,
    function_name: 'IdpWebhook', function_request_id: 'lambda-req-cold', route: 'POST /webhooks/idp', status: 401,
  });
  expect(failures[1]).toMatchObject({ correlation_id: 'req-warm', cold_start: false, function_request_id: 'lambda-req-warm' });

  const emf = lines.filter((l) => l._aws);
  expect(emf).toHaveLength(2); // one blob per invocation
  expect(emf[0]._aws.CloudWatchMetrics).toEqual([{ Namespace: 'AiVisibility', Dimensions: [['service', 'reason']], Metrics: [{ Name: 'WebhookRejections', Unit: 'Count' }] }]);
  expect(emf[0]).toMatchObject({ service: 'ai-visibility', reason: 'bad-signature', WebhookRejections: 1, correlation_id: 'req-cold' });
  // A secret under a secret-looking key, and one inside a message, are masked before Powertools writes the line.
  expect(lines.filter((l) => l.message === 'vendor refused')).toEqual([expect.objectContaining({
    level: 'WARN', service: 'ai-visibility', task: 'probe', api_key: '[redacted]', reason: 'upstream echoed whsec_[redacted]',
  })]);
  expect(output).not.toContain(SECRET.slice(6));
}, 60_000);
