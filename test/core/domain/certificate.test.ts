import {
  CHALLENGE_TXT_TTL,
  CertificateOrderInvalidError,
  acmeChallengeHost,
  certTmpOf,
  isCertificateOrderExpired,
  normalizeCertificateNames,
  txtRecordsOf,
  type CertificateTmp,
} from '../../../functions/core/domain/certificate';
import { AppError, ValidationError } from '../../../functions/core/errors';

const tmp: CertificateTmp = {
  directoryUrl: 'https://ca.example/dir',
  accountUrl: 'https://ca.example/acct/1',
  orderUrl: 'https://ca.example/order/1',
  names: ['www.shop.example', 'shop.example'],
  challenges: [
    { name: 'www.shop.example', authzUrl: 'https://ca.example/authz/1', challengeUrl: 'https://ca.example/chal/1', keyAuthorization: 'A'.repeat(43) },
    { name: 'shop.example', authzUrl: 'https://ca.example/authz/2', challengeUrl: 'https://ca.example/chal/2', keyAuthorization: 'B'.repeat(43) },
  ],
  status: 'pending',
  expires: '2030-01-01T00:00:00Z',
};

describe('names', () => {
  test('lower-cased, trailing dot dropped, duplicates removed, order kept', () => {
    expect(normalizeCertificateNames([' WWW.Shop.Example. ', 'shop.example', 'www.shop.example'])).toEqual(['www.shop.example', 'shop.example']);
    expect(normalizeCertificateNames(['*.shop.example', 'a.b.shop.co.uk'])).toEqual(['*.shop.example', 'a.b.shop.co.uk']);
  });

  test.each([[[]], [['']], [['localhost']], [['shop..example']], [['-shop.example']], [['shop-.example']], [['shop_x.example']],
    [['10.0.0.1']], [[`${'a'.repeat(64)}.example`]], [['https://shop.example']], [['shop.example/x']], [['*.']]])('%j is refused', (names) => {
    expect(() => normalizeCertificateNames(names)).toThrow(ValidationError);
  });

  test('at most 100 names', () => {
    const names = Array.from({ length: 101 }, (_, i) => `n${i}.example`);
    expect(() => normalizeCertificateNames(names)).toThrow(/at most 100/);
    expect(normalizeCertificateNames(names.slice(0, 100))).toHaveLength(100);
  });
});

describe('TXT records', () => {
  test('one per authorization at _acme-challenge.<name>, TTL 60: www and the naked domain share nothing', () => {
    expect(txtRecordsOf(tmp)).toEqual([
      { type: 'TXT', host: '_acme-challenge.www.shop.example', value: 'A'.repeat(43), ttl: 60 },
      { type: 'TXT', host: '_acme-challenge.shop.example', value: 'B'.repeat(43), ttl: 60 },
    ]);
    expect(CHALLENGE_TXT_TTL).toBe(60);
  });

  test('a wildcard sits at its base name', () => {
    expect(acmeChallengeHost('*.Shop.Example.')).toBe('_acme-challenge.shop.example');
  });
});

describe('cert_tmp_*', () => {
  test('keeps the order, challenge URLs, names and status only: records and anything else are dropped', () => {
    const started = { ...tmp, records: txtRecordsOf(tmp), privateKeyPem: '-----BEGIN PRIVATE KEY-----x', extra: 1 } as CertificateTmp;
    started.challenges = started.challenges.map((c) => ({ ...c, privateKey: 'k' }));
    const kept = certTmpOf(started);
    expect(kept).toEqual(tmp);
    expect(Object.keys(kept).sort()).toEqual(['accountUrl', 'challenges', 'directoryUrl', 'expires', 'names', 'orderUrl', 'status']);
    expect(JSON.stringify(kept)).not.toMatch(/PRIVATE|privateKey/);
    expect(certTmpOf({ ...tmp, expires: undefined as unknown as null }).expires).toBeNull();
  });

  test('expiry', () => {
    expect(isCertificateOrderExpired(tmp, new Date('2029-12-31T23:59:59Z'))).toBe(false);
    expect(isCertificateOrderExpired(tmp, new Date('2030-01-01T00:00:00Z'))).toBe(true);
    expect(isCertificateOrderExpired({ expires: null })).toBe(false);
  });

  test('the invalid-order error has a stable name, 409 and the failing names', () => {
    const err = new CertificateOrderInvalidError('the DNS-01 challenge for shop.example failed', ['shop.example']);
    expect(err).toBeInstanceOf(AppError);
    expect([err.name, err.status, err.names]).toEqual(['CertificateOrderInvalid', 409, ['shop.example']]);
  });
});
