import {
  acmeChallengeRecord, analysisFields, analyzeDomain, analyzeDomainOrThrow, capturedAsRecords, namesToCapture, originalFields,
  part2Records, recordName, restoreRecords, storeOriginHost, webmasterVerificationRecord, type DomainAnalysis,
} from '../../../functions/core/domain/analysis';
import { ValidationError } from '../../../functions/core/errors';
import { absoluteName, relativeHost, type CapturedByName } from '../../../functions/core/domain/records';

const GATEWAY = ['203.0.113.10', '203.0.113.11'];
const CDN = 'd111abcdef8.cloudfront.net';

function analysis(url: string, apexGatewayIps: string[] = GATEWAY): DomainAnalysis {
  const result = analyzeDomain(url, { apexGatewayIps });
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.analysis;
}

describe('domain types', () => {
  test('apex: label @, A records to both gateway addresses, www configured with it', () => {
    const a = analysis('https://example.com/collections/all');
    expect(a).toEqual({
      customDomain: 'example.com',
      type: 'apex',
      proxyDomainType: 'apex',
      nakedDomain: 'example.com',
      publicSuffix: 'com',
      subdomainLabel: '@',
      certificateNames: ['example.com', 'www.example.com'],
    });
    const part2 = part2Records(a, { cdnDomain: CDN, apexGatewayIps: GATEWAY });
    expect(part2).toEqual({
      ok: true,
      records: [
        { type: 'A', host: '@', value: '203.0.113.10', ttl: 300 },
        { type: 'A', host: '@', value: '203.0.113.11', ttl: 300 },
        { type: 'CNAME', host: 'www', value: CDN, ttl: 300 },
      ],
      remove: [],
      skipped: [],
    });
  });

  test('www: label www, CNAME www → CDN domain and the naked domain by A records, together', () => {
    const a = analysis('https://www.example.com');
    expect(a).toMatchObject({ type: 'www', proxyDomainType: 'subdomain', nakedDomain: 'example.com', subdomainLabel: 'www' });
    expect(a.certificateNames).toEqual(['www.example.com', 'example.com']);
    const part2 = part2Records(a, { cdnDomain: `${CDN}.`, apexGatewayIps: GATEWAY });
    expect(part2.ok && part2.records).toEqual([
      { type: 'CNAME', host: 'www', value: CDN, ttl: 300 },
      { type: 'A', host: '@', value: '203.0.113.10', ttl: 300 },
      { type: 'A', host: '@', value: '203.0.113.11', ttl: 300 },
    ]);
  });

  test('www without gateway addresses: the www record alone, the naked domain skipped with the reason', () => {
    const a = analysis('https://www.example.com', []);
    const part2 = part2Records(a, { cdnDomain: CDN, apexGatewayIps: [] });
    expect(part2).toEqual({
      ok: true,
      records: [{ type: 'CNAME', host: 'www', value: CDN, ttl: 300 }],
      remove: [],
      skipped: [{ name: 'example.com', reason: expect.stringContaining('APEX_GATEWAY_IPS') }],
    });
  });

  test('custom subdomain: CNAME <label>, configured alone', () => {
    const a = analysis('http://shop.example.com:8080/x?y=1');
    expect(a).toMatchObject({ type: 'custom_subdomain', proxyDomainType: 'subdomain', nakedDomain: 'example.com', subdomainLabel: 'shop', customDomain: 'shop.example.com' });
    expect(a.certificateNames).toEqual(['shop.example.com']);
    const part2 = part2Records(a, { cdnDomain: CDN, apexGatewayIps: [] });
    expect(part2.ok && part2.records).toEqual([{ type: 'CNAME', host: 'shop', value: CDN, ttl: 300 }]);
  });

  test('multi-level: CNAME <a>.<b>', () => {
    const a = analysis('https://store.eu.example.com');
    expect(a).toMatchObject({ type: 'multi_level', subdomainLabel: 'store.eu', nakedDomain: 'example.com' });
    expect(a.certificateNames).toEqual(['store.eu.example.com']);
    expect(part2Records(a, { cdnDomain: CDN }).ok && (part2Records(a, { cdnDomain: CDN }) as { records: unknown }).records)
      .toEqual([{ type: 'CNAME', host: 'store.eu', value: CDN, ttl: 300 }]);
    // www under a subdomain is a multi-level name too, configured alone
    expect(analysis('https://www.shop.example.com')).toMatchObject({ type: 'multi_level', subdomainLabel: 'www.shop', certificateNames: ['www.shop.example.com'] });
  });

  test.each([
    ['https://example.co.uk', 'apex', 'example.co.uk', '@', 'co.uk'],
    ['https://www.example.co.uk', 'www', 'example.co.uk', 'www', 'co.uk'],
    ['https://shop.example.com.au', 'custom_subdomain', 'example.com.au', 'shop', 'com.au'],
    ['https://a.b.example.co.jp', 'multi_level', 'example.co.jp', 'a.b', 'co.jp'],
  ])('two-level public suffixes: %s', (url, type, naked, label, suffix) => {
    expect(analysis(url)).toMatchObject({ type, nakedDomain: naked, subdomainLabel: label, publicSuffix: suffix });
  });

  test('host normalization: case, final dot, bare domain, international names (punycode)', () => {
    expect(analysis('HTTPS://WWW.Example.COM./Shop')).toMatchObject({ customDomain: 'www.example.com', type: 'www' });
    expect(analysis('www.example.com')).toMatchObject({ customDomain: 'www.example.com' });
    expect(analysis('https://bücher.de')).toMatchObject({ customDomain: 'xn--bcher-kva.de', type: 'apex', nakedDomain: 'xn--bcher-kva.de' });
    expect(analyzeDomain(new URL('https://shop.example.org/'), {})).toMatchObject({ ok: true, analysis: { subdomainLabel: 'shop' } });
  });

  test('IPv6 gateway addresses become AAAA records; invalid entries are ignored', () => {
    const a = analysis('https://example.com', ['203.0.113.10', '2001:db8::10', 'not-an-ip']);
    const part2 = part2Records(a, { cdnDomain: CDN, apexGatewayIps: ['203.0.113.10', '2001:db8::10', 'not-an-ip'] });
    expect(part2.ok && part2.records.filter((r) => r.host === '@')).toEqual([
      { type: 'A', host: '@', value: '203.0.113.10', ttl: 300 },
      { type: 'AAAA', host: '@', value: '2001:db8::10', ttl: 300 },
    ]);
  });

  test('the certificate validation CNAMEs go with the Part 2 records, relative to the zone', () => {
    const a = analysis('https://www.example.com');
    const part2 = part2Records(a, {
      cdnDomain: CDN,
      apexGatewayIps: GATEWAY,
      validationRecords: [{ name: '_3639ac514e785e898d2646601fa951d5.www.example.com.', value: '_98d2646601fa951d5.xyz.acm-validations.aws.' }],
    });
    expect(part2.ok && part2.records.at(-1)).toEqual({
      type: 'CNAME', host: '_3639ac514e785e898d2646601fa951d5.www', value: '_98d2646601fa951d5.xyz.acm-validations.aws', ttl: 300,
    });
  });
});

describe('refusals, each with its reason', () => {
  test.each([
    ['https://alpha.myshopify.com', 'platform_host', /hosting platform \(myshopify\.com\)/],
    ['https://www.alpha.myshopify.com/products', 'platform_host', /myshopify\.com/],
    ['https://myshopify.com', 'platform_host', /myshopify\.com/],
    ['https://mystore.wixsite.com/shop', 'platform_host', /wixsite\.com/],
    ['https://d111abcdef8.cloudfront.net', 'platform_host', /cloudfront\.net/],
    ['http://192.0.2.10/', 'ip_address', /IP address/],
    ['http://[2001:db8::1]:8080/', 'ip_address', /IP address/],
    ['http://2130706433/', 'ip_address', /127\.0\.0\.1 is an IP address/],
    ['http://localhost:3000', 'single_label', /not a public domain name/],
    ['https://co.uk', 'public_suffix', /public suffix/],
    ['https://com.au', 'public_suffix', /public suffix/],
    ['ftp://example.com', 'invalid_url', /not a valid http\(s\) URL/],
    ['', 'invalid_url', /not a valid/],
    ['https://exa_mple.com', 'invalid_url', /not a valid/],
    ['https://exa mple.com', 'invalid_url', /not a valid/],
  ])('%s → %s', (url, code, reason) => {
    const result = analyzeDomain(url, { apexGatewayIps: GATEWAY });
    expect(result).toEqual({ ok: false, code, reason: expect.stringMatching(reason) });
  });

  test('an apex business URL with no gateway address configured is refused honestly', () => {
    for (const ips of [undefined, [], ['', 'nonsense']]) {
      const result = analyzeDomain('https://example.com', { apexGatewayIps: ips });
      expect(result).toEqual({ ok: false, code: 'apex_without_gateway', reason: expect.stringContaining('APEX_GATEWAY_IPS') });
    }
    expect(analyzeDomain('https://example.com').ok).toBe(false);
    // Part 2 refuses too, should it be asked anyway
    const a = analysis('https://example.com');
    expect(part2Records(a, { cdnDomain: CDN, apexGatewayIps: [] })).toEqual({ ok: false, code: 'apex_without_gateway', reason: expect.stringContaining('APEX_GATEWAY_IPS') });
    // www and subdomains need no gateway
    expect(analyzeDomain('https://www.example.com').ok).toBe(true);
    expect(analyzeDomain('https://shop.example.com').ok).toBe(true);
  });

  test('analyzeDomainOrThrow throws the caller\'s error with the reason', () => {
    expect(() => analyzeDomainOrThrow('https://a.myshopify.com', {}, (reason) => new ValidationError(reason))).toThrow(ValidationError);
    expect(() => analyzeDomainOrThrow('https://a.myshopify.com', {}, (reason, code) => new Error(`${code}: ${reason}`))).toThrow(/^platform_host: /);
    expect(analyzeDomainOrThrow('https://shop.example.com', {}, (r) => new Error(r)).subdomainLabel).toBe('shop');
  });
});

describe('record fields and TXT records', () => {
  test('the AI-site / get-proxy fields', () => {
    expect(analysisFields(analysis('https://example.com'))).toEqual({ customDomain: 'example.com', domainType: 'apex', nakedDomain: 'example.com', subdomainLabel: '@' });
    expect(analysisFields(analysis('https://a.b.example.com'))).toEqual({ customDomain: 'a.b.example.com', domainType: 'subdomain', nakedDomain: 'example.com', subdomainLabel: 'a.b' });
  });

  test('ACME challenge and webmaster verification TXT records, hosts relative to the zone', () => {
    const a = analysis('https://www.example.co.uk');
    expect(acmeChallengeRecord(a, 'www.example.co.uk', 'k1')).toEqual({ type: 'TXT', host: '_acme-challenge.www', value: 'k1', ttl: 300 });
    expect(acmeChallengeRecord(a, 'example.co.uk', 'k2')).toEqual({ type: 'TXT', host: '_acme-challenge', value: 'k2', ttl: 300 });
    expect(acmeChallengeRecord(a, '*.example.co.uk', 'k3').host).toBe('_acme-challenge');
    expect(webmasterVerificationRecord(a, 'google-site-verification=abc')).toEqual({ type: 'TXT', host: '@', value: 'google-site-verification=abc', ttl: 300 });
    expect(recordName(a, { host: '_acme-challenge.www' })).toBe('_acme-challenge.www.example.co.uk');
    expect(recordName(a, { host: '@' })).toBe('example.co.uk');
  });

  test('absolute and relative names', () => {
    expect(absoluteName('@', 'example.com.')).toBe('example.com');
    expect(absoluteName('WWW', 'example.com')).toBe('www.example.com');
    expect(relativeHost('Example.com.', 'example.com')).toBe('@');
    expect(relativeHost('a.b.example.com', 'example.com')).toBe('a.b');
    expect(() => relativeHost('example.org', 'example.com')).toThrow(/not inside the zone/);
  });
});

describe('original configuration: captured, switched, restored', () => {
  const wwwCapture: CapturedByName = {
    'www.example.com': { A: [], AAAA: [], CNAME: 'shops.myshopify.com', CAA: [] },
    'example.com': { A: ['23.227.38.65'], AAAA: ['2620:127:f00f:5::'], CNAME: null, CAA: [{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }] },
  };

  test('the names captured are the ones Part 2 changes', () => {
    expect(namesToCapture(analysis('https://www.example.com'))).toEqual(['www.example.com', 'example.com']);
    expect(namesToCapture(analysis('https://shop.example.com'))).toEqual(['shop.example.com']);
  });

  test('origin_cname, original_www_cname and original_apex_a_records from the capture', () => {
    expect(originalFields(analysis('https://www.example.com'), wwwCapture)).toEqual({
      originCname: 'shops.myshopify.com', originalWwwCname: 'shops.myshopify.com', originalApexARecords: [],
    });
    expect(originalFields(analysis('https://example.com'), wwwCapture)).toEqual({
      originCname: '23.227.38.65', originalWwwCname: null, originalApexARecords: ['23.227.38.65'],
    });
    expect(originalFields(analysis('https://shop.example.com'), {})).toEqual({ originCname: null, originalWwwCname: null, originalApexARecords: [] });
  });

  test('Part 2 lists the original records that would conflict: all of a CNAME name, other addresses at the apex', () => {
    const a = analysis('https://www.example.com');
    const part2 = part2Records(a, { cdnDomain: CDN, apexGatewayIps: GATEWAY, captured: wwwCapture });
    expect(part2.ok && part2.remove).toEqual([
      { type: 'CNAME', host: 'www', value: 'shops.myshopify.com', ttl: 300 },
      { type: 'A', host: '@', value: '23.227.38.65', ttl: 300 },
      { type: 'AAAA', host: '@', value: '2620:127:f00f:5::', ttl: 300 },
    ]);
  });

  test('disconnect: remove the proxy records of the configured names, put the captured ones back; validation records stay', () => {
    const a = analysis('https://www.example.com');
    const part2 = part2Records(a, {
      cdnDomain: CDN, apexGatewayIps: GATEWAY, captured: wwwCapture,
      validationRecords: [{ name: '_x.www.example.com', value: '_y.acm-validations.aws' }],
    });
    if (!part2.ok) throw new Error('refused');
    const plan = restoreRecords(a, wwwCapture, part2.records);
    expect(plan.remove).toEqual([
      { type: 'CNAME', host: 'www', value: CDN, ttl: 300 },
      { type: 'A', host: '@', value: '203.0.113.10', ttl: 300 },
      { type: 'A', host: '@', value: '203.0.113.11', ttl: 300 },
    ]);
    expect(plan.restore).toEqual([
      { type: 'CNAME', host: 'www', value: 'shops.myshopify.com', ttl: 300 },
      { type: 'A', host: '@', value: '23.227.38.65', ttl: 300 },
      { type: 'AAAA', host: '@', value: '2620:127:f00f:5::', ttl: 300 },
      { type: 'CAA', host: '@', value: '0 issue "letsencrypt.org"', ttl: 300 },
    ]);
  });

  test('a name that held nothing gets only the removal; TTL of the restored records is configurable', () => {
    const a = analysis('https://a.b.example.com');
    const part2 = part2Records(a, { cdnDomain: CDN });
    if (!part2.ok) throw new Error('refused');
    expect(restoreRecords(a, {}, part2.records)).toEqual({ remove: [{ type: 'CNAME', host: 'a.b', value: CDN, ttl: 300 }], restore: [] });
    const captured: CapturedByName = { 'a.b.example.com': { A: ['198.51.100.7'], AAAA: [], CNAME: null, CAA: [] } };
    expect(restoreRecords(a, captured, part2.records, 3600).restore).toEqual([{ type: 'A', host: 'a.b', value: '198.51.100.7', ttl: 3600 }]);
  });

  test('a captured CNAME restores alone (nothing can share its name)', () => {
    expect(capturedAsRecords('www', { A: ['192.0.2.1'], AAAA: [], CNAME: 'Shops.MyShopify.com.', CAA: [] })).toEqual([
      { type: 'CNAME', host: 'www', value: 'shops.myshopify.com', ttl: 300 },
    ]);
  });
});

describe('storeOriginHost: where the proxy sends store requests once the domain points at it', () => {
  const captured = (records: Record<string, Partial<{ A: string[]; CNAME: string | null }>>): CapturedByName =>
    Object.fromEntries(Object.entries(records).map(([name, r]) => [name, { A: r.A ?? [], AAAA: [], CNAME: r.CNAME ?? null, CAA: [] }]));

  test.each([
    ['www: its own CNAME target', 'https://www.example.com', { 'www.example.com': { CNAME: 'shops.myshopify.com.' }, 'example.com': { A: ['23.227.38.65'] } }, 'shops.myshopify.com'],
    ['apex: addresses, so the www name\'s CNAME target', 'https://example.com', { 'example.com': { A: ['23.227.38.65'] }, 'www.example.com': { CNAME: 'Shops.MyShopify.com' } }, 'shops.myshopify.com'],
    ['custom subdomain', 'https://shop.example.com', { 'shop.example.com': { CNAME: 'stores.platform.example' } }, 'stores.platform.example'],
    ['multi-level', 'https://eu.shop.example.com', { 'eu.shop.example.com': { CNAME: 'eu.platform.example' } }, 'eu.platform.example'],
    ['addresses only: no host name to use', 'https://www.example.com', { 'www.example.com': { A: ['198.51.100.7'] }, 'example.com': { A: ['198.51.100.7'] } }, null],
    ['nothing captured', 'https://shop.example.com', {}, null],
  ])('%s', (_name, url, records, expected) => {
    expect(storeOriginHost(analysis(url), captured(records))).toBe(expected);
  });

  test('a name already pointing at the CDN is no target (captured after a switch)', () => {
    const records = captured({ 'www.example.com': { CNAME: CDN }, 'example.com': { A: ['198.51.100.7'] } });
    expect(storeOriginHost(analysis('https://www.example.com'), records, CDN)).toBeNull();
  });
});
