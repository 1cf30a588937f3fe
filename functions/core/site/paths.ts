/**
 * Path scheme of the AI site, and the one rule every link inside it follows.
 *
 * The AI site is served on two hosts:
 * - its own host (`{slug}.{AI_SITE_DOMAIN}`), where every file is reachable at its path and
 *   `/ai/<path>` falls back to `/<path>` when no file exists at `/ai/<path>` (D28);
 * - the customer domain, through the CDN, where only the routed paths reach the AI origin
 *   (`/ai` and `/ai/*`, `/llms.txt`, `/llms` and `/llms/*`, `/robots.txt`, `/sitemap.xml`,
 *   `/indexing-key.txt`); everything else goes to the store.
 *
 * So a link from one AI file to another is written in its routed form (`aiHref`): routed
 * paths stay as they are and everything else gets `/ai` in front, which the AI host answers
 * through its fallback and the customer domain sends to the AI origin. Links to the store are
 * absolute store URLs. Links are root-relative (no host), so the same file works on both hosts.
 *
 * Where files live (paths on the AI-site host):
 * - `/llms.txt`, `/llms/<product-slug>.txt`,           (routed as they are)
 *   `/llms/catalog/full.txt`, `/llms/catalog/<n>.txt`
 * - `/data.json`, `/tracking.js`, `/pages/<slug>.md`  (linked as `/ai/data.json`, ...)
 * - `/<indexnow-key>.txt`, `/indexing-key.txt`         (key files)
 * - `/ai/products/<slug>/index.html`, `/ai/collections/<handle>/index.html`, `/ai/kinds/<slug>/index.html`,
 *   `/ai/<faq-slug>/index.html`, `/ai/questions/index.html`, `/ai/index.html`, `/index.html`
 * - `/<article-slug>/index.html` (AI articles, written elsewhere; reachable as `/ai/<slug>/`)
 * - `/sitemap.xml` (or a sitemap index) with parts at `/ai/sitemaps/sitemap-<n>.xml`, `/robots.txt`
 */

/** Paths the CDN sends to the AI origin exactly as they are. */
export const EXACT_ROUTED_PATHS: readonly string[] = ['/llms.txt', '/robots.txt', '/sitemap.xml', '/indexing-key.txt'];
/** Directories the CDN sends to the AI origin, with everything under them. */
export const ROUTED_PREFIXES: readonly string[] = ['/ai', '/llms'];

/** True when the CDN on the customer domain sends `path` to the AI origin (D28). */
export function isRoutedPath(path: string): boolean {
  const bare = stripQueryAndHash(path);
  if (EXACT_ROUTED_PATHS.includes(bare)) return true;
  return ROUTED_PREFIXES.some((prefix) => bare === prefix || bare.startsWith(`${prefix}/`));
}

/**
 * The form of an AI-site path that resolves on both hosts: unchanged when already routed,
 * otherwise prefixed with `/ai` (`/pages/about.md` → `/ai/pages/about.md`, `/` → `/ai/`).
 */
export function aiHref(path: string): string {
  if (!path.startsWith('/')) throw new Error(`aiHref needs a root-relative path, got ${JSON.stringify(path)}`);
  if (isRoutedPath(path)) return path;
  return `/ai${path}`;
}

/** The URL path of a file: `/x/index.html` → `/x/` (hosts serve directory indexes); others unchanged. */
export function urlPathOfFile(filePath: string): string {
  return filePath.endsWith('/index.html') ? filePath.slice(0, -'index.html'.length) : filePath;
}

/** The link to an AI file from inside an AI page: directory form, routed (`aiHref`). */
export function hrefForFile(filePath: string): string {
  return aiHref(urlPathOfFile(filePath));
}

/**
 * Stands for the site's public origin (`DeployMetadata.publicOrigin`: the customer domain once
 * connected, else the AI host) in content built before the origin is known; `finalizeSite`
 * replaces it in every file it publishes. Used for canonical URLs of the AI site's own pages and
 * the absolute links of the llms files (llmstxt.org uses absolute URLs).
 */
export const PUBLIC_ORIGIN_TOKEN = 'https://public-origin.ai-site.invalid';

/** The absolute public URL of an AI file, in its routed (D28) directory form. */
export function publicUrlOfFile(filePath: string): string {
  return `${PUBLIC_ORIGIN_TOKEN}${hrefForFile(filePath)}`;
}

/** The absolute public URL of a root-relative path, routed form (`aiHref`). */
export function publicUrl(path: string): string {
  return `${PUBLIC_ORIGIN_TOKEN}${aiHref(path)}`;
}

/** Replaces `PUBLIC_ORIGIN_TOKEN` with the real origin. */
export function resolvePublicOrigin(text: string, origin: string): string {
  return text.includes(PUBLIC_ORIGIN_TOKEN) ? text.split(PUBLIC_ORIGIN_TOKEN).join(origin.replace(/\/+$/, '')) : text;
}

/**
 * The reverse of `resolvePublicOrigin` for a published file: the public URLs of AI files on
 * `origin` (`<origin>` + a routed path: `/ai/...`, `/llms...`, `/robots.txt`, `/sitemap.xml`,
 * `/indexing-key.txt`) become the token again, so the file can be republished under another
 * origin (a domain connected or disconnected). Store links on the same host (`<origin>/products/x`)
 * are not routed paths and stay.
 */
export function unresolvePublicOrigin(text: string, origin: string): string {
  const bare = origin.replace(/\/+$/, '');
  if (!bare || !text.includes(bare)) return text;
  const escaped = bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const routed = `(?=/(?:ai|llms)(?:[/?#"'<>\\s)\\]]|$)|/llms\\.txt|/robots\\.txt|/sitemap\\.xml|/indexing-key\\.txt)`;
  return text.replace(new RegExp(`${escaped}${routed}`, 'g'), PUBLIC_ORIGIN_TOKEN);
}

/** An absolute URL on `origin` for a root-relative path (no trailing slash doubling). */
export function absoluteUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}${path}`;
}

/** `/a/?q#f` → `/a/`. */
export function stripQueryAndHash(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

const MAX_SLUG_LENGTH = 80;

/**
 * A URL-safe slug: lowercase ASCII letters, digits and single hyphens, no leading or trailing
 * hyphen, at most 80 characters (cut at a hyphen when possible). Accents are folded
 * (`Café` → `cafe`), `&` reads `and`. Returns `fallback` when nothing is left.
 */
export function slugify(text: string, fallback = 'item'): string {
  let slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length > MAX_SLUG_LENGTH) {
    const cut = slug.slice(0, MAX_SLUG_LENGTH + 1);
    const lastHyphen = cut.lastIndexOf('-');
    slug = (lastHyphen > MAX_SLUG_LENGTH / 2 ? cut.slice(0, lastHyphen) : cut.slice(0, MAX_SLUG_LENGTH)).replace(/-+$/, '');
  }
  return slug || fallback;
}

/**
 * Hands out unique slugs: the second `x` becomes `x-2`, and so on. `reserved` names are
 * never handed out (they get `-2`, `-3`... too).
 */
export class SlugAllocator {
  private readonly used = new Set<string>();
  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.used.add(name);
  }
  take(base: string): string {
    let slug = base;
    for (let n = 2; this.used.has(slug); n += 1) slug = `${base}-${n}`;
    this.used.add(slug);
    return slug;
  }
}

/**
 * First-level names under `/ai/` (and at the root) that the AI site uses itself, so a
 * Q&A slug never takes them. AI articles live at root `/<slug>/`; a Q&A slug equal to an
 * article slug would shadow the article's `/ai/<slug>/` form, which is why article writers
 * should avoid the Q&A slugs listed in the AI home (and these names).
 */
export const RESERVED_AI_NAMES: readonly string[] = [
  'ai', 'products', 'collections', 'kinds', 'questions', 'pages', 'sitemaps', 'llms', 'index',
  'data', 'tracking', 'sitemap', 'robots', 'indexing-key', 'api', 'assets', 'static',
];

/** Unique slugs for products (from the store handle), in input order. */
export function productSlugs(products: ReadonlyArray<{ productId: string }>): Map<string, string> {
  const allocator = new SlugAllocator();
  const slugs = new Map<string, string>();
  for (const product of products) {
    if (!slugs.has(product.productId)) slugs.set(product.productId, allocator.take(slugify(product.productId, 'product')));
  }
  return slugs;
}

/**
 * The replica slug of a store page: its path with `/` → `-` (`/pages/about-us` →
 * `pages-about-us`), the home page → `home`. Query and fragment are ignored.
 */
export function pageReplicaSlug(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    pathname = url;
  }
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // keep the encoded form
  }
  const trimmed = decoded.replace(/^\/+|\/+$/g, '');
  if (!trimmed) return 'home';
  return slugify(trimmed.replace(/\//g, '-'), 'page');
}

/** File paths of the AI site. */
export const SITE_PATHS = {
  llmsTxt: '/llms.txt',
  productLlms: (slug: string) => `/llms/${slug}.txt`,
  /** Every product, one line each (D113: under /llms/, so no router change and the store's own `/llms-full.txt` stays reachable). */
  llmsFull: '/llms/catalog/full.txt',
  /** The full catalogue in pages of `LLMS_CATALOG_PAGE_SIZE` products. */
  llmsCatalogPage: (n: number) => `/llms/catalog/${n}.txt`,
  dataJson: '/data.json',
  trackingJs: '/tracking.js',
  favicon: '/favicon.svg',
  pageReplica: (slug: string) => `/pages/${slug}.md`,
  productPage: (slug: string) => `/ai/products/${slug}/index.html`,
  collectionPage: (handle: string) => `/ai/collections/${handle}/index.html`,
  /** Every product of one kind with its price, stock and options (kind-pages in pages.ts, issue 44). */
  kindPage: (slug: string) => `/ai/kinds/${slug}/index.html`,
  faqPage: (slug: string) => `/ai/${slug}/index.html`,
  questionsIndex: '/ai/questions/index.html',
  aiHome: '/ai/index.html',
  rootIndex: '/index.html',
  sitemap: '/sitemap.xml',
  sitemapPart: (n: number) => `/ai/sitemaps/sitemap-${n}.xml`,
  robots: '/robots.txt',
  indexingKey: '/indexing-key.txt',
  indexNowKey: (key: string) => `/${key}.txt`,
} as const;

/**
 * The product a visited path is about, when the path says it: the AI product page
 * (`/ai/products/<slug>/`, `/products/<slug>/` on the AI host), its llms file
 * (`/llms/<slug>.txt`, not the catalogue pages) or the store's product page through the proxy
 * (`/products/<handle>`, `/collections/<c>/products/<handle>`). An article's path names no
 * product: the caller looks it up.
 */
export function productOfVisitPath(path: string): string | null {
  const clean = pagePath(path);
  const llms = /^\/llms\/([^/]+)\.txt$/.exec(clean);
  if (llms) return llms[1] === 'catalog' ? null : decodeURIComponent(llms[1]);
  const product = /^(?:\/ai)?(?:\/collections\/[^/]+)?\/products\/([^/]+)\/?$/.exec(clean);
  return product ? decodeURIComponent(product[1]) : null;
}

/** The article slug a path may be (`/<slug>/` on the AI host, `/ai/<slug>/` through the proxy). */
export function articleSlugOfPath(path: string): string | null {
  const m = /^(?:\/ai)?\/([a-z0-9][a-z0-9-]*)\/?$/.exec(pagePath(path));
  return m ? m[1] : null;
}

/** A visited path as the page it names: no query or fragment, `…/index.html` as `…/`. */
const pagePath = (path: string): string => stripQueryAndHash(path).replace(/\/index\.html$/, '/');
