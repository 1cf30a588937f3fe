import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { loadConfig } from '../../functions/config';
import { buildContainer, secretsPending } from '../../functions/container';
import { scraperOf } from '../../functions/engines/scraper';
import { setLogSink } from '../../functions/logger';

const sm = mockClient(SecretsManagerClient);
beforeEach(() => sm.reset());

/** The adapter caches per ARN for the life of the process (a cold start): one ARN per test. */
let n = 0;
const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:1:secret:${name}-${++n}`;
/** A Lambda's environment: on AWS only ARNs, never values. */
const onAws = (vars: Record<string, string>) => loadConfig({ AWS_LAMBDA_FUNCTION_NAME: 'fn', ...vars });
const notFound = () => new ResourceNotFoundException({ message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT", $metadata: {} });

test('on AWS the API key is read from Secrets Manager once, and a failed read is retried next time', async () => {
  const key = arn('key');
  sm.on(GetSecretValueCommand, { SecretId: key })
    .rejectsOnce(new Error('throttled'))
    .resolves({ SecretString: 'the-real-key' });
  const container = buildContainer(loadConfig({ API_KEY_SECRET_ARN: key }));
  await expect(container.secrets.apiKey()).rejects.toThrow('throttled');
  expect(await container.secrets.apiKey()).toBe('the-real-key');
  expect(await container.secrets.apiKey()).toBe('the-real-key');
  expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
});

test('locally the value comes from the environment and no AWS call is made', async () => {
  const container = buildContainer(loadConfig({ API_KEY: 'local-key', API_KEY_SECRET_ARN: 'arn:x' }));
  expect(await container.secrets.apiKey()).toBe('local-key');
  expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
});

describe('provider secrets (one JSON secret per group)', () => {
  test('a present key is read from the JSON object; a missing or empty one is undefined; one read serves them all', async () => {
    const providers = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: providers })
      .resolves({ SecretString: JSON.stringify({ LLM_API_KEY: 'sk-llm', SEARCH_API_KEY: ' brave-key ', SCRAPE_API_KEY: '', PLATFORM_2_API_KEY: null }) });
    const { secrets } = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers }));
    expect(await secrets.get('LLM_API_KEY')).toBe('sk-llm');
    expect(await secrets.get('SEARCH_API_KEY')).toBe('brave-key');
    expect(await secrets.get('SCRAPE_API_KEY')).toBeUndefined();
    expect(await secrets.get('PLATFORM_2_API_KEY')).toBeUndefined();
    expect(await secrets.get('JUDGE_API_KEY')).toBeUndefined();
    // Another group without an ARN in this Lambda: not configured, and no call.
    expect(await secrets.get('STRIPE_SECRET_KEY')).toBeUndefined();
    expect(await secrets.get('API_KEY')).toBeUndefined();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  test('an absent secret (no value yet, or deleted) means every provider of its group is not configured', async () => {
    const providers = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: providers }).rejects(notFound());
    const container = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers, LLM_BASE_URL: 'https://llm.example', SCRAPE_API_URL: 'https://scrape.example' }));
    expect(await container.secrets.get('LLM_API_KEY')).toBeUndefined();
    await container.ready();
    expect(container.config.llm).toEqual({ baseUrl: 'https://llm.example', apiKey: undefined, model: undefined });
    expect(container.config.scrape.apiKey).toBeUndefined();
    // The scrape service without its key is not configured: the built-in scraper is used.
    expect(scraperOf(container).name).toBe('builtin');
  });

  test('ready() fills the config before any engine is built; an engine built before it fails loudly', async () => {
    const providers = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: providers })
      .resolves({ SecretString: JSON.stringify({ LLM_API_KEY: 'sk-llm', SCRAPE_API_KEY: 'fc-key', PLATFORM_8_API_KEY: 'p8' }) });
    const container = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers, SCRAPE_API_URL: 'https://scrape.example', LLM_BASE_URL: 'https://llm.example' }));
    // On AWS the environment holds no value: the config has none before ready().
    expect(container.config.llm.apiKey).toBeUndefined();
    expect(secretsPending(container.config)).toBe(true);
    expect(() => scraperOf(container)).toThrow(/await container\.ready\(\)/);

    await Promise.all([container.ready(), container.ready()]);
    expect(secretsPending(container.config)).toBe(false);
    expect(container.config.llm.apiKey).toBe('sk-llm');
    expect(container.config.judge).toEqual({ baseUrl: 'https://llm.example', apiKey: 'sk-llm', model: undefined });
    expect(container.config.scrape).toEqual({ apiUrl: 'https://scrape.example', apiKey: 'fc-key' });
    expect(container.config.platforms[7]).toEqual({ n: 8, apiUrl: undefined, apiKey: 'p8', model: undefined });
    expect(scraperOf(container).name).toBe('firecrawl');
    await container.ready();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  test('the model key goes to the judge only when the judge is the same model API', async () => {
    const providers = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: providers }).resolves({ SecretString: JSON.stringify({ LLM_API_KEY: 'sk-llm' }) });
    const container = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers, LLM_BASE_URL: 'https://llm.example', JUDGE_BASE_URL: 'https://judge.example' }));
    await container.ready();
    expect(container.config.judge.apiKey).toBeUndefined();
  });

  test('a failed read fails ready() and is retried by the next call', async () => {
    const providers = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: providers })
      .rejectsOnce(new Error('Rate exceeded'))
      .resolves({ SecretString: JSON.stringify({ SEARCH_API_KEY: 'brave-key' }) });
    const container = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers }));
    await expect(container.ready()).rejects.toThrow('Rate exceeded');
    expect(secretsPending(container.config)).toBe(true);
    await container.ready();
    expect(container.config.search.apiKey).toBe('brave-key');
  });

  test('each group is its own secret: the accounts keys are read from theirs', async () => {
    const providers = arn('providers');
    const accounts = arn('accounts');
    sm.on(GetSecretValueCommand, { SecretId: providers }).resolves({ SecretString: '{}' });
    sm.on(GetSecretValueCommand, { SecretId: accounts }).resolves({ SecretString: JSON.stringify({ STRIPE_SECRET_KEY: 'sk_test_1', IDP_SECRET_KEY: 'idp' }) });
    const container = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers, ACCOUNT_SECRETS_ARN: accounts }));
    await container.ready();
    expect(container.config.stripe.secretKey).toBe('sk_test_1');
    expect(container.config.idp.secretKey).toBe('idp');
    expect(container.config.llm.apiKey).toBeUndefined();
    expect(sm.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input.SecretId).sort()).toEqual([accounts, providers].sort());
  });

  test('a value that is not a JSON object fails without quoting it', async () => {
    const providers = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: providers }).resolves({ SecretString: 'sk-live-oops-not-json' });
    const container = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers }));
    const err = await container.secrets.get('LLM_API_KEY').catch((e: Error) => e);
    expect(String(err)).toMatch(/is not a JSON object of setting names to values/);
    expect(String(err)).not.toContain('sk-live-oops');
    const numeric = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: numeric }).resolves({ SecretString: JSON.stringify({ INDEXNOW_KEY: 12345678 }) });
    const other = buildContainer(onAws({ PROVIDER_SECRETS_ARN: numeric }));
    const typeErr = await other.ready().catch((e: Error) => e);
    expect(String(typeErr)).toMatch(/INDEXNOW_KEY must be a string/);
    expect(String(typeErr)).not.toContain('12345678');
  });

  test('a field that is no setting of the group is ignored with a warning that names it, never its value', async () => {
    const providers = arn('providers');
    sm.on(GetSecretValueCommand, { SecretId: providers }).resolves({ SecretString: JSON.stringify({ LLM_APIKEY: 'sk-typo-value', STRIPE_SECRET_KEY: 'sk_test_wrong_group' }) });
    const lines: string[] = [];
    const previous = setLogSink((line) => lines.push(line));
    try {
      const container = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers }));
      await container.ready();
      expect(container.config.llm.apiKey).toBeUndefined();
      expect(container.config.stripe.secretKey).toBeUndefined();
    } finally {
      setLogSink(previous);
    }
    const warning = lines.map((l) => JSON.parse(l)).find((l) => l.msg.includes('no setting of its group'));
    expect(warning).toMatchObject({ level: 'warn', group: 'providers', ignored: ['LLM_APIKEY', 'STRIPE_SECRET_KEY'] });
    expect(lines.join('\n')).not.toMatch(/sk-typo-value|sk_test_wrong_group/);
  });

  test('locally the provider keys are the environment variables of the same names, with no AWS call', async () => {
    const container = buildContainer(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', LLM_API_KEY: 'local-llm', SCRAPE_API_URL: 'http://127.0.0.1:9', SCRAPE_API_KEY: 'fc-local' }));
    expect(secretsPending(container.config)).toBe(false);
    await container.ready();
    expect(await container.secrets.get('LLM_API_KEY')).toBe('local-llm');
    expect(container.config.llm.apiKey).toBe('local-llm');
    expect(container.config.judge.apiKey).toBe('local-llm');
    expect(await container.secrets.get('SEARCH_API_KEY')).toBeUndefined();
    expect(scraperOf(container).name).toBe('firecrawl');
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});

test('every route awaits ready() after auth, so a handler on AWS sees the provider keys in its config', async () => {
  const { endpoint } = await import('../../functions/http/endpoint');
  const { publicAuth } = await import('../../functions/http/auth');
  const { setContainer } = await import('../../functions/container');
  const providers = arn('providers');
  sm.on(GetSecretValueCommand, { SecretId: providers }).resolves({ SecretString: JSON.stringify({ SEARCH_API_KEY: 'brave-key' }) });
  setContainer(buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers })));
  try {
    const handler = endpoint('GET /health', { authenticator: publicAuth }, async ({ container }) => ({ body: { configured: container.config.search.apiKey === 'brave-key' } }));
    const event = { httpMethod: 'GET', resource: '/health', path: '/health', headers: {}, body: null, requestContext: { requestId: 'r1', identity: { sourceIp: '192.0.2.1' } } };
    const res = await handler(event as never, {} as never);
    expect({ status: res.statusCode, body: JSON.parse(res.body) }).toEqual({ status: 200, body: { configured: true } });
  } finally {
    setContainer(undefined);
  }
});

test('readyContainer() is the installed container with its secrets read (the line a task entry point starts with)', async () => {
  const { readyContainer, setContainer } = await import('../../functions/container');
  const providers = arn('providers');
  sm.on(GetSecretValueCommand, { SecretId: providers }).resolves({ SecretString: JSON.stringify({ LLM_API_KEY: 'sk-llm' }) });
  const installed = buildContainer(onAws({ PROVIDER_SECRETS_ARN: providers }));
  setContainer(installed);
  try {
    const container = await readyContainer();
    expect(container).toBe(installed);
    expect(container.config.llm.apiKey).toBe('sk-llm');
    expect(() => scraperOf(container)).not.toThrow();
  } finally {
    setContainer(undefined);
  }
});
