import { parseSitemap } from '../../../functions/core/crawl/sitemap';
import { UpstreamError } from '../../../functions/core/errors';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

describe('parseSitemap', () => {
  it('parses a urlset with lastmod', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="${NS}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <url>
          <loc>
            https://shop.example/products/mug
          </loc>
          <lastmod>2026-03-14T09:12:00+00:00</lastmod>
          <changefreq>daily</changefreq>
          <image:image><image:loc>https://cdn.example/mug.jpg</image:loc></image:image>
        </url>
        <url><loc>https://shop.example/pages/about</loc></url>
      </urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      truncated: false,
      entries: [
        // D114: the image entries are kept now (they were dropped), for the unified sitemap.
        { loc: 'https://shop.example/products/mug', lastmod: '2026-03-14T09:12:00+00:00', images: [{ loc: 'https://cdn.example/mug.jpg' }] },
        { loc: 'https://shop.example/pages/about' },
      ],
    });
  });

  it('parses a sitemap index', () => {
    const xml = `<sitemapindex xmlns="${NS}">
      <sitemap><loc>https://shop.example/sitemap_products_1.xml?from=1&amp;to=99</loc><lastmod>2026-03-14</lastmod></sitemap>
      <sitemap><loc>https://shop.example/sitemap_pages_1.xml</loc></sitemap>
    </sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'sitemapindex',
      truncated: false,
      entries: [
        { loc: 'https://shop.example/sitemap_products_1.xml?from=1&to=99', lastmod: '2026-03-14' },
        { loc: 'https://shop.example/sitemap_pages_1.xml' },
      ],
    });
  });

  // [description, xml, expected entries]
  const TOLERATED: Array<[string, string | Buffer, Array<{ loc: string; lastmod?: string }>]> = [
    ['namespace prefixes', `<sm:urlset xmlns:sm="${NS}"><sm:url><sm:loc>https://a.example/x</sm:loc></sm:url></sm:urlset>`, [{ loc: 'https://a.example/x' }]],
    ['a BOM and leading whitespace', `\uFEFF\n  <urlset xmlns="${NS}"><url><loc>https://a.example/x</loc></url></urlset>`, [{ loc: 'https://a.example/x' }]],
    ['CDATA', `<urlset><url><loc><![CDATA[https://a.example/x?a=1&b=2]]></loc></url></urlset>`, [{ loc: 'https://a.example/x?a=1&b=2' }]],
    ['no namespace at all', '<urlset><url><loc>https://a.example/x</loc></url></urlset>', [{ loc: 'https://a.example/x' }]],
    ['bytes', Buffer.from('<urlset><url><loc>https://a.example/é</loc></url></urlset>'), [{ loc: 'https://a.example/é' }]],
    ['an empty urlset', `<urlset xmlns="${NS}"/>`, []],
    ['relative and non-http locs are dropped', '<urlset><url><loc>/x</loc></url><url><loc>ftp://a/x</loc></url><url><loc>https://a.example/ok</loc></url></urlset>', [{ loc: 'https://a.example/ok' }]],
    ['an invalid lastmod is dropped, the entry kept', '<urlset><url><loc>https://a.example/x</loc><lastmod>yesterday</lastmod></url></urlset>', [{ loc: 'https://a.example/x' }]],
    ['attributes ignored', '<urlset a="b"><url id="1"><loc>https://a.example/x</loc></url></urlset>', [{ loc: 'https://a.example/x' }]],
  ];
  it.each(TOLERATED)('tolerates %s', (_why, xml, entries) => {
    expect(parseSitemap(xml).entries).toEqual(entries);
  });

  // [description, document]
  const REFUSED: Array<[string, string]> = [
    ['an HTML page', '<!doctype html><html><head><title>Not found</title></head><body>404</body></html>'],
    ['an RSS feed', '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title></channel></rss>'],
    ['plain text', 'User-agent: *\nDisallow: /'],
    ['JSON', '{"urlset": []}'],
    ['an empty document', ''],
    ['two roots', '<urlset></urlset><sitemapindex></sitemapindex>'],
  ];
  it.each(REFUSED)('refuses %s', (_why, doc) => {
    expect(() => parseSitemap(doc)).toThrow(UpstreamError);
    expect(() => parseSitemap(doc)).toThrow(/not a sitemap/);
  });

  it('refuses an entity-expansion bomb rather than expanding it', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "${'x'.repeat(1000)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><urlset><url><loc>https://a.example/&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;</loc></url></urlset>`;
    let outcome: string;
    try {
      const parsed = parseSitemap(bomb);
      outcome = `parsed ${JSON.stringify(parsed).length} chars`;
    } catch (err) {
      outcome = (err as Error).name;
    }
    // Either refused, or parsed without expanding to 10 MB.
    expect(outcome === 'UpstreamError' || Number(/\d+/.exec(outcome)?.[0]) < 200_000).toBe(true);
  });

  it('handles 6,000 entries with escaped ampersands', () => {
    const urls = Array.from({ length: 6000 }, (_, i) => `<url><loc>https://a.example/p/${i}?a=1&amp;b=2</loc></url>`).join('');
    const parsed = parseSitemap(`<urlset xmlns="${NS}">${urls}</urlset>`);
    expect(parsed.entries).toHaveLength(6000);
    expect(parsed.entries[5999].loc).toBe('https://a.example/p/5999?a=1&b=2');
  });
});

describe('image entries (D114)', () => {
  it('keeps <image:image> loc, title and caption; drops images without an absolute URL', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://shop.example/products/mug</loc><lastmod>2026-01-02</lastmod>
<image:image><image:loc>https://cdn.example/mug.jpg</image:loc><image:title>Mug &amp; saucer</image:title></image:image>
<image:image><image:loc>/relative.jpg</image:loc></image:image>
</url>
<url><loc>https://shop.example/pages/about</loc></url>
</urlset>`;
    expect(parseSitemap(xml).entries).toEqual([
      { loc: 'https://shop.example/products/mug', lastmod: '2026-01-02', images: [{ loc: 'https://cdn.example/mug.jpg', title: 'Mug & saucer' }] },
      { loc: 'https://shop.example/pages/about' },
    ]);
  });
});
