/**
 * The demo store's HTTP routing: maps Shopify storefront URLs to the JSON, XML, HTML and asset
 * renderers. Everything is rendered per request from the current catalogue (store-state.ts); only
 * noise varies between two requests for the same catalogue.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FAVICON_ICO, THEME_CSS, THEME_JS, placeholderJpeg } from './assets';
import type { Catalogue } from './catalogue';
import type { RenderContext } from './layout';
import { createNoise, SHOP_ID } from './noise';
import { collectionsPage, productJson, productsPage, type JsonResult } from './shopify-json';
import { childSitemap, robotsTxt, sitemapIndex } from './sitemaps';
import { agentFile } from './agent-files';
import * as views from './views';
import { BRAND } from './content';

interface Reply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

const html = (body: string, status = 200): Reply => ({ status, body, contentType: 'text/html; charset=utf-8' });
const json = (r: JsonResult): Reply => ({ status: r.status, body: JSON.stringify(r.body), contentType: 'application/json; charset=utf-8' });
const redirect = (location: string, status = 301): Reply => ({ status, body: '', contentType: 'text/plain; charset=utf-8', headers: { Location: location } });
const jsonNotFound = (): Reply => json({ status: 404, body: { errors: 'Not Found' } });

/** `/cdn/shop/files/<handle>[-N].jpg`: only images the catalogue actually references exist. */
function imageExists(catalogue: Catalogue, file: string): boolean {
  const name = file.replace(/\.jpg$/, '');
  if (catalogue.productByHandle.has(name)) return true;
  const m = /^(.+)-(\d)$/.exec(name);
  const product = m && catalogue.productByHandle.get(m[1]);
  return !!product && Number(m![2]) >= 2 && Number(m![2]) <= product.images.length;
}

function emptyCart() {
  return {
    token: randomUUID().replace(/-/g, ''), note: null, attributes: {}, original_total_price: 0, total_price: 0, total_discount: 0,
    total_weight: 0.0, item_count: 0, items: [], requires_shipping: false, currency: BRAND.currency, items_subtotal_price: 0,
    cart_level_discount_applications: [],
  };
}

function shopMeta(catalogue: Catalogue, origin: string) {
  const host = new URL(origin).host;
  return {
    id: SHOP_ID, name: catalogue.storeName, city: BRAND.address.city, province: 'Maine', country: BRAND.address.country,
    currency: BRAND.currency, domain: host, url: origin, myshopify_domain: 'harbor-and-pine.myshopify.com',
    description: BRAND.tagline, ships_to_countries: ['US', 'CA'], money_format: '${{amount}}',
    published_collections_count: catalogue.collections.length, published_products_count: catalogue.products.length,
  };
}

export function route(catalogue: Catalogue, origin: string, method: string, rawUrl: string): Reply {
  const url = new URL(rawUrl, 'http://store.local');
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = url.pathname;
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const params = url.searchParams;
  const ctx = (): RenderContext => ({ catalogue, origin, noise: createNoise() });
  const notFound = () => html(views.notFoundPage(ctx(), path), 404);

  // Storefront forms post here; answer like Shopify (redirect) rather than 405.
  if (method === 'POST') {
    if (path === '/cart/add') return redirect('/cart', 302);
    if (path === '/contact') return redirect('/pages/contact?contact_posted=true', 302);
    return { status: 405, body: 'Method Not Allowed\n', contentType: 'text/plain; charset=utf-8', headers: { Allow: 'GET, HEAD' } };
  }
  if (method !== 'GET' && method !== 'HEAD') {
    return { status: 405, body: 'Method Not Allowed\n', contentType: 'text/plain; charset=utf-8', headers: { Allow: 'GET, HEAD' } };
  }

  if (path === '/') return html(views.homePage(ctx()));
  if (path === '/robots.txt') return { status: 200, body: robotsTxt(origin), contentType: 'text/plain; charset=utf-8' };
  if (path === '/sitemap.xml') return sitemapIndex(catalogue, origin);
  const sm = /^\/sitemap_([a-z]+)_(\d+)\.xml$/.exec(path);
  if (sm) return childSitemap(catalogue, origin, sm[1], Number(sm[2]), params);
  const agent = agentFile(catalogue, origin, path);
  if (agent) return agent;
  if (path === '/favicon.ico') return { status: 200, body: FAVICON_ICO, contentType: 'image/x-icon', headers: { 'Cache-Control': 'public, max-age=86400' } };

  const file = /^\/cdn\/shop\/files\/([a-z0-9-]+\.jpg)$/.exec(path);
  if (file) {
    if (!imageExists(catalogue, file[1])) return { status: 404, body: 'Not Found\n', contentType: 'text/plain; charset=utf-8' };
    return { status: 200, body: placeholderJpeg(file[1]), contentType: 'image/jpeg', headers: { 'Cache-Control': 'public, max-age=31536000, immutable' } };
  }
  const themeAsset = /^\/cdn\/shop\/t\/\d+\/assets\/(base\.css|theme\.js)$/.exec(path);
  if (themeAsset) {
    const css = themeAsset[1] === 'base.css';
    return { status: 200, body: css ? THEME_CSS : THEME_JS, contentType: css ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8', headers: { 'Cache-Control': 'public, max-age=31536000' } };
  }

  if (path === '/products.json') return json(productsPage(catalogue.products, params, origin));
  // The empty cart and the shop's meta, as Shopify serves them: both name the store's currency.
  if (path === '/cart.js' || path === '/cart.json') return json({ status: 200, body: emptyCart() });
  if (path === '/meta.json') return json({ status: 200, body: shopMeta(catalogue, origin) });
  if (path === '/collections.json') return json(collectionsPage(catalogue.collections, params, origin));
  if (path === '/products') return redirect('/collections/all');
  if (path === '/collections') return html(views.collectionsIndexPage(ctx()));

  const productJsonMatch = /^\/products\/([^/]+)\.json$/.exec(path);
  if (productJsonMatch) {
    const product = catalogue.productByHandle.get(productJsonMatch[1].toLowerCase());
    return product ? json({ status: 200, body: { product: productJson(product, origin) } }) : jsonNotFound();
  }
  const productMatch = /^\/products\/([^/]+)$/.exec(path);
  if (productMatch) {
    const product = catalogue.productByHandle.get(productMatch[1].toLowerCase());
    return product ? html(views.productPage(ctx(), product)) : notFound();
  }

  const collectionProductsJson = /^\/collections\/([^/]+)\/products\.json$/.exec(path);
  if (collectionProductsJson) {
    const collection = catalogue.collectionByHandle.get(collectionProductsJson[1].toLowerCase());
    return collection ? json(productsPage(collection.products, params, origin)) : jsonNotFound();
  }
  // Themes also link products under a collection; the canonical still points at /products/<handle>.
  const nested = /^\/collections\/([^/]+)\/products\/([^/]+)$/.exec(path);
  if (nested) {
    const collection = catalogue.collectionByHandle.get(nested[1].toLowerCase());
    const product = catalogue.productByHandle.get(nested[2].toLowerCase());
    return collection && product ? html(views.productPage(ctx(), product, collection)) : notFound();
  }
  const collectionMatch = /^\/collections\/([^/]+)$/.exec(path);
  if (collectionMatch) {
    const collection = catalogue.collectionByHandle.get(collectionMatch[1].toLowerCase());
    if (!collection) return notFound();
    const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
    return html(views.collectionPage(ctx(), collection, page));
  }

  const pageMatch = /^\/pages\/([^/]+)$/.exec(path);
  if (pageMatch) {
    const page = catalogue.pages.find((p) => p.handle === pageMatch[1].toLowerCase());
    return page ? html(views.contentPage(ctx(), page)) : notFound();
  }
  const blogPrefix = `/blogs/${catalogue.blog.handle}`;
  if (path === blogPrefix) return html(views.blogPage(ctx()));
  if (path.startsWith(`${blogPrefix}/`)) {
    const post = catalogue.posts.find((p) => p.handle === path.slice(blogPrefix.length + 1).toLowerCase());
    return post ? html(views.articlePage(ctx(), post)) : notFound();
  }
  if (path === '/cart') return html(views.cartPage(ctx()));
  return notFound();
}

/**
 * Node request handler; `onRequest` counts traffic for `requests()`. `getCatalogue` is read once
 * per request: the admin API replaces the catalogue whole, so a response never mixes two versions.
 */
export function createHandler(getCatalogue: () => Catalogue, getOrigin: () => string, onRequest: () => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    onRequest();
    const method = req.method ?? 'GET';
    let reply: Reply;
    try {
      reply = route(getCatalogue(), getOrigin(), method, req.url ?? '/');
    } catch (err) {
      reply = { status: 500, body: `Internal Server Error\n${(err as Error).message}\n`, contentType: 'text/plain; charset=utf-8' };
    }
    const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
    res.writeHead(reply.status, {
      'Content-Type': reply.contentType,
      'Content-Length': String(body.length),
      'X-ShopId': String(SHOP_ID),
      'X-Request-Id': randomUUID(),
      'Powered-By': 'Shopify',
      ...(reply.contentType.startsWith('text/html') || reply.contentType.startsWith('application/json') ? { 'Cache-Control': 'private, no-store' } : {}),
      ...reply.headers,
    });
    res.end(method === 'HEAD' ? undefined : body);
  };
}
