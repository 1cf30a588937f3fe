import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { ACME_ACCOUNT_KEY_SECRET_NAME, createSecretsAccountKeyStore } from '../../functions/adapters/aws/secrets-account-key-store';
import { createFsAccountKeyStore } from '../../functions/adapters/local/fs-account-key-store';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';
const notFound = () => new ResourceNotFoundException({ message: "Secrets Manager can't find the specified secret.", $metadata: {} });

describe('file account key store', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'acme-store-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('null until put; put writes an owner-only file under the directory, creating it', async () => {
    const keys = join(dir, 'nested', 'acme');
    const store = createFsAccountKeyStore(keys);
    expect(await store.get()).toBeNull();
    await store.put(PEM);
    expect(await store.get()).toBe(PEM);
    const file = join(keys, 'acme-account-key.pem');
    expect(readFileSync(file, 'utf8')).toBe(PEM);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A second store on the same directory (another process) reads the same key.
    expect(await createFsAccountKeyStore(keys).get()).toBe(PEM);
  });

  test('a file that holds no private key counts as none', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'acme-account-key.pem'), '');
    expect(await createFsAccountKeyStore(dir).get()).toBeNull();
  });
});

describe('Secrets Manager account key store', () => {
  const sm = mockClient(SecretsManagerClient);
  beforeEach(() => sm.reset());
  afterAll(() => sm.restore());
  const client = () => new SecretsManagerClient({ region: 'eu-west-1' });

  test('reads its dedicated secret by name', async () => {
    sm.on(GetSecretValueCommand, { SecretId: ACME_ACCOUNT_KEY_SECRET_NAME }).resolves({ SecretString: PEM });
    expect(ACME_ACCOUNT_KEY_SECRET_NAME).toBe('ai-visibility/acme-account-key');
    expect(await createSecretsAccountKeyStore({ client: client() }).get()).toBe(PEM);
  });

  test('no secret, no value yet, or a placeholder that is not a PEM key: null', async () => {
    const store = createSecretsAccountKeyStore({ client: client(), secretId: 'k' });
    sm.on(GetSecretValueCommand).rejectsOnce(notFound()).resolvesOnce({}).resolvesOnce({ SecretString: 'x7#random-generated-placeholder' });
    expect(await store.get()).toBeNull();
    expect(await store.get()).toBeNull();
    expect(await store.get()).toBeNull();
  });

  test('other read failures propagate (the engine must not generate a second key on a throttle)', async () => {
    sm.on(GetSecretValueCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    await expect(createSecretsAccountKeyStore({ client: client() }).get()).rejects.toThrow('Rate exceeded');
  });

  test('put writes a new version of the existing secret', async () => {
    sm.on(PutSecretValueCommand).resolves({});
    await createSecretsAccountKeyStore({ client: client() }).put(PEM);
    expect(sm.commandCalls(PutSecretValueCommand)[0].args[0].input).toEqual({ SecretId: ACME_ACCOUNT_KEY_SECRET_NAME, SecretString: PEM });
    expect(sm.commandCalls(CreateSecretCommand)).toHaveLength(0);
  });

  test('put creates the secret when it does not exist yet (by name only, never by ARN)', async () => {
    sm.on(PutSecretValueCommand).rejects(notFound());
    sm.on(CreateSecretCommand).resolves({});
    await createSecretsAccountKeyStore({ client: client(), secretId: 'team/acme-key' }).put(PEM);
    expect(sm.commandCalls(CreateSecretCommand)[0].args[0].input).toMatchObject({ Name: 'team/acme-key', SecretString: PEM });

    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:acme-key-AbCdEf';
    await expect(createSecretsAccountKeyStore({ client: client(), secretId: arn }).put(PEM)).rejects.toThrow(ResourceNotFoundException);
    expect(sm.commandCalls(CreateSecretCommand)).toHaveLength(1);
  });
});
