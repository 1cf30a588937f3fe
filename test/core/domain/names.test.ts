import {
  isIpHost, isPublicSuffix, normalizeHost, platformSuffixOf, publicSuffix, registrableDomain,
} from '../../../functions/core/domain/names';
import * as competitorDomain from '../../../functions/core/competitors/domain';

describe('shared domain-name rules', () => {
  test('normalizeHost lower-cases, drops the final dot and IPv6 brackets', () => {
    expect(normalizeHost(' WWW.Example.COM. ')).toBe('www.example.com');
    expect(normalizeHost('[2001:DB8::1]')).toBe('2001:db8::1');
  });

  test.each([
    ['example.com', 'com', 'example.com'],
    ['www.example.com', 'com', 'example.com'],
    ['a.b.example.com', 'com', 'example.com'],
    ['shop.example.co.uk', 'co.uk', 'example.co.uk'],
    ['www.example.com.au', 'com.au', 'example.com.au'],
    ['example.co.jp', 'co.jp', 'example.co.jp'],
    ['shop.example.de', 'de', 'example.de'],
    ['store.example.shop', 'shop', 'example.shop'],
    ['alpha.myshopify.com', 'myshopify.com', 'alpha.myshopify.com'],
    ['www.alpha.myshopify.com', 'myshopify.com', 'alpha.myshopify.com'],
    ['someone.github.io', 'github.io', 'someone.github.io'],
    ['co.uk', 'co.uk', 'co.uk'],
    ['com', 'com', 'com'],
    ['localhost', 'localhost', 'localhost'],
  ])('%s: suffix %s, registrable %s', (host, suffix, registrable) => {
    expect(publicSuffix(host)).toBe(suffix);
    expect(registrableDomain(host)).toBe(registrable);
  });

  test('IP literals have no suffix and are their own registrable domain', () => {
    expect(publicSuffix('10.0.0.7')).toBeNull();
    expect(registrableDomain('10.0.0.7')).toBe('10.0.0.7');
    expect(registrableDomain('[::1]')).toBe('::1');
    expect(isIpHost('[2001:db8::1]')).toBe(true);
    expect(isIpHost('192.0.2.1')).toBe(true);
    expect(isIpHost('example.com')).toBe(false);
  });

  test('public suffixes and platform hosts', () => {
    expect(isPublicSuffix('co.uk')).toBe(true);
    expect(isPublicSuffix('myshopify.com')).toBe(true);
    expect(isPublicSuffix('example.co.uk')).toBe(false);
    expect(platformSuffixOf('Alpha.MyShopify.com.')).toBe('myshopify.com');
    expect(platformSuffixOf('myshopify.com')).toBe('myshopify.com');
    expect(platformSuffixOf('notmyshopify.com')).toBeNull();
    expect(platformSuffixOf('shop.example.com')).toBeNull();
  });

  test('competitor discovery uses this very module (one set of rules)', () => {
    expect(competitorDomain.registrableDomain).toBe(registrableDomain);
    expect(competitorDomain.normalizeHost).toBe(normalizeHost);
  });
});
