import { aiHref, hrefForFile, isRoutedPath, pageReplicaSlug, productSlugs, resolvePublicOrigin, slugify, SlugAllocator, unresolvePublicOrigin } from '../../../functions/core/site/paths';
import { route } from '../../../edge-function/route';

describe('aiHref', () => {
  it.each([
    ['/pages/about.md', '/ai/pages/about.md'],
    ['/tracking.js', '/ai/tracking.js'],
    ['/data.json', '/ai/data.json'],
    ['/', '/ai/'],
    ['/how-to-brew/', '/ai/how-to-brew/'],
    ['/ai/products/x/', '/ai/products/x/'],
    ['/ai', '/ai'],
    ['/llms.txt', '/llms.txt'],
    ['/llms/blue-mug.txt', '/llms/blue-mug.txt'],
    ['/sitemap.xml', '/sitemap.xml'],
    ['/robots.txt', '/robots.txt'],
    ['/indexing-key.txt', '/indexing-key.txt'],
    ['/aisle/', '/ai/aisle/'],
    ['/llms.txt.bak', '/ai/llms.txt.bak'],
  ])('%s → %s', (path, expected) => {
    expect(aiHref(path)).toBe(expected);
    expect(route(expected.replace(/[?#].*$/, ''))).toBe('ai');
  });

  it('agrees with the edge function on what is routed', () => {
    for (const p of ['/ai', '/ai/x', '/aix', '/AI/x', '/llms', '/llms/', '/llms.txt', '/llms.txt.bak', '/robots.txt', '/sitemap.xml', '/indexing-key.txt', '/pages/x.md', '/']) {
      expect([p, isRoutedPath(p)]).toEqual([p, route(p) === 'ai']);
    }
  });

  it('refuses a relative path', () => {
    expect(() => aiHref('pages/x.md')).toThrow();
  });

  it('hrefForFile uses the directory form of index.html files', () => {
    expect(hrefForFile('/ai/products/x/index.html')).toBe('/ai/products/x/');
    expect(hrefForFile('/my-article/index.html')).toBe('/ai/my-article/');
    expect(hrefForFile('/index.html')).toBe('/ai/');
  });
});

describe('slugify', () => {
  it.each([
    ['Blue Mug', 'blue-mug'],
    ['Café Crème & Co.', 'cafe-creme-and-co'],
    ["Don't stop!", 'dont-stop'],
    ['  --Already--slugged--  ', 'already-slugged'],
    ['日本語', 'item'],
    ['<script>alert(1)</script>', 'script-alert-1-script'],
  ])('%s → %s', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('cuts long text at a hyphen, at most 80 characters', () => {
    const slug = slugify('How long does it take for an order to arrive when shipping to Alaska, Hawaii or the US territories?');
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(slug.startsWith('how-long-does-it-take')).toBe(true);
  });

  it('SlugAllocator de-duplicates and skips reserved names', () => {
    const allocator = new SlugAllocator(['products']);
    expect(['products', 'a', 'a', 'a'].map((s) => allocator.take(s))).toEqual(['products-2', 'a', 'a-2', 'a-3']);
  });

  it('product slugs are unique and stable', () => {
    const slugs = productSlugs([{ productId: 'Blue Mug' }, { productId: 'blue-mug' }, { productId: 'red' }]);
    expect([...slugs.values()]).toEqual(['blue-mug', 'blue-mug-2', 'red']);
  });
});

describe('pageReplicaSlug', () => {
  it.each([
    ['https://shop.example/', 'home'],
    ['https://shop.example', 'home'],
    ['https://shop.example/pages/about-us', 'pages-about-us'],
    ['https://shop.example/pages/about-us/', 'pages-about-us'],
    ['https://shop.example/blogs/news/hello-world?ref=x#top', 'blogs-news-hello-world'],
    ['https://shop.example/pages/%C3%BCber-uns', 'pages-uber-uns'],
  ])('%s → %s', (url, expected) => {
    expect(pageReplicaSlug(url)).toBe(expected);
  });
});

describe('unresolvePublicOrigin: a published file moves to another public origin', () => {
  const onCustomDomain = [
    '<link rel="canonical" href="https://www.shop.example/ai/products/mug/">',
    '<a href="https://www.shop.example/products/mug">Buy</a>',
    '- [Mug](https://www.shop.example/ai/products/mug/) https://www.shop.example/llms.txt https://www.shop.example/llms/mug.txt',
    '"https://www.shop.example/sitemap.xml" https://www.shop.example/robots.txt https://www.shop.example/indexing-key.txt https://www.shop.example/ai',
    'https://www.shop.example/aisle-7 https://www.shop.example.evil/ai/x https://www.shop.example/llmsx',
  ].join('\n');

  test('AI URLs on the origin become the token; store links, look-alike paths and hosts stay', () => {
    const moved = resolvePublicOrigin(unresolvePublicOrigin(onCustomDomain, 'https://www.shop.example/'), 'https://acme.aisites.example');
    expect(moved).toBe([
      '<link rel="canonical" href="https://acme.aisites.example/ai/products/mug/">',
      '<a href="https://www.shop.example/products/mug">Buy</a>',
      '- [Mug](https://acme.aisites.example/ai/products/mug/) https://acme.aisites.example/llms.txt https://acme.aisites.example/llms/mug.txt',
      '"https://acme.aisites.example/sitemap.xml" https://acme.aisites.example/robots.txt https://acme.aisites.example/indexing-key.txt https://acme.aisites.example/ai',
      'https://www.shop.example/aisle-7 https://www.shop.example.evil/ai/x https://www.shop.example/llmsx',
    ].join('\n'));
  });

  test('the round trip back is exact, and a file without the origin is returned as it is', () => {
    const there = resolvePublicOrigin(unresolvePublicOrigin(onCustomDomain, 'https://www.shop.example'), 'http://acme.localhost:8081');
    expect(resolvePublicOrigin(unresolvePublicOrigin(there, 'http://acme.localhost:8081'), 'https://www.shop.example')).toBe(onCustomDomain);
    const other = 'no links here';
    expect(unresolvePublicOrigin(other, 'https://www.shop.example')).toBe(other);
  });
});
