import {
  competitorDomain, isExcludedPlatform, parseCompetitorUrl, registrableDomain, sameCompetitor,
} from '../../functions/core/competitors/domain';
import {
  ALREADY_EXISTS, assertNotDuplicate, assertNotOwnDomain, assertUserSlot, competitorId, countBySource,
  DEFAULT_FAVICON_SERVICE_URL, faviconUrlFor, isOwnDomain, MAX_AUTO_COMPETITORS,
  MAX_USER_COMPETITORS, remainingSlots, UUID_PATTERN,
} from '../../functions/core/competitors/rules';
import { discoveryQueries, rankCandidates } from '../../functions/core/competitors/candidates';
import { parseRefinement } from '../../functions/core/competitors/refine';
import { ConflictError, ValidationError } from '../../functions/core/errors';
import type { CompetitorSource } from '../../functions/core/competitors/types';

const many = (source: CompetitorSource, n: number) => Array.from({ length: n }, () => ({ source }));

describe('duplicate key: registrable domain, ignoring scheme, www, subdomain and path', () => {
  test.each([
    ['https://www.rival.example/shop?x=1', 'http://rival.example'],
    ['https://shop.rival.example', 'https://www.rival.example/about'],
    ['https://WWW.Rival.Example.', 'rival.example'.replace(/^/, 'https://')],
    ['https://www.rival.co.uk/a', 'http://store.rival.co.uk'],
    ['https://rival.com.au', 'https://www.rival.com.au/products/x'],
  ])('%s = %s', (a, b) => {
    expect(sameCompetitor(a, b)).toBe(true);
  });

  test.each([
    ['https://rival.example', 'https://rival.example.org'],
    ['https://rival.co.uk', 'https://other.co.uk'],
    ['https://alpha.myshopify.com', 'https://beta.myshopify.com'],
    ['https://a.github.io', 'https://b.github.io'],
    ['http://127.0.0.1:4001', 'http://127.0.0.1:4002'],
  ])('%s ≠ %s', (a, b) => {
    expect(sameCompetitor(a, b)).toBe(false);
  });

  test('registrable domains and keys', () => {
    expect(registrableDomain('www.shop.rival.co.uk')).toBe('rival.co.uk');
    expect(registrableDomain('deep.sub.rival.com')).toBe('rival.com');
    expect(registrableDomain('alpha.myshopify.com')).toBe('alpha.myshopify.com');
    expect(registrableDomain('localhost')).toBe('localhost');
    expect(registrableDomain('10.0.0.7')).toBe('10.0.0.7');
    expect(competitorDomain('https://www.rival.example:443/x')).toBe('rival.example');
    expect(competitorDomain('http://127.0.0.1:4001/x')).toBe('127.0.0.1:4001');
  });

  test('a bare domain or full URL becomes the site origin; garbage is a 400 naming url', () => {
    expect(parseCompetitorUrl('rival.example/collections/all').href).toBe('https://rival.example/');
    expect(parseCompetitorUrl('http://127.0.0.1:9/x').href).toBe('http://127.0.0.1:9/');
    expect(() => parseCompetitorUrl('ftp://rival.example')).toThrow(ValidationError);
    expect(() => parseCompetitorUrl('not a domain')).toThrow(/url/);
    expect(() => parseCompetitorUrl('   ')).toThrow(/url is required/);
  });

  test('a stored competitor with the same domain is a 409 "competitor already exists"', () => {
    const stored = [{ domain: 'rival.example', name: 'Rival' }];
    expect(() => assertNotDuplicate(stored, competitorDomain('https://shop.rival.example/x'))).toThrow(ConflictError);
    expect(() => assertNotDuplicate(stored, competitorDomain('https://shop.rival.example/x'))).toThrow(ALREADY_EXISTS);
    expect(() => assertNotDuplicate(stored, 'other.example')).not.toThrow();
  });

  test('the business\'s own domain is refused (400), whatever the subdomain or scheme', () => {
    const own = 'https://www.acme-shop.example';
    expect(isOwnDomain('http://acme-shop.example/products/x', own)).toBe(true);
    expect(isOwnDomain('https://blog.acme-shop.example', own)).toBe(true);
    expect(isOwnDomain('https://acme-shop.example.org', own)).toBe(false);
    expect(() => assertNotOwnDomain(new URL('https://acme-shop.example'), own)).toThrow(ValidationError);
    expect(() => assertNotOwnDomain(new URL('https://acme-shop.example'), own)).toThrow(/url: acme-shop.example is your own website/);
  });

  test('marketplaces, social networks and aggregators are never candidates (every country domain)', () => {
    for (const d of ['amazon.com', 'www.amazon.co.uk', 'amazon.de', 'etsy.com', 'ebay.co.uk', 'facebook.com', 'm.facebook.com',
      'instagram.com', 'pinterest.com', 'youtube.com', 'reddit.com', 'en.wikipedia.org', 'yelp.com', 'tripadvisor.co.uk', 'x.com']) {
      expect(isExcludedPlatform(d)).toBe(true);
    }
    for (const d of ['rival-coffee.example', 'bluebottlecoffee.com', '127.0.0.1:4001', 'alpha.myshopify.com']) expect(isExcludedPlatform(d)).toBe(false);
  });
});

describe('limits (D22): 2 user-added, 10 auto-discovered that do not count toward the 2', () => {
  test('constants follow the spec', () => {
    expect(MAX_USER_COMPETITORS).toBe(2);
    expect(MAX_AUTO_COMPETITORS).toBe(10);
  });

  test('user-added: the 2nd is allowed, the 3rd is a 409 telling the user to remove one first', () => {
    expect(() => assertUserSlot(countBySource(many('user_added', 1)))).not.toThrow();
    expect(() => assertUserSlot(countBySource(many('user_added', 2)))).toThrow(ConflictError);
    expect(() => assertUserSlot(countBySource(many('user_added', 2)))).toThrow(/remove one first/);
  });

  test('auto-discovered: 10 fit, the 11th does not', () => {
    expect(remainingSlots('auto_discovered', countBySource(many('auto_discovered', 9)))).toBe(1);
    expect(remainingSlots('auto_discovered', countBySource(many('auto_discovered', 10)))).toBe(0);
  });

  test('10 auto-discovered leave both user slots free, and 2 user-added leave all 10 auto slots', () => {
    const tenAuto = countBySource(many('auto_discovered', 10));
    expect(() => assertUserSlot(tenAuto)).not.toThrow();
    expect(remainingSlots('user_added', tenAuto)).toBe(2);
    expect(remainingSlots('auto_discovered', countBySource(many('user_added', 2)))).toBe(10);
  });
});

describe('ids and favicons', () => {
  test('the id is a UUID v5 of org + domain: stable, org-scoped', () => {
    const id = competitorId('acme', 'rival.example');
    expect(id).toMatch(UUID_PATTERN);
    expect(id[14]).toBe('5');
    expect('89ab').toContain(id[19]);
    expect(competitorId('acme', 'rival.example')).toBe(id);
    expect(competitorId('other-org', 'rival.example')).not.toBe(id);
    expect(competitorId('acme', 'rival2.example')).not.toBe(id);
  });

  test('favicon URL from the service template, host without www or port', () => {
    expect(faviconUrlFor('https://www.rival.example/x')).toBe('https://www.google.com/s2/favicons?domain=rival.example&sz=64');
    expect(faviconUrlFor('https://shop.rival.example', 'https://icons.example/{domain}.ico')).toBe('https://icons.example/shop.rival.example.ico');
    expect(faviconUrlFor('http://127.0.0.1:4001', 'https://icons.example/{domain}/{domain}')).toBe('https://icons.example/127.0.0.1/127.0.0.1');
    // a template without {domain} (or not http) is unusable: the documented default is used
    expect(faviconUrlFor('https://rival.example', 'https://icons.example/static.ico')).toBe(DEFAULT_FAVICON_SERVICE_URL.replace('{domain}', 'rival.example'));
    expect(faviconUrlFor('https://rival.example', 'javascript:{domain}')).toBe(DEFAULT_FAVICON_SERVICE_URL.replace('{domain}', 'rival.example'));
  });
});

describe('queries and candidates', () => {
  test('queries use the industry and categories when known, else the name and domain', () => {
    expect(discoveryQueries({ name: 'Acme Coffee', url: 'https://www.acme-coffee.example' })).toEqual(['Acme Coffee competitors', 'sites like acme-coffee.example']);
    expect(discoveryQueries({ name: 'Acme Coffee', url: 'https://acme-coffee.example', industry: 'specialty coffee', categories: ['Coffee beans', 'Tea'] })).toEqual([
      'best specialty coffee online stores', 'buy Coffee beans online', 'Acme Coffee competitors', 'sites like acme-coffee.example',
    ]);
  });

  test('one candidate per website, without the business, platforms and stored ones; ranked by hits then position', () => {
    const lists = [
      [
        { title: 'Acme', url: 'https://acme.example/', snippet: '' },
        { title: 'Amazon', url: 'https://www.amazon.com/s?k=coffee', snippet: '' },
        { title: 'Beta', url: 'https://beta.example/products/x', snippet: 'b' },
        { title: 'Gamma', url: 'https://gamma.example', snippet: 'g' },
        { title: 'Beta again', url: 'https://www.beta.example/about', snippet: '' },
        { title: 'Stored', url: 'https://stored.example', snippet: '' },
        { title: 'Bad', url: 'ftp://files.example', snippet: '' },
      ],
      [
        { title: 'Gamma', url: 'https://shop.gamma.example', snippet: '' },
        { title: 'Reddit', url: 'https://www.reddit.com/r/coffee', snippet: '' },
        { title: 'Delta', url: 'https://delta.example', snippet: '' },
      ],
    ];
    const ranked = rankCandidates(lists, { businessUrl: 'https://www.acme.example', excludeDomains: ['stored.example'] });
    expect(ranked.map((c) => c.domain)).toEqual(['gamma.example', 'beta.example', 'delta.example']);
    expect(ranked[1]).toMatchObject({ url: 'https://beta.example', hits: 1, bestRank: 2, title: 'Beta' });
    expect(ranked[0].hits).toBe(2);
  });

  test('the model can only keep or order candidates, never add one', () => {
    const candidates = rankCandidates([[
      { title: 'A', url: 'https://a.example', snippet: '' },
      { title: 'B', url: 'https://b.example', snippet: '' },
    ]], { businessUrl: 'https://own.example' });
    expect(parseRefinement('```json\n{"competitors":["b.example","invented.example","https://www.a.example/"]}\n```', candidates)?.map((c) => c.domain)).toEqual(['b.example', 'a.example']);
    expect(parseRefinement('{"competitors":["invented.example"]}', candidates)).toBeNull();
    expect(parseRefinement('no json', candidates)).toBeNull();
  });
});
