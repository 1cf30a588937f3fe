import { extractLinks } from '../../../functions/core/crawl/links';

const PAGE = 'https://shop.example/collections/mugs';

describe('extractLinks', () => {
  // [description, html, expected links]
  const TABLE: Array<[string, string, string[]]> = [
    ['relative, root-relative and absolute', '<a href="blue">x</a><a href="/pages/about">x</a><a href="https://shop.example/products/c">x</a>',
      ['https://shop.example/collections/blue', 'https://shop.example/pages/about', 'https://shop.example/products/c']],
    ['<base href> wins over the page URL', '<head><base href="/products/"></head><body><a href="mug">x</a></body>',
      ['https://shop.example/products/mug']],
    ['relative <base href> resolved against the page', '<head><base href="../x/"></head><a href="y">x</a>', ['https://shop.example/x/y']],
    ['other sites dropped', '<a href="https://other.example/a">x</a><a href="https://blog.shop.example/a">x</a><a href="/ok">x</a>',
      ['https://shop.example/ok']],
    ['www re-homed onto the site', '<a href="https://www.shop.example/products/a">x</a>', ['https://shop.example/products/a']],
    ['protocol-relative', '<a href="//shop.example/pages/x">x</a>', ['https://shop.example/pages/x']],
    ['non-http schemes dropped', '<a href="mailto:a@b.c">x</a><a href="tel:123">x</a><a href="javascript:void(0)">x</a><a href="data:text/html,x">x</a>', []],
    ['fragment-only links dropped', '<a href="#top">x</a><a href="">x</a><a>no href</a>', []],
    ['normalized and de-duplicated in document order', '<a href="/b/?utm_source=n#x">x</a><a href="/a">x</a><a href="/b">x</a><a href="/products/p?variant=1">x</a><a href="/products/p">x</a>',
      ['https://shop.example/b', 'https://shop.example/a', 'https://shop.example/products/p']],
    ['area elements count', '<map><area href="/pages/map"></map>', ['https://shop.example/pages/map']],
    ['entities decoded', '<a href="/search?q=a&amp;page=2">x</a>', ['https://shop.example/search?page=2&q=a']],
  ];
  it.each(TABLE)('%s', (_why, html, expected) => {
    expect(extractLinks(html, PAGE)).toEqual(expected);
  });

  it('uses the site option for same-site decisions', () => {
    const html = '<a href="https://shop.example/a">x</a><a href="/b">x</a>';
    expect(extractLinks(html, 'https://www.shop.example/', { site: 'https://shop.example' })).toEqual([
      'https://shop.example/a',
      'https://shop.example/b',
    ]);
  });

  it('returns nothing for an unusable page URL', () => {
    expect(extractLinks('<a href="/a">x</a>', 'not a url')).toEqual([]);
  });
});
