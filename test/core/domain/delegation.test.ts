/** Delegated DNS-01 (D203), the pure side: stable names per organization, the CNAMEs, the TXT values per name; and its settings. */
import { loadConfig } from '../../../functions/config';
import { acmeDelegationOf, delegatedChallengeName, delegatedTxtValues, delegationCnameRecords } from '../../../functions/core/domain/delegation';

const ZONE = 'acme.example.com';

test('one name per organization and challenge host, the same every time; a wildcard shares its base name\'s', () => {
  const name = delegatedChallengeName('shop', 'www.shop.example', ZONE);
  expect(name).toMatch(/^[0-9a-f]{20}\.acme\.example\.com$/);
  expect(delegatedChallengeName('shop', 'WWW.Shop.Example.', ZONE)).toBe(name);
  expect(delegatedChallengeName('shop', '*.www.shop.example', ZONE)).toBe(name);
  expect(delegatedChallengeName('other', 'www.shop.example', ZONE)).not.toBe(name);
  expect(delegatedChallengeName('shop', 'shop.example', ZONE)).not.toBe(name);
});

test('the CNAMEs the customer adds, relative to their zone, and the TXT values grouped per delegated name', () => {
  const delegation = acmeDelegationOf('shop', ['www.shop.example', 'shop.example', '*.shop.example'], ZONE);
  expect(Object.keys(delegation.names)).toEqual(['_acme-challenge.www.shop.example', '_acme-challenge.shop.example']);
  expect(delegationCnameRecords(delegation, 'shop.example')).toEqual([
    { type: 'CNAME', host: '_acme-challenge.www', value: delegatedChallengeName('shop', 'www.shop.example', ZONE), ttl: 300 },
    { type: 'CNAME', host: '_acme-challenge', value: delegatedChallengeName('shop', 'shop.example', ZONE), ttl: 300 },
  ]);
  const values = delegatedTxtValues(delegation, [
    { name: 'shop.example', keyAuthorization: 'a' }, { name: '*.shop.example', keyAuthorization: 'b' }, { name: 'www.shop.example', keyAuthorization: 'c' },
  ]);
  expect([...values]).toEqual([
    [delegatedChallengeName('shop', 'shop.example', ZONE), ['a', 'b']],
    [delegatedChallengeName('shop', 'www.shop.example', ZONE), ['c']],
  ]);
  expect(() => delegatedTxtValues(delegation, [{ name: 'other.example', keyAuthorization: 'x' }])).toThrow(/other\.example has no delegated name/);
});

test('settings: both zone settings or neither, checked; ROUTE53_ENDPOINT only with them', () => {
  expect(loadConfig({}).acmeDelegation).toBeUndefined();
  expect(loadConfig({ ACME_DNS_ZONE_ID: '/hostedzone/Z0ABC', ACME_DNS_ZONE_NAME: 'Acme.Example.com.', ROUTE53_ENDPOINT: 'http://127.0.0.1:1' }).acmeDelegation)
    .toEqual({ zoneId: 'Z0ABC', zoneName: 'acme.example.com', route53Endpoint: 'http://127.0.0.1:1' });
  expect(() => loadConfig({ ACME_DNS_ZONE_ID: 'Z0ABC' })).toThrow(/^ACME_DNS_ZONE_NAME is needed/);
  expect(() => loadConfig({ ACME_DNS_ZONE_NAME: ZONE })).toThrow(/^ACME_DNS_ZONE_ID is needed/);
  expect(() => loadConfig({ ACME_DNS_ZONE_ID: 'Z0 ABC', ACME_DNS_ZONE_NAME: ZONE })).toThrow(/ACME_DNS_ZONE_ID must be a Route 53 hosted zone id/);
  expect(() => loadConfig({ ACME_DNS_ZONE_ID: 'Z0ABC', ACME_DNS_ZONE_NAME: 'https://acme.example.com' })).toThrow(/ACME_DNS_ZONE_NAME must be a DNS zone name/);
});
