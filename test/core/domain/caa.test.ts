import { AMAZON, caaCheck, caaSearchNames, evaluateCaa, issuerDomain, LETS_ENCRYPT } from '../../../functions/core/domain/caa';
import type { CaaRecord } from '../../../functions/core/domain/records';

const issue = (value: string, flags = 0): CaaRecord => ({ flags, tag: 'issue', value });

describe('CAA evaluation (RFC 8659)', () => {
  test('no CAA records anywhere: every CA may issue', () => {
    expect(evaluateCaa([], LETS_ENCRYPT)).toEqual({ allowed: true, reason: expect.stringContaining('no CAA records') });
  });

  test('issue letsencrypt.org allows Let\'s Encrypt and forbids Amazon, with the record to add', () => {
    const set = [issue('letsencrypt.org')];
    expect(evaluateCaa(set, LETS_ENCRYPT).allowed).toBe(true);
    expect(evaluateCaa(set, AMAZON)).toEqual({ allowed: false, reason: 'CAA "issue" allows only letsencrypt.org; add issue "amazon.com" for Amazon certificate manager' });
  });

  test('any of Amazon\'s issuer names allows Amazon; parameters, case and a final dot do not matter', () => {
    for (const name of ['amazon.com', 'amazontrust.com', 'awstrust.com', 'AmazonAWS.com.']) expect(evaluateCaa([issue(name)], AMAZON).allowed).toBe(true);
    expect(evaluateCaa([issue(' letsencrypt.org ; validationmethods=dns-01; accounturi=https://x/acct/1')], LETS_ENCRYPT).allowed).toBe(true);
    expect(issuerDomain('LetsEncrypt.org; x=y')).toBe('letsencrypt.org');
  });

  test('issue ";" forbids every CA', () => {
    const verdict = evaluateCaa([issue(';')], LETS_ENCRYPT);
    expect(verdict).toEqual({ allowed: false, reason: expect.stringContaining('forbids every certificate authority') });
  });

  test('a set without issue entries (iodef, issuewild only) does not restrict a non-wildcard certificate', () => {
    const set: CaaRecord[] = [{ flags: 0, tag: 'iodef', value: 'mailto:security@example.com' }, { flags: 0, tag: 'issuewild', value: 'digicert.com' }];
    expect(evaluateCaa(set, LETS_ENCRYPT).allowed).toBe(true);
    expect(evaluateCaa(set, LETS_ENCRYPT, { wildcard: true }).allowed).toBe(false);
  });

  test('an unknown tag marked critical forbids every CA; unknown and not critical is ignored', () => {
    expect(evaluateCaa([issue('letsencrypt.org'), { flags: 128, tag: 'tbs', value: 'x' }], LETS_ENCRYPT).allowed).toBe(false);
    expect(evaluateCaa([issue('letsencrypt.org'), { flags: 0, tag: 'tbs', value: 'x' }], LETS_ENCRYPT).allowed).toBe(true);
    expect(evaluateCaa([issue('letsencrypt.org', 128)], LETS_ENCRYPT).allowed).toBe(true);
  });

  test('the check of both CAs: allowed only when every one is', () => {
    const both = caaCheck('www.example.com', 'example.com', [issue('letsencrypt.org'), issue('amazon.com')], [LETS_ENCRYPT, AMAZON]);
    expect(both).toMatchObject({ name: 'www.example.com', relevantName: 'example.com', allowed: true });
    const one = caaCheck('www.example.com', 'example.com', [issue('letsencrypt.org')], [LETS_ENCRYPT, AMAZON]);
    expect(one.allowed).toBe(false);
    expect(one.issuers.map((i) => [i.label, i.allowed])).toEqual([["Let's Encrypt", true], ['Amazon certificate manager', false]]);
  });

  test('names looked at, closest first, up to the TLD', () => {
    expect(caaSearchNames('a.b.Example.com.')).toEqual(['a.b.example.com', 'b.example.com', 'example.com', 'com']);
  });
});
