import { ACMClient, ImportCertificateCommand, ResourceNotFoundException } from '@aws-sdk/client-acm';
import * as acme from 'acme-client';
import { mockClient } from 'aws-sdk-client-mock';
import { ACM_REGION_FOR_CLOUDFRONT, acmClientForCloudFront, importCertificate } from '../../functions/adapters/aws/acm-import';
import { ValidationError } from '../../functions/core/errors';

const acm = mockClient(ACMClient);
beforeEach(() => acm.reset());
afterAll(() => acm.restore());

const ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-1111-2222-3333-444455556666';
/** Self-signed certificates made by acme-client (no openssl needed): a "leaf" and an "intermediate". */
let leaf: { certificatePem: string; privateKeyPem: string };
let chainPem: string;
let otherKey: string;

beforeAll(async () => {
  const make = async (name: string) => {
    const key = await acme.crypto.createPrivateEcdsaKey();
    const [, cert] = await acme.crypto.createAlpnCertificate({ identifier: { type: 'dns', value: name } } as acme.Authorization, 'x', key);
    return { certificatePem: cert.toString(), privateKeyPem: key.toString() };
  };
  leaf = await make('shop.example');
  chainPem = (await make('intermediate.example')).certificatePem;
  otherKey = (await acme.crypto.createPrivateEcdsaKey()).toString();
});

const client = () => new ACMClient({ region: 'us-east-1' });
const sent = (i = 0) => acm.commandCalls(ImportCertificateCommand)[i].args[0].input;

test('the default client is in us-east-1 (CloudFront reads certificates from there only)', async () => {
  expect(ACM_REGION_FOR_CLOUDFRONT).toBe('us-east-1');
  expect(await acmClientForCloudFront().config.region()).toBe('us-east-1');
});

test('a first import sends leaf, chain and key as separate PEMs, with tags, and returns the new ARN', async () => {
  acm.on(ImportCertificateCommand).resolves({ CertificateArn: ARN });
  const arn = await importCertificate({ ...leaf, chainPem, tags: { service: 'ai-visibility', org: 'harbor' } }, { client: client() });
  expect(arn).toBe(ARN);
  const input = sent();
  expect(Buffer.from(input.Certificate!).toString()).toBe(leaf.certificatePem);
  expect(Buffer.from(input.CertificateChain!).toString()).toBe(chainPem);
  expect(Buffer.from(input.PrivateKey!).toString()).toBe(leaf.privateKeyPem);
  expect(input.CertificateArn).toBeUndefined();
  expect(input.Tags).toEqual([{ Key: 'service', Value: 'ai-visibility' }, { Key: 'org', Value: 'harbor' }]);
});

test('renewal re-imports onto the same ARN, without tags (ACM refuses tags on a re-import)', async () => {
  acm.on(ImportCertificateCommand).resolves({ CertificateArn: ARN });
  expect(await importCertificate({ ...leaf, chainPem, existingArn: ARN, tags: { a: 'b' } }, { client: client() })).toBe(ARN);
  expect(sent().CertificateArn).toBe(ARN);
  expect(sent().Tags).toBeUndefined();
  expect(acm.commandCalls(ImportCertificateCommand)).toHaveLength(1);
});

test('renewal onto a certificate deleted since: a new import, whose ARN is returned', async () => {
  const fresh = ARN.replace('0a1b2c3d', 'ffffffff');
  acm.on(ImportCertificateCommand, { CertificateArn: ARN }).rejects(new ResourceNotFoundException({ message: 'gone', $metadata: {} }));
  acm.on(ImportCertificateCommand, { CertificateArn: undefined }).resolves({ CertificateArn: fresh });
  expect(await importCertificate({ ...leaf, chainPem, existingArn: ARN }, { client: client() })).toBe(fresh);
  expect(acm.commandCalls(ImportCertificateCommand)).toHaveLength(2);
  expect(sent(1).CertificateArn).toBeUndefined();
});

test('other ACM errors propagate', async () => {
  acm.on(ImportCertificateCommand).rejects(Object.assign(new Error('limit exceeded'), { name: 'LimitExceededException' }));
  await expect(importCertificate({ ...leaf, chainPem, existingArn: ARN }, { client: client() })).rejects.toThrow('limit exceeded');
  expect(acm.commandCalls(ImportCertificateCommand)).toHaveLength(1);
});

test('an empty chain is left out', async () => {
  acm.on(ImportCertificateCommand).resolves({ CertificateArn: ARN });
  await importCertificate({ ...leaf, chainPem: '' }, { client: client() });
  expect(sent().CertificateChain).toBeUndefined();
});

test.each([
  ['a key that does not match the certificate', () => ({ ...leaf, chainPem, privateKeyPem: otherKey }), /does not match/],
  ['no certificate', () => ({ ...leaf, chainPem, certificatePem: 'nope' }), /certificatePem: not a PEM certificate/],
  ['the chain inside certificatePem', () => ({ ...leaf, chainPem, certificatePem: leaf.certificatePem + chainPem }), /exactly one certificate/],
  ['no key', () => ({ ...leaf, chainPem, privateKeyPem: 'nope' }), /privateKeyPem: not an unencrypted PEM private key/],
  ['a broken chain', () => ({ ...leaf, chainPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }), /chainPem/],
  ['an ARN of another region', () => ({ ...leaf, chainPem, existingArn: ARN.replace('us-east-1', 'eu-west-1') }), /us-east-1, this one is in eu-west-1/],
  ['a non-ACM ARN', () => ({ ...leaf, chainPem, existingArn: 'arn:aws:iam::123456789012:server-certificate/x' }), /not a certificate manager ARN/],
])('%s is refused before any call', async (_what, input, message) => {
  await expect(importCertificate(input(), { client: client() })).rejects.toThrow(ValidationError);
  await expect(importCertificate(input(), { client: client() })).rejects.toThrow(message);
  expect(acm.commandCalls(ImportCertificateCommand)).toHaveLength(0);
});
