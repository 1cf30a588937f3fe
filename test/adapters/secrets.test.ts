import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { loadConfig } from '../../functions/config';
import { buildContainer } from '../../functions/container';

const sm = mockClient(SecretsManagerClient);

test('on AWS the API key is read from Secrets Manager once, and a failed read is retried next time', async () => {
  sm.on(GetSecretValueCommand, { SecretId: 'arn:aws:secretsmanager:eu-west-1:1:secret:key' })
    .rejectsOnce(new Error('throttled'))
    .resolves({ SecretString: 'the-real-key' });
  const container = buildContainer(loadConfig({ API_KEY_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:key' }));
  await expect(container.secrets.apiKey()).rejects.toThrow('throttled');
  expect(await container.secrets.apiKey()).toBe('the-real-key');
  expect(await container.secrets.apiKey()).toBe('the-real-key');
  expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
});

test('locally the value comes from the environment and no AWS call is made', async () => {
  sm.reset();
  const container = buildContainer(loadConfig({ API_KEY: 'local-key', API_KEY_SECRET_ARN: 'arn:x' }));
  expect(await container.secrets.apiKey()).toBe('local-key');
  expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
});
