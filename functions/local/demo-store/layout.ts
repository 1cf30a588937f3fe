/**
 * The theme shell every HTML page shares: head (title, description, canonical, OG), header nav,
 * footer (with the footer-only Brew Guide link), and the per-request Shopify noise. Views render
 * only what goes inside `<main>`.
 */
import { escapeHtml, type Catalogue } from './catalogue';
import { BRAND } from './content';
import { SHOP_ID, THEME_ID, THEME_VERSION, type Noise } from './noise';

export interface RenderContext {
  catalogue: Catalogue;
  /** e.g. http://127.0.0.1:54321 */
  origin: string;
  noise: Noise;
}

export interface PageMeta {
  title: string;
  description: string;
  /** Canonical path (with `?page=N` when paginated). */
  path: string;
  /** Shopify's page type, as in `__st.p` and ShopifyAnalytics. */
  pageType: 'home' | 'product' | 'collection' | 'collections' | 'page' | 'blog' | 'article' | 'cart' | '404';
  resourceId?: number;
  ogType?: 'website' | 'product' | 'article';
  ogImage?: string;
  jsonLd?: object[];
  extraHead?: string;
  noindex?: boolean;
}

export const asset = (name: string) => `/cdn/shop/t/${THEME_ID % 1000}/assets/${name}?v=${THEME_VERSION}`;

/** JSON inside a <script>: `</script>` in data must not end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const NAV: Array<[string, string]> = [
  ['/collections/all', 'Shop All'],
  ['/collections/single-origin', 'Single Origin'],
  ['/collections/blends-espresso', 'Blends & Espresso'],
  ['/collections/brewing-gear', 'Brewing Gear'],
  ['/collections/gifts-subscriptions', 'Gifts'],
  ['/blogs/journal', 'Journal'],
  ['/pages/about', 'Our Story'],
];

function header(storeName: string): string {
  const items = NAV.map(([href, label]) => `<li><a href="${href}">${escapeHtml(label)}</a></li>`).join('');
  return (
    `<div class="announcement" role="region" aria-label="Announcement">Free US shipping on orders over $${Number(BRAND.freeShippingThreshold).toFixed(0)} · Roasted Monday to Thursday</div>` +
    `<header class="site-header"><a class="logo" href="/">${escapeHtml(storeName)}</a>` +
    `<nav class="site-nav" aria-label="Main"><ul>${items}</ul></nav>` +
    `<a class="cart-link" href="/cart">Cart (<span class="cart-count">0</span>)</a></header>`
  );
}

function footer(ctx: RenderContext): string {
  const { catalogue, noise } = ctx;
  const shop = catalogue.collections
    .filter((c) => c.products.length > 0)
    .map((c) => `<li><a href="/collections/${c.handle}">${escapeHtml(c.title)}</a></li>`)
    .join('');
  const a = BRAND.address;
  return (
    `<footer class="site-footer">` +
    `<div><h2>Shop</h2><ul>${shop}</ul></div>` +
    `<div><h2>Help</h2><ul><li><a href="/pages/shipping-returns">Shipping &amp; Returns</a></li><li><a href="/pages/faq">FAQ</a></li>` +
    `<li><a href="/pages/brew-guide">Brew Guide</a></li><li><a href="/pages/contact">Contact Us</a></li></ul></div>` +
    `<div><h2>About</h2><ul><li><a href="/pages/about">Our Story</a></li><li><a href="/blogs/journal">Journal</a></li></ul>` +
    `<p>${escapeHtml(a.street)}, ${escapeHtml(a.city)}, ${a.region} ${a.postalCode}<br>${escapeHtml(BRAND.hours)}</p></div>` +
    `<div><h2>Roast-day emails</h2><p>New coffees and brewing notes, twice a month.</p>` +
    `<form method="post" action="/contact#newsletter" id="newsletter" accept-charset="UTF-8">` +
    `<input type="hidden" name="form_type" value="customer"><input type="hidden" name="utf8" value="✓">` +
    `<input type="hidden" name="authenticity_token" value="${noise.authenticityToken}">` +
    `<label for="newsletter-email">Email</label> <input type="email" id="newsletter-email" name="contact[email]" required> <button type="submit">Subscribe</button></form></div>` +
    `<p class="legal">© 2025 ${escapeHtml(catalogue.storeName)} · <a href="/pages/shipping-returns">Refund policy</a> · Powered by Shopify</p>` +
    `</footer>`
  );
}

function analytics(ctx: RenderContext, meta: PageMeta): string {
  const { noise, origin } = ctx;
  const host = new URL(origin).host;
  const st = {
    a: SHOP_ID, offset: -18000, reqid: noise.reqid, pageurl: `${host}${meta.path}`, u: noise.visitorToken,
    p: meta.pageType, ...(meta.resourceId ? { rtyp: meta.pageType, rid: meta.resourceId } : {}),
  };
  const analyticsMeta = {
    currency: BRAND.currency,
    page: { pageType: meta.pageType, ...(meta.resourceId ? { resourceType: meta.pageType, resourceId: meta.resourceId } : {}) },
    page_view_event_id: noise.pageViewEventId,
  };
  return (
    `<script id="__st" nonce="${noise.nonce}">var __st=${scriptJson(st)};</script>` +
    // Every Shopify page states the presentment currency this way (what storeCurrency reads on HTML).
    `<script nonce="${noise.nonce}">var Shopify=Shopify||{};Shopify.shop=${scriptJson(`${host}`)};Shopify.locale="en";Shopify.currency=${scriptJson({ active: BRAND.currency, rate: '1.0' })};Shopify.country=${scriptJson(BRAND.address.country)};</script>` +
    `<script nonce="${noise.nonce}">window.ShopifyAnalytics=window.ShopifyAnalytics||{};window.ShopifyAnalytics.meta=${scriptJson(analyticsMeta)};</script>`
  );
}

export function renderDocument(ctx: RenderContext, meta: PageMeta, main: string): string {
  const { catalogue, origin, noise } = ctx;
  const title = meta.pageType === 'home' ? meta.title : `${meta.title} – ${catalogue.storeName}`;
  const canonical = `${origin}${meta.path}`;
  const jsonLd = (meta.jsonLd ?? [])
    .map((data) => `<script type="application/ld+json" nonce="${noise.nonce}">${scriptJson(data)}</script>`)
    .join('');
  return (
    `<!doctype html>\n<html lang="en"><head>` +
    `<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="description" content="${escapeHtml(meta.description)}">` +
    `<link rel="canonical" href="${escapeHtml(canonical)}">` +
    (meta.noindex ? `<meta name="robots" content="noindex,nofollow">` : '') +
    `<meta property="og:site_name" content="${escapeHtml(catalogue.storeName)}">` +
    `<meta property="og:url" content="${escapeHtml(canonical)}">` +
    `<meta property="og:title" content="${escapeHtml(meta.title)}">` +
    `<meta property="og:type" content="${meta.ogType ?? 'website'}">` +
    `<meta property="og:description" content="${escapeHtml(meta.description)}">` +
    (meta.ogImage ? `<meta property="og:image" content="${escapeHtml(origin + meta.ogImage)}">` : '') +
    (meta.extraHead ?? '') +
    `<link rel="icon" type="image/x-icon" href="/favicon.ico">` +
    `<link rel="stylesheet" href="${asset('base.css')}">` +
    `<meta name="shopify-y" content="${noise.shopifyY}" data-expiration="${noise.expirationMs}">` +
    analytics(ctx, meta) +
    `<script src="${asset('theme.js')}" defer="defer" nonce="${noise.nonce}"></script>` +
    jsonLd +
    `</head><body class="template-${meta.pageType}">` +
    header(catalogue.storeName) +
    `<main id="MainContent" role="main">${main}</main>` +
    footer(ctx) +
    `</body></html>\n<!-- rendered at ${noise.renderedAt} -->\n`
  );
}
