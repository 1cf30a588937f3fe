/**
 * Shopify's sitemap layout and robots.txt (web-protocols.md §3-§5): `/sitemap.xml` is an index
 * whose product/page/collection children need a `from`/`to` id range (400 without it), product
 * children hold at most 5,000 URLs, and the first product child starts with the home page, as on
 * real stores. Hidden pages (`inSitemap: false`) are left out, like Shopify's `seo.hidden`.
 */
import { escapeHtml as xml, type Catalogue, type Product } from './catalogue';

export const URLS_PER_SITEMAP = 5_000;
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const IMAGE_NS = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';

export interface XmlResult {
  status: number;
  body: string;
  contentType: string;
}

const ok = (body: string): XmlResult => ({ status: 200, body, contentType: 'application/xml; charset=utf-8' });
const fail = (status: number, message: string): XmlResult => ({ status, body: `${message}\n`, contentType: 'text/plain; charset=utf-8' });

/** Product sitemap N holds entries [(N-1)*5000, N*5000) of [home, ...products]. */
function productChunk(catalogue: Catalogue, n: number): Array<Product | 'home'> {
  const start = (n - 1) * URLS_PER_SITEMAP;
  const end = n * URLS_PER_SITEMAP;
  const chunk: Array<Product | 'home'> = [];
  if (start === 0) chunk.push('home');
  for (let i = Math.max(0, start - 1); i < Math.min(catalogue.products.length, end - 1); i++) chunk.push(catalogue.products[i]);
  return chunk;
}

function productSitemapCount(catalogue: Catalogue): number {
  return Math.max(1, Math.ceil((catalogue.products.length + 1) / URLS_PER_SITEMAP));
}

function idRange(ids: number[]): string {
  return ids.length ? `from=${Math.min(...ids)}&amp;to=${Math.max(...ids)}` : 'from=0&amp;to=0';
}

const sitemapPages = (c: Catalogue) => c.pages.filter((p) => p.inSitemap);

export function sitemapIndex(catalogue: Catalogue, origin: string): XmlResult {
  const children: string[] = [];
  for (let n = 1; n <= productSitemapCount(catalogue); n++) {
    const ids = productChunk(catalogue, n).filter((e): e is Product => e !== 'home').map((p) => p.id);
    children.push(`${origin}/sitemap_products_${n}.xml?${idRange(ids)}`);
  }
  children.push(`${origin}/sitemap_pages_1.xml?${idRange(sitemapPages(catalogue).map((p) => p.id))}`);
  children.push(`${origin}/sitemap_collections_1.xml?${idRange(catalogue.collections.map((c) => c.id))}`);
  children.push(`${origin}/sitemap_blogs_1.xml`);
  return ok(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>\n` +
      children.map((loc) => `  <sitemap>\n    <loc>${loc}</loc>\n  </sitemap>\n`).join('') +
      `</sitemapindex>\n`,
  );
}

function urlEntry(loc: string, lastmod?: string, extra = ''): string {
  return `  <url>\n    <loc>${xml(loc)}</loc>\n${lastmod ? `    <lastmod>${lastmod}</lastmod>\n` : ''}    <changefreq>daily</changefreq>\n${extra}  </url>\n`;
}

/** Reads the required from/to range; null when either is missing or not a number. */
function range(params: URLSearchParams): { from: number; to: number } | null {
  const from = params.get('from');
  const to = params.get('to');
  if (from === null || to === null || !/^\d+$/.test(from) || !/^\d+$/.test(to)) return null;
  return { from: Number(from), to: Number(to) };
}

/** `kind` and `n` come from `/sitemap_<kind>_<n>.xml`. */
export function childSitemap(catalogue: Catalogue, origin: string, kind: string, n: number, params: URLSearchParams): XmlResult {
  const urlset = (entries: string[], images = false) =>
    ok(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}${images ? ` ${IMAGE_NS}` : ''}>\n${entries.join('')}</urlset>\n`);
  if (kind === 'blogs') {
    if (n !== 1) return fail(404, 'Not Found');
    const { blog, posts } = catalogue;
    const latest = posts.reduce((max, p) => (p.updatedAt > max ? p.updatedAt : max), '');
    return urlset([
      urlEntry(`${origin}/blogs/${blog.handle}`, latest || undefined),
      ...posts.map((p) => urlEntry(`${origin}/blogs/${blog.handle}/${p.handle}`, p.updatedAt)),
    ]);
  }
  if (!['products', 'pages', 'collections'].includes(kind)) return fail(404, 'Not Found');
  const r = range(params);
  if (!r) return fail(400, 'Bad Request: from and to are required');
  const inRange = (id: number) => id >= r.from && id <= r.to;
  if (kind === 'products') {
    if (n < 1 || n > productSitemapCount(catalogue)) return fail(404, 'Not Found');
    const entries = productChunk(catalogue, n).map((e) => {
      if (e === 'home') return urlEntry(`${origin}/`);
      if (!inRange(e.id)) return '';
      const img = e.images[0];
      const image = img
        ? `    <image:image>\n      <image:loc>${xml(origin + img.path)}</image:loc>\n      <image:title>${xml(e.title)}</image:title>\n      <image:caption>${xml(img.alt)}</image:caption>\n    </image:image>\n`
        : '';
      return urlEntry(`${origin}/products/${e.handle}`, e.updatedAt, image);
    });
    return urlset(entries, true);
  }
  if (n !== 1) return fail(404, 'Not Found');
  if (kind === 'pages') {
    return urlset(sitemapPages(catalogue).filter((p) => inRange(p.id)).map((p) => urlEntry(`${origin}/pages/${p.handle}`, p.updatedAt)));
  }
  return urlset(catalogue.collections.filter((c) => inRange(c.id)).map((c) => urlEntry(`${origin}/collections/${c.handle}`, c.updatedAt)));
}

/** Shopify's default robots.txt.liquid output, trimmed to the rules that matter to crawlers. */
export function robotsTxt(origin: string): string {
  const common = [
    'Disallow: /a/downloads/-/*', 'Disallow: /admin', 'Disallow: /cart', 'Disallow: /orders', 'Disallow: /checkouts/', 'Disallow: /checkout',
    'Disallow: /carts', 'Disallow: /account', 'Disallow: /collections/*sort_by*', 'Disallow: /*/collections/*sort_by*',
    'Disallow: /collections/*+*', 'Disallow: /collections/*%2B*', 'Disallow: /collections/*%2b*', 'Disallow: /*/collections/*+*',
    'Disallow: /*/collections/*%2B*', 'Disallow: /*/collections/*%2b*', 'Disallow: */collections/*filter*&*filter*',
    'Disallow: /blogs/*+*', 'Disallow: /blogs/*%2B*', 'Disallow: /blogs/*%2b*', 'Disallow: /*/blogs/*+*',
    'Disallow: /*?*oseid=*', 'Disallow: /*preview_theme_id*', 'Disallow: /*preview_script_id*', 'Disallow: /policies/',
    'Disallow: /*/policies/', 'Disallow: /search', 'Allow: /search/', 'Disallow: /search/?*', 'Disallow: /apple-app-site-association',
    'Disallow: /.well-known/shopify/monorail', 'Disallow: /cdn/wpm/*.js', 'Disallow: /recommendations/products', 'Disallow: /*/recommendations/products',
  ];
  return [
    '# we use Shopify as our ecommerce platform',
    '',
    'User-agent: *',
    ...common,
    `Sitemap: ${origin}/sitemap.xml`,
    '',
    '# Google adsbot ignores robots.txt unless specifically named!',
    'User-agent: adsbot-google',
    'Disallow: /checkouts/',
    'Disallow: /checkout',
    'Disallow: /carts',
    'Disallow: /orders',
    'Disallow: /*?*oseid=*',
    'Disallow: /*preview_theme_id*',
    'Disallow: /*preview_script_id*',
    'Disallow: /cdn/wpm/*.js',
    '',
    'User-agent: Nutch',
    'Disallow: /',
    '',
    'User-agent: AhrefsBot',
    'Crawl-delay: 10',
    ...common,
    '',
    'User-agent: MJ12bot',
    'Crawl-delay: 10',
    '',
    'User-agent: Pinterest',
    'Crawl-delay: 1',
    '',
  ].join('\n');
}
