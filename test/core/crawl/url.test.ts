import { hasNonHtmlExtension, normalizeUrl, onOrigin, pageKind, sameSite } from '../../../functions/core/crawl/url';
import type { PageKind } from '../../../functions/core/site/types';

describe('normalizeUrl', () => {
  // [input, expected, why]
  const TABLE: Array<[string, string | null, string]> = [
    ['HTTPS://Shop.Example.COM/Products/Mug', 'https://shop.example.com/Products/Mug', 'scheme and host lower-cased, path case kept'],
    ['https://shop.example:443/a', 'https://shop.example/a', 'default https port dropped'],
    ['http://shop.example:80/a', 'http://shop.example/a', 'default http port dropped'],
    ['http://shop.example:8080/a', 'http://shop.example:8080/a', 'other ports kept'],
    ['https://shop.example/a#reviews', 'https://shop.example/a', 'fragment dropped'],
    ['https://shop.example//pages///about', 'https://shop.example/pages/about', 'repeated slashes collapsed'],
    ['https://shop.example/pages/about/', 'https://shop.example/pages/about', 'trailing slash dropped'],
    ['https://shop.example/', 'https://shop.example/', 'root keeps its slash'],
    ['https://shop.example', 'https://shop.example/', 'root gets its slash'],
    ['https://shop.example/a?utm_source=x&utm_medium=y', 'https://shop.example/a', 'utm_* dropped'],
    ['https://shop.example/a?_pos=1&_sid=abc&_ss=r&_psq=mug', 'https://shop.example/a', 'platform search trackers dropped'],
    ['https://shop.example/a?gclid=1&fbclid=2', 'https://shop.example/a', 'ad click ids dropped'],
    ['https://shop.example/products/mug?variant=123', 'https://shop.example/products/mug', 'variant dropped on product pages'],
    ['https://shop.example/pages/a?variant=123', 'https://shop.example/pages/a?variant=123', 'variant kept elsewhere'],
    ['https://shop.example/collections/all?page=2', 'https://shop.example/collections/all?page=2', 'meaningful query kept'],
    ['https://shop.example/s.xml?to=9&from=1', 'https://shop.example/s.xml?from=1&to=9', 'query sorted by name'],
    ['https://shop.example/a?b=2&a=1&b=1', 'https://shop.example/a?a=1&b=2&b=1', 'repeated names keep their order'],
    ['https://shop.example/a?', 'https://shop.example/a', 'empty query dropped'],
    ['https://user:pw@shop.example/a', 'https://shop.example/a', 'credentials dropped'],
    ['mailto:hi@shop.example', null, 'not http(s)'],
    ['javascript:alert(1)', null, 'not http(s)'],
    ['not a url', null, 'unparseable'],
  ];
  it.each(TABLE)('%s → %s (%s)', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it('resolves relative references against a base', () => {
    expect(normalizeUrl('../b/?utm_campaign=z#x', 'https://shop.example/a/c/')).toBe('https://shop.example/a/b');
    expect(normalizeUrl('//cdn.example/x', 'https://shop.example/')).toBe('https://cdn.example/x');
  });

  it('is idempotent', () => {
    for (const [input, expected] of TABLE) {
      if (expected) expect(normalizeUrl(expected)).toBe(expected);
      void input;
    }
  });
});

describe('sameSite', () => {
  const TABLE: Array<[string, string, boolean, string]> = [
    ['https://shop.example/a', 'https://shop.example/b', true, 'same host'],
    ['https://www.shop.example/a', 'https://shop.example/b', true, 'www and naked are one site'],
    ['https://shop.example/a', 'https://WWW.Shop.Example/b', true, 'case-insensitive'],
    ['http://shop.example/a', 'https://shop.example/b', true, 'http and https are one site'],
    ['https://blog.shop.example/', 'https://shop.example/', false, 'other subdomain'],
    ['https://shop.example.evil/', 'https://shop.example/', false, 'suffix trick'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:4000/', false, 'other port'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000/x', true, 'same port'],
    ['ftp://shop.example/', 'https://shop.example/', false, 'not http(s)'],
    ['garbage', 'https://shop.example/', false, 'unparseable'],
  ];
  it.each(TABLE)('%s vs %s → %s (%s)', (a, b, expected) => {
    expect(sameSite(a, b)).toBe(expected);
    expect(sameSite(b, a)).toBe(expected);
  });

  it('re-homes same-site URLs onto the origin', () => {
    expect(onOrigin('http://www.shop.example/x?y=1', 'https://shop.example')).toBe('https://shop.example/x?y=1');
    expect(onOrigin('https://other.example/x', 'https://shop.example')).toBe('https://other.example/x');
  });
});

describe('pageKind', () => {
  const TABLE: Array<[string, PageKind]> = [
    ['https://s.example/', 'home'],
    ['https://s.example', 'home'],
    ['https://s.example/en-ca', 'home'],
    ['https://s.example/products/blue-mug', 'product'],
    ['https://s.example/en-ca/products/blue-mug', 'product'],
    ['https://s.example/collections/mugs/products/blue-mug', 'product'],
    ['https://s.example/collections/mugs', 'collection'],
    ['https://s.example/collections/all?page=2', 'collection'],
    ['https://s.example/pages/about', 'page'],
    ['https://s.example/blogs/news', 'blog'],
    ['https://s.example/blogs/news/tagged/coffee', 'blog'],
    ['https://s.example/blogs/news/launch-day', 'article'],
    ['https://s.example/products', 'other'],
    ['https://s.example/collections', 'other'],
    ['https://s.example/cart', 'other'],
    ['https://s.example/search?q=mug', 'other'],
    ['https://s.example/products/a/b', 'other'],
  ];
  it.each(TABLE)('%s → %s', (url, kind) => {
    expect(pageKind(url)).toBe(kind);
  });
});

describe('hasNonHtmlExtension', () => {
  it.each([
    ['https://s.example/files/manual.pdf', true],
    ['https://s.example/cdn/shop/x.JPG', true],
    ['https://s.example/sitemap.xml', true],
    ['https://s.example/products/mug', false],
    ['https://s.example/pages/v1.2-release', false],
    ['https://s.example/page.html', false],
  ])('%s → %s', (url, expected) => {
    expect(hasNonHtmlExtension(url)).toBe(expected);
  });
});
