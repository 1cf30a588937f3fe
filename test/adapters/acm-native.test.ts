/** The certificate manager's own DNS-validated certificates against a mocked ACM API (aws-sdk-client-mock). */
import { ACMClient, DescribeCertificateCommand, RequestCertificateCommand, ResourceNotFoundException } from '@aws-sdk/client-acm';
import { mockClient } from 'aws-sdk-client-mock';
import { certificateNames, describeNativeCertificate, idempotencyTokenOf, requestNativeCertificate } from '../../functions/adapters/aws/acm-native';

const acm = mockClient(ACMClient);
beforeEach(() => acm.reset());
afterAll(() => acm.restore());

const ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-1111-2222-3333-444455556666';
const client = () => new ACMClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const sent = (i = 0) => acm.commandCalls(RequestCertificateCommand)[i].args[0].input;

describe('requestNativeCertificate', () => {
  test('DNS validation, the first name as subject and every name as SAN, RSA 2048, a 32-character \\w token, the tags', async () => {
    acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
    const arn = await requestNativeCertificate({ names: ['WWW.Shop.example.', 'shop.example', 'www.shop.example'], idempotencyKey: 'harbor:www.shop.example', tags: { service: 'ai-visibility', org: 'harbor' } }, { client: client() });
    expect(arn).toBe(ARN);
    expect(sent()).toEqual({
      DomainName: 'www.shop.example',
      SubjectAlternativeNames: ['www.shop.example', 'shop.example'],
      ValidationMethod: 'DNS',
      IdempotencyToken: idempotencyTokenOf('harbor:www.shop.example', ['www.shop.example', 'shop.example']),
      KeyAlgorithm: 'RSA_2048',
      Tags: [{ Key: 'service', Value: 'ai-visibility' }, { Key: 'org', Value: 'harbor' }],
    });
    expect(sent().IdempotencyToken).toMatch(/^\w{32}$/);
  });

  test('the token is stable for a key and names, and differs for another key or other names; no tags: none sent', async () => {
    acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
    await requestNativeCertificate({ names: ['www.shop.example'], idempotencyKey: 'k1' }, { client: client() });
    await requestNativeCertificate({ names: ['www.shop.example'], idempotencyKey: 'k1' }, { client: client() });
    await requestNativeCertificate({ names: ['www.shop.example'], idempotencyKey: 'k2' }, { client: client() });
    await requestNativeCertificate({ names: ['www.shop.example', 'shop.example'], idempotencyKey: 'k1' }, { client: client() });
    const tokens = [0, 1, 2, 3].map((i) => sent(i).IdempotencyToken);
    expect(tokens[1]).toBe(tokens[0]);
    expect(new Set(tokens).size).toBe(3);
    expect(sent().Tags).toBeUndefined();
    // A key longer than 32 characters, with characters outside \w, still gives a valid token.
    expect(idempotencyTokenOf('org:with spaces/and-dashes'.repeat(5), ['a.example'])).toMatch(/^\w{32}$/);
  });

  test('invalid names, an empty key, a missing ARN', async () => {
    for (const names of [[], [' '], ['not a name'], ['-bad.example'], ['shop']]) {
      await expect(requestNativeCertificate({ names, idempotencyKey: 'k' }, { client: client() })).rejects.toMatchObject({ name: 'ValidationError' });
    }
    await expect(requestNativeCertificate({ names: ['a.example'], idempotencyKey: ' ' }, { client: client() })).rejects.toMatchObject({ name: 'ValidationError' });
    expect(acm.commandCalls(RequestCertificateCommand)).toHaveLength(0);
    acm.on(RequestCertificateCommand).resolves({});
    await expect(requestNativeCertificate({ names: ['a.example'], idempotencyKey: 'k' }, { client: client() })).rejects.toThrow(/no ARN/);
    expect(certificateNames(['*.Shop.example', 'shop.example'])).toEqual(['*.shop.example', 'shop.example']);
  });
});

describe('describeNativeCertificate', () => {
  const validation = (DomainName: string, record?: { Name: string; Value: string }) => ({
    DomainName, ValidationMethod: 'DNS' as const, ValidationStatus: 'PENDING_VALIDATION' as const,
    ...(record ? { ResourceRecord: { ...record, Type: 'CNAME' as const } } : {}),
  });

  test('pending: the validation CNAMEs without the final dot, in the order of the names', async () => {
    acm.on(DescribeCertificateCommand, { CertificateArn: ARN }).resolves({
      Certificate: {
        CertificateArn: ARN, Status: 'PENDING_VALIDATION',
        DomainValidationOptions: [
          validation('shop.example', { Name: '_a1.shop.example.', Value: '_b1.xyz.acm-validations.aws.' }),
          validation('www.shop.example', { Name: '_a2.www.shop.example.', Value: '_b2.xyz.acm-validations.aws.' }),
        ],
      },
    });
    await expect(describeNativeCertificate(ARN, ['www.shop.example', 'shop.example'], { client: client() })).resolves.toEqual({
      status: 'PENDING_VALIDATION',
      validationRecords: [
        { name: '_a2.www.shop.example', value: '_b2.xyz.acm-validations.aws' },
        { name: '_a1.shop.example', value: '_b1.xyz.acm-validations.aws' },
      ],
      notAfter: null,
    });
  });

  test('records not published yet (a few seconds after the request), or only some of them: an empty list and a reason', async () => {
    acm.on(DescribeCertificateCommand).resolvesOnce({ Certificate: { CertificateArn: ARN, Status: 'PENDING_VALIDATION', DomainValidationOptions: [validation('www.shop.example'), validation('shop.example')] } })
      .resolvesOnce({ Certificate: { CertificateArn: ARN, Status: 'PENDING_VALIDATION' } })
      .resolvesOnce({ Certificate: { CertificateArn: ARN, Status: 'PENDING_VALIDATION', DomainValidationOptions: [validation('www.shop.example', { Name: '_a.www.shop.example.', Value: '_b.acm-validations.aws.' }), validation('shop.example')] } });
    for (let i = 0; i < 3; i++) {
      await expect(describeNativeCertificate(ARN, ['www.shop.example', 'shop.example'], { client: client() })).resolves.toEqual({
        status: 'PENDING_VALIDATION', validationRecords: [], notAfter: null, reason: expect.stringMatching(/not published/),
      });
    }
  });

  test('issued: NotAfter as ISO 8601; a wildcard and its base share one record; no names: every name of the certificate', async () => {
    acm.on(DescribeCertificateCommand).resolves({
      Certificate: {
        CertificateArn: ARN, Status: 'ISSUED', NotAfter: new Date('2027-05-19T23:59:59.000Z'),
        DomainValidationOptions: [
          { ...validation('shop.example', { Name: '_a.shop.example.', Value: '_b.acm-validations.aws.' }), ValidationStatus: 'SUCCESS' },
          { ...validation('*.shop.example', { Name: '_a.shop.example.', Value: '_b.acm-validations.aws.' }), ValidationStatus: 'SUCCESS' },
        ],
      },
    });
    const expected = { status: 'ISSUED', validationRecords: [{ name: '_a.shop.example', value: '_b.acm-validations.aws' }], notAfter: '2027-05-19T23:59:59.000Z' };
    await expect(describeNativeCertificate(ARN, ['shop.example', '*.shop.example'], { client: client() })).resolves.toEqual(expected);
    await expect(describeNativeCertificate(ARN, [], { client: client() })).resolves.toEqual(expected);
    expect(acm.commandCalls(DescribeCertificateCommand)[0].args[0].input).toEqual({ CertificateArn: ARN });
  });

  test('failed, timed out and revoked carry a reason; an unknown status and a missing certificate are errors', async () => {
    acm.on(DescribeCertificateCommand)
      .resolvesOnce({ Certificate: { Status: 'FAILED', FailureReason: 'CAA_ERROR' } })
      .resolvesOnce({ Certificate: { Status: 'VALIDATION_TIMED_OUT' } })
      .resolvesOnce({ Certificate: { Status: 'REVOKED', RevocationReason: 'KEY_COMPROMISE' } })
      .resolvesOnce({ Certificate: { Status: 'SOMETHING_NEW' as never } })
      .rejectsOnce(new ResourceNotFoundException({ message: 'Could not find certificate', $metadata: {} }));
    const describe = () => describeNativeCertificate(ARN, ['shop.example'], { client: client() });
    await expect(describe()).resolves.toMatchObject({ status: 'FAILED', validationRecords: [], notAfter: null, reason: expect.stringContaining('CAA_ERROR') });
    await expect(describe()).resolves.toMatchObject({ status: 'VALIDATION_TIMED_OUT', reason: expect.stringMatching(/72 hours/) });
    await expect(describe()).resolves.toMatchObject({ status: 'REVOKED', reason: expect.stringContaining('KEY_COMPROMISE') });
    await expect(describe()).rejects.toThrow(/unknown status "SOMETHING_NEW"/);
    await expect(describe()).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});
