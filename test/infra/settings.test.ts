/**
 * Provider settings and secrets on AWS (D104): context values reach the Lambdas as the
 * variables the local runtime reads, secret values never reach any environment, and each
 * Lambda may read exactly the secret groups it needs.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { loadConfig } from '../../functions/config';
import {
  PROVIDER_SETTINGS, SECRET_ENTRIES, SECRET_GROUP_NAMES, SECRET_GROUPS, SECRET_NAMES, SETTING_ENTRIES, type SecretGroup,
} from '../../functions/core/provider-settings';
import { ROUTES, routeKey } from '../../functions/routes';
import { ACCOUNT_ROUTES, PROVIDER_ROUTES, routeSecretGroups } from '../../lib/stacks/api-stack';
import { TASK_SECRET_GROUPS } from '../../lib/stacks/workflow-stack';
import { CONTEXT_PREFIX, settingsFromContext } from '../../lib/settings';
import { asArray, buildTestService, type CfnResource, ofType, roleOf, statementsOfRole } from './helpers';

/** Settings whose value is not a URL, with a valid sample. */
const SAMPLE_VALUES: Record<string, string> = {
  EDGE_PROPAGATION_WAIT_SECONDS: '12',
  VERIFICATION_POLL_SECONDS: '10',
  NATIVE_CERTIFICATE_WAIT_SECONDS: '300',
  APEX_GATEWAY_IPS: '192.0.2.1,192.0.2.2',
  ACME_DNS_ZONE_ID: 'Z0ACMEZONE000001',
  ACME_DNS_ZONE_NAME: 'acme.example.com',
  PLATFORM_CONCURRENCY: '3',
  PLATFORM_RATE_PER_MINUTE: '30',
  PLATFORM_DAILY_BUDGET: '500',
  VISIBILITY_BATCHES: '1,2',
  PLATFORM_3_VERTEX_PROJECT: 'shop-visibility-7',
  VISIBILITY_BATCH_POLL_SECONDS: '300',
};

/** A value for every provider setting, as `-c ai-visibility:<key>=...` would give it. */
const CONTEXT: Record<string, string> = Object.fromEntries(SETTING_ENTRIES.map((e) => [
  `${CONTEXT_PREFIX}${e.context}`,
  SAMPLE_VALUES[e.env] ?? `https://${e.context.toLowerCase()}.example`,
]));

interface Lambda { stack: string; id: string; fn: CfnResource; template: Template }

let lambdas: Lambda[];
let dataTemplate: Template;
let apiTemplate: Template;

beforeAll(() => {
  const { stacks } = buildTestService({ context: CONTEXT });
  dataTemplate = Template.fromStack(stacks.data);
  apiTemplate = Template.fromStack(stacks.api);
  const all = [
    ['api', apiTemplate] as const,
    ...[...stacks.api.functionStacks.values()].map((s) => ['api', Template.fromStack(s)] as const),
    ['workflow', Template.fromStack(stacks.workflow)] as const,
  ];
  lambdas = all.flatMap(([stack, template]) => Object.entries(ofType(template, 'AWS::Lambda::Function')).map(([id, fn]) => ({ stack, id, fn, template })));
});

const envOf = (l: Lambda) => (l.fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
const tasks = () => lambdas.filter((l) => l.stack === 'workflow');
const routeLambda = (key: string) => {
  const found = lambdas.filter((l) => l.fn.Properties?.Description === key);
  expect(found).toHaveLength(1);
  return found[0];
};

/** Logical ids of the secrets a Lambda's role may GetSecretValue on (by the `Ref`/import it names). */
function readableSecrets(l: Lambda): string[] {
  return statementsOfRole(l.template, roleOf(l.fn))
    .filter((st) => asArray(st.Action).includes('secretsmanager:GetSecretValue'))
    .flatMap((st) => asArray(st.Resource as unknown))
    .map((r) => JSON.stringify(r));
}

/** Which groups a Lambda's environment names (by ARN variable). */
function groupsInEnvironment(l: Lambda): SecretGroup[] {
  const env = envOf(l);
  return SECRET_GROUP_NAMES.filter((g) => SECRET_GROUPS[g].arnVariable in env);
}

describe('the provider table', () => {
  test('names are unique, every setting has its own context key, every secret a group', () => {
    const envs = PROVIDER_SETTINGS.map((e) => e.env);
    expect(new Set(envs).size).toBe(envs.length);
    const contexts = SETTING_ENTRIES.map((e) => e.context.toLowerCase());
    expect(new Set(contexts).size).toBe(contexts.length);
    for (const e of SECRET_ENTRIES) expect(SECRET_GROUP_NAMES).toContain(e.group);
    // A single-value secret holds exactly one setting.
    for (const g of SECRET_GROUP_NAMES.filter((g) => SECRET_GROUPS[g].format === 'string')) {
      expect(SECRET_ENTRIES.filter((e) => e.group === g)).toHaveLength(1);
    }
  });

  test('the route lists name routes of the manifest', () => {
    const keys = ROUTES.map(routeKey);
    expect([...PROVIDER_ROUTES, ...ACCOUNT_ROUTES].filter((k) => !keys.includes(k))).toEqual([]);
  });
});

describe('provider settings from context', () => {
  test('a context value reaches every task Lambda and every route Lambda under the local variable name', () => {
    const { stacks } = buildTestService({ context: { 'ai-visibility:llmBaseUrl': 'https://llm.example' } });
    const fns = [stacks.workflow, ...stacks.api.functionStacks.values()]
      .flatMap((s) => Object.values(ofType(Template.fromStack(s), 'AWS::Lambda::Function')));
    expect(fns.length).toBeGreaterThan(ROUTES.length);
    for (const fn of fns) expect(fn.Properties!.Environment.Variables.LLM_BASE_URL).toBe('https://llm.example');
  });

  test('every setting of the table arrives, and the functions read it back into their config', () => {
    for (const l of tasks()) {
      const env = envOf(l);
      for (const e of SETTING_ENTRIES) expect({ id: l.id, [e.env]: env[e.env] }).toEqual({ id: l.id, [e.env]: CONTEXT[`${CONTEXT_PREFIX}${e.context}`] });
    }
    const config = loadConfig(envOf(tasks()[0]) as Record<string, string>);
    expect(config.llm.baseUrl).toBe('https://llmbaseurl.example');
    expect(config.search.apiUrl).toBe('https://searchapiurl.example');
    expect(config.platforms[7]).toMatchObject({ n: 8, apiUrl: 'https://platform8apiurl.example' });
    expect(config.cdn.apexGatewayIps).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(config.edgePropagationWaitSeconds).toBe(12);
  });

  test('unset settings are not in the environment at all', () => {
    const { stacks } = buildTestService();
    for (const fn of Object.values(ofType(Template.fromStack(stacks.workflow), 'AWS::Lambda::Function'))) {
      for (const e of SETTING_ENTRIES) expect(fn.Properties!.Environment.Variables).not.toHaveProperty(e.env);
    }
  });

  test('a secret given as context is refused, naming where it belongs', () => {
    const app = new App({ context: { 'ai-visibility:llmApiKey': 'sk-123' } });
    expect(() => settingsFromContext(app.node)).toThrow(/LLM_API_KEY is a secret.*providers group/);
    const platform = new App({ context: { 'ai-visibility:platform3ApiKey': 'x' } });
    expect(() => settingsFromContext(platform.node)).toThrow(/PLATFORM_3_API_KEY/);
  });

  test('a bad value fails synth with its context key', () => {
    const app = new App({ context: { 'ai-visibility:edgePropagationWaitSeconds': 'soon' } });
    expect(() => settingsFromContext(app.node)).toThrow(/ai-visibility:edgePropagationWaitSeconds: EDGE_PROPAGATION_WAIT_SECONDS must be/);
  });
});

describe('secrets', () => {
  test('no secret is ever a Lambda environment variable (only the ARNs of their secrets are)', () => {
    for (const l of lambdas) {
      const env = envOf(l);
      expect({ id: l.id, secrets: SECRET_NAMES.filter((n) => n in env) }).toEqual({ id: l.id, secrets: [] });
    }
  });

  test('the JSON secrets are created empty ({}) under their fixed names and kept on stack deletion', () => {
    const secrets = ofType(dataTemplate, 'AWS::SecretsManager::Secret');
    const json = SECRET_GROUP_NAMES.filter((g) => SECRET_GROUPS[g].format === 'json');
    expect(Object.values(secrets).map((s) => s.Properties!.Name).sort()).toEqual(json.map((g) => SECRET_GROUPS[g].secretName).sort());
    for (const s of Object.values(secrets)) {
      expect(s.Properties!.SecretString).toBe('{}');
      expect(s.Properties!.GenerateSecretString).toBeUndefined();
      expect(s.DeletionPolicy).toBe('Retain');
    }
  });

  test('every task Lambda reads the provider secret, and no other', () => {
    expect(tasks().length).toBeGreaterThan(0);
    for (const l of tasks()) {
      expect({ id: l.id, groups: groupsInEnvironment(l) }).toEqual({ id: l.id, groups: [...TASK_SECRET_GROUPS] });
      const readable = readableSecrets(l);
      expect(readable).toHaveLength(1);
      expect(readable[0]).toMatch(/ProvidersSecret/);
    }
  });

  test('each route reads exactly its secret groups', () => {
    for (const route of ROUTES) {
      const l = routeLambda(routeKey(route));
      const groups = routeSecretGroups(route);
      expect({ route: routeKey(route), groups: groupsInEnvironment(l).sort() }).toEqual({ route: routeKey(route), groups: [...groups].sort() });
      expect({ route: routeKey(route), reads: readableSecrets(l).length }).toEqual({ route: routeKey(route), reads: groups.length });
    }
    expect(routeSecretGroups({ method: 'POST', path: '/api/competitor-research', auth: 'PUBLIC' })).toEqual(['providers']);
    expect(routeSecretGroups({ method: 'POST', path: '/api/cron/analyze-visibility', auth: 'KEY' })).toEqual(['apiKey', 'providers']);
    expect(routeSecretGroups({ method: 'GET', path: '/api/products/{business_id}', auth: 'JWT' })).toEqual([]);
    expect(routeSecretGroups({ method: 'POST', path: '/webhooks/idp', auth: 'WEBHOOK' })).toEqual(['idpWebhook', 'accounts']);
  });

  test('the API stack keeps its two single-value secrets', () => {
    expect(Object.keys(ofType(apiTemplate, 'AWS::SecretsManager::Secret'))).toHaveLength(2);
  });
});
