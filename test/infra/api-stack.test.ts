import { Match, Template } from 'aws-cdk-lib/assertions';
import * as fs from 'node:fs';
import { ROUTES, routeKey } from '../../functions/routes';
import { OPENAPI_DOCUMENT } from '../../lib/constructs/api-documentation';
import { handlerEntry, routeArea, routeSecretGroups, STAGE_NAME } from '../../lib/stacks/api-stack';
import { asArray, buildTestService, type CfnResource, ofType, type Resources, roleOf, statementsOfRole } from './helpers';

/** Resource budget per template (CloudFormation's hard cap is 500). */
const RESOURCE_BUDGET = 450;

let parent: Template;
let nested: Template[];
let allFunctions: Resources;

beforeAll(() => {
  const { stacks } = buildTestService();
  parent = Template.fromStack(stacks.api);
  nested = [...stacks.api.functionStacks.values()].map((s) => Template.fromStack(s));
  allFunctions = Object.assign({}, ...[parent, ...nested].map((t) => ofType(t, 'AWS::Lambda::Function')));
});

/** `METHOD /path` of every API Gateway method, rebuilt from PathPart/ParentId chains. */
function methodKeys(template: Template): string[] {
  const resources = ofType(template, 'AWS::ApiGateway::Resource');
  const pathOf = (ref: unknown): string => {
    const r = ref as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
    if (r['Fn::GetAtt']?.[1] === 'RootResourceId') return '';
    const resource = resources[r.Ref as string];
    if (!resource) throw new Error(`unknown resource ${JSON.stringify(ref)}`);
    return `${pathOf(resource.Properties!.ParentId)}/${resource.Properties!.PathPart}`;
  };
  return Object.values(ofType(template, 'AWS::ApiGateway::Method')).map(
    (m) => `${m.Properties!.HttpMethod} ${pathOf(m.Properties!.ResourceId) || '/'}`,
  );
}

function functionOfRoute(key: string): [string, CfnResource] {
  const found = Object.entries(allFunctions).filter(([, fn]) => fn.Properties?.Description === key);
  expect(found).toHaveLength(1);
  return found[0];
}

function templateOfFunction(logicalId: string): Template {
  const t = nested.find((n) => ofType(n, 'AWS::Lambda::Function')[logicalId]);
  if (!t) throw new Error(`no template holds ${logicalId}`);
  return t;
}

describe('API stack', () => {
  test('exactly one Lambda function per manifest route (and no others)', () => {
    // The API stack creates no non-route functions (explicit log groups: no LogRetention handler).
    const nonRouteFunctions = 0;
    expect(Object.keys(allFunctions)).toHaveLength(ROUTES.length + nonRouteFunctions);
    const descriptions = Object.values(allFunctions).map((fn) => fn.Properties?.Description).sort();
    expect(descriptions).toEqual(ROUTES.map(routeKey).sort());
  });

  test('every handler module of the manifest exists', () => {
    const missing = ROUTES.filter((r) => !fs.existsSync(handlerEntry(r))).map((r) => `${routeKey(r)} -> ${r.handler}`);
    expect(missing).toEqual([]);
  });

  test('every route is a method with its HTTP method on its resource path', () => {
    const keys = methodKeys(parent);
    expect(keys.sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  test('each method is a Lambda proxy integration of the function built for that route', () => {
    const outputs = new Map<string, string>();
    for (const t of nested) {
      for (const [name, output] of Object.entries((t.toJSON().Outputs ?? {}) as Record<string, { Value: any }>)) {
        const target = output.Value?.['Fn::GetAtt'];
        if (target?.[1] === 'Arn') outputs.set(name, target[0]);
      }
    }
    const keys = methodKeys(parent);
    Object.values(ofType(parent, 'AWS::ApiGateway::Method')).forEach((method, i) => {
      const integration = method.Properties!.Integration;
      expect(integration.Type).toBe('AWS_PROXY');
      expect(integration.IntegrationHttpMethod).toBe('POST');
      const uri = JSON.stringify(integration.Uri);
      const outputName = /"Outputs\.([A-Za-z0-9]+)"/.exec(uri)?.[1];
      expect(outputName).toBeDefined();
      const fnLogicalId = outputs.get(outputName!);
      expect(fnLogicalId).toBeDefined();
      expect(allFunctions[fnLogicalId!].Properties?.Description).toBe(keys[i]);
    });
  });

  test('one invoke permission per method: test-invoke permissions are off', () => {
    expect(Object.keys(ofType(parent, 'AWS::Lambda::Permission'))).toHaveLength(ROUTES.length);
  });

  test('fleet defaults on every function', () => {
    for (const [id, fn] of Object.entries(allFunctions)) {
      const route = ROUTES.find((r) => routeKey(r) === fn.Properties!.Description)!;
      expect({ id, ...fn.Properties }).toMatchObject({
        id,
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: route.timeoutSeconds ?? 29,
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
      });
      expect(fn.Properties!.LoggingConfig?.LogGroup?.Ref).toBeDefined();
    }
    for (const t of nested) {
      for (const lg of Object.values(ofType(t, 'AWS::Logs::LogGroup'))) expect(lg.Properties?.RetentionInDays).toBe(30);
    }
  });

  test('functions are spread over one nested stack per area', () => {
    const areas = new Set(ROUTES.map(routeArea));
    expect(nested).toHaveLength(areas.size);
    const perTemplate = nested.map((t) => Object.keys(ofType(t, 'AWS::Lambda::Function')).length);
    expect(perTemplate.reduce((a, b) => a + b, 0)).toBe(ROUTES.length);
  });

  test(`every template stays within the ${RESOURCE_BUDGET}-resource budget`, () => {
    const counts = [parent, ...nested].map((t) => Object.keys(t.toJSON().Resources).length);
    for (const count of counts) expect(count).toBeLessThanOrEqual(RESOURCE_BUDGET);
  });

  test('no IAM statement grants dynamodb with Action * or Resource *', () => {
    for (const t of [parent, ...nested]) {
      for (const policy of Object.values(ofType(t, 'AWS::IAM::Policy'))) {
        for (const st of policy.Properties!.PolicyDocument.Statement) {
          const actions = asArray<string>(st.Action);
          const resources = asArray<unknown>(st.Resource);
          expect(actions).not.toContain('*');
          expect(actions).not.toContain('dynamodb:*');
          if (actions.some((a) => a.startsWith('dynamodb:'))) expect(resources).not.toContain('*');
        }
      }
    }
  });

  test('GET routes only read the table (rate-limited ones may bump their RATE# counters); the others may also write', () => {
    const readOnly = /^dynamodb:(BatchGetItem|ConditionCheckItem|DescribeTable|GetItem|GetRecords|GetShardIterator|Query|Scan)$/;
    for (const route of ROUTES) {
      const [id, fn] = functionOfRoute(routeKey(route));
      const statements = statementsOfRole(templateOfFunction(id), roleOf(fn));
      const counterOnly = (st: object) =>
        JSON.stringify((st as { Condition?: Record<string, Record<string, unknown>> }).Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']) === '["RATE#*"]';
      const actions = statements.filter((st) => !counterOnly(st))
        .flatMap((st) => asArray(st.Action))
        .filter((a) => a.startsWith('dynamodb:'));
      expect(actions.length).toBeGreaterThan(0);
      expect(statements.some(counterOnly)).toBe(route.method === 'GET' && Boolean(route.rateLimit));
      if (route.method === 'GET') {
        expect(actions.filter((a) => !readOnly.test(a))).toEqual([]);
      } else {
        expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
      }
    }
  });

  test('secrets are referenced by ARN and readable only by the routes that need them', () => {
    const templatesJson = JSON.stringify([parent, ...nested].map((t) => t.toJSON()));
    expect(templatesJson).not.toMatch(/"API_KEY"|"IDP_WEBHOOK_SECRET"/);
    expect(Object.keys(ofType(parent, 'AWS::SecretsManager::Secret'))).toHaveLength(2);
    for (const route of ROUTES) {
      const [id, fn] = functionOfRoute(routeKey(route));
      const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
      const readsSecrets = statementsOfRole(templateOfFunction(id), roleOf(fn))
        .some((st) => asArray(st.Action).includes('secretsmanager:GetSecretValue'));
      expect({ route: routeKey(route), key: 'API_KEY_SECRET_ARN' in env }).toEqual({ route: routeKey(route), key: route.auth === 'KEY' });
      expect('IDP_WEBHOOK_SECRET_ARN' in env).toBe(route.auth === 'WEBHOOK');
      // Provider and account keys too, where the route calls those providers (test/infra/settings.test.ts).
      expect(readsSecrets).toBe(routeSecretGroups(route).length > 0);
      expect(env.TABLE_NAME).toBeDefined();
      expect(env.AI_SITE_DOMAIN).toBeDefined();
      expect(env.ARTICLE_QUOTA_POLICY).toBe('one-time-burst');
      expect(env.LOG_LEVEL).toBe('info');
    }
  });

  test('only the AI-site writer routes write the site bucket; the others may only read the AI-site record\'s lists kept there (D39)', () => {
    for (const route of ROUTES) {
      const [id, fn] = functionOfRoute(routeKey(route));
      const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
      const statements = statementsOfRole(templateOfFunction(id), roleOf(fn)).filter((st) => asArray(st.Action).some((a) => a.startsWith('s3:')));
      const s3Actions = statements.flatMap((st) => asArray(st.Action));
      const writer = route.writesSiteFiles === true;
      expect('SITES_BUCKET' in env).toBe(true);
      expect(s3Actions.sort()).toEqual(writer ? ['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject'] : ['s3:GetObject']);
      if (!writer) expect(JSON.stringify(statements[0]!.Resource)).toContain('/artifacts/ai-site-fields/*');
    }
  });

  test('stage: throttling, access logs, execution logs and tracing', () => {
    parent.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: STAGE_NAME,
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: [Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100, LoggingLevel: 'ERROR', MetricsEnabled: true })],
    });
    expect(Object.keys(ofType(parent, 'AWS::ApiGateway::RestApi'))).toHaveLength(1);
  });

  test('the stage publishes docs/openapi.json as API documentation: the API and every method, in one version', () => {
    const document = JSON.parse(fs.readFileSync(OPENAPI_DOCUMENT, 'utf8'));
    const parts = Object.values(ofType(parent, 'AWS::ApiGateway::DocumentationPart')).map((p) => ({ ...p.Properties!.Location, properties: JSON.parse(p.Properties!.Properties) }));
    expect(parts.filter((p) => p.Type === 'API')).toEqual([{ Type: 'API', properties: { info: document.info } }]);
    const methods = parts.filter((p) => p.Type === 'METHOD');
    expect(methods.map((p) => `${p.Method} ${p.Path}`).sort()).toEqual(ROUTES.map(routeKey).sort());
    const health = methods.find((p) => p.Path === '/health')!;
    expect(health.properties).toEqual({ summary: document.paths['/health'].get.summary, tags: ['health'], operationId: 'getHealth' });

    const [[versionId, version]] = Object.entries(ofType(parent, 'AWS::ApiGateway::DocumentationVersion'));
    expect(version.Properties!.DocumentationVersion).toMatch(new RegExp(`^${document.info.version.replace(/\./g, '\\.')}-[0-9a-f]{12}$`));
    expect((version as { DependsOn?: string[] }).DependsOn).toHaveLength(parts.length);
    const [stage] = Object.values(ofType(parent, 'AWS::ApiGateway::Stage')) as Array<CfnResource & { DependsOn?: string[] }>;
    expect(stage.Properties!.DocumentationVersion).toBe(version.Properties!.DocumentationVersion);
    expect(stage.DependsOn).toContain(versionId);
  });
});
