/**
 * What goes inside `<main>` for each storefront template, plus its head metadata. Rendered per
 * request from the catalogue (nothing pre-rendered), so thousands of products cost no memory.
 */
import { escapeHtml, withBrand, type Collection, type Page, type Post, type Product } from './catalogue';
import { BRAND, FAQ } from './content';
import { renderDocument, type RenderContext } from './layout';

export const COLLECTION_PAGE_SIZE = 24;

export const plainText = (html: string): string =>
  html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\s+/g, ' ').trim();

const clip = (text: string, max = 155) => (text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`);
const money = (price: string) => `$${price}`;
const dateLabel = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'America/New_York' });
const imgSrc = (path: string, width: number) => `${path}&width=${width}`;

function priceHtml(p: Product): string {
  const prices = p.variants.map((v) => Number(v.price));
  const min = Math.min(...prices);
  const first = p.variants.find((v) => Number(v.price) === min)!;
  const from = prices.some((x) => x !== min) ? 'From ' : '';
  const compare = first.compareAtPrice ? ` <s>${money(first.compareAtPrice)}</s>` : '';
  const soldOut = p.variants.every((v) => !v.available) ? ' <span class="badge">Sold out</span>' : '';
  return `<span class="price">${from}${money(first.price)}${compare}</span>${soldOut}`;
}

function card(p: Product): string {
  const image = p.images[0];
  return (
    `<li class="card"><a href="/products/${p.handle}">` +
    (image ? `<img src="${imgSrc(image.path, 533)}" alt="${escapeHtml(image.alt)}" width="533" height="533" loading="lazy">` : '') +
    `<h3>${escapeHtml(p.title)}</h3></a>${priceHtml(p)}</li>`
  );
}

export function homePage(ctx: RenderContext): string {
  const { catalogue } = ctx;
  const name = escapeHtml(catalogue.storeName);
  const bestSellers = catalogue.collectionByHandle.get('best-sellers')?.products ?? [];
  const featured = (bestSellers.length ? bestSellers : catalogue.products).slice(0, 8);
  const collections = catalogue.collections.filter((c) => c.handle !== 'all' && c.products.length > 0);
  const a = BRAND.address;
  const main =
    `<section class="hero"><h1>${name}</h1><p class="tagline">${escapeHtml(BRAND.tagline)}</p><p>${withBrand(BRAND.story, catalogue.storeName)}</p>` +
    `<p><a class="button" href="/collections/all">Shop coffee</a> <a href="/pages/about">Read our story</a></p></section>` +
    `<section><h2>Best sellers</h2><ul class="grid">${featured.map(card).join('')}</ul></section>` +
    `<section><h2>Shop by collection</h2><ul class="grid">` +
    collections.map((c) => `<li class="card"><a href="/collections/${c.handle}"><h3>${escapeHtml(c.title)}</h3></a><p>${escapeHtml(clip(c.plainDescription, 120))}</p></li>`).join('') +
    `</ul></section>` +
    `<section><h2>From the journal</h2><ul>` +
    catalogue.posts.slice(-3).reverse().map((p) => `<li><a href="/blogs/journal/${p.handle}">${escapeHtml(p.title)}</a> – ${escapeHtml(p.excerpt)}</li>`).join('') +
    `</ul></section>` +
    `<section><h2>Visit the roastery</h2><p>${escapeHtml(a.street)}, ${escapeHtml(a.city)}, Maine. ${escapeHtml(BRAND.hours)}.</p></section>`;
  const org = {
    '@context': 'https://schema.org', '@type': 'Organization', name: catalogue.storeName, url: `${ctx.origin}/`,
    logo: `${ctx.origin}/favicon.ico`, email: BRAND.email, telephone: BRAND.phone,
    address: { '@type': 'PostalAddress', streetAddress: a.street, addressLocality: a.city, addressRegion: a.region, postalCode: a.postalCode, addressCountry: a.country },
  };
  return renderDocument(ctx, {
    title: `${catalogue.storeName} | Small-Batch Coffee Roasters in Portland, Maine`,
    description: clip(`${BRAND.tagline} Single-origin coffee, blends, espresso and brewing gear, roasted to order and shipped within a day. Free US shipping over $45.`),
    path: '/', pageType: 'home', jsonLd: [org],
  }, main);
}

function related(ctx: RenderContext, product: Product): Product[] {
  const list = ctx.catalogue.products;
  const start = list.indexOf(product);
  const home = product.collections.find((c) => c !== 'all');
  const found: Product[] = [];
  // Bounded scan forward: neighbours share collections in both the base and generated lists.
  for (let step = 1; step < Math.min(list.length, 60) && found.length < 4; step++) {
    const candidate = list[(start + step) % list.length];
    if (!home || candidate.collections.includes(home)) found.push(candidate);
  }
  return found;
}

export function productPage(ctx: RenderContext, product: Product, viaCollection?: Collection): string {
  const { origin } = ctx;
  const crumbCollection = viaCollection ?? ctx.catalogue.collectionByHandle.get(product.collections.find((c) => c !== 'all') ?? 'all');
  const first = product.images[0];
  const single = product.variants.length === 1 && product.variants[0].title === 'Default Title';
  const options = product.variants
    .map((v) => `<option value="${v.id}"${v.available ? '' : ' disabled'}>${escapeHtml(v.title)} – ${money(v.price)}${v.available ? '' : ' (sold out)'}</option>`)
    .join('');
  const anyAvailable = product.variants.some((v) => v.available);
  const main =
    `<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="/">Home</a> / ` +
    (crumbCollection ? `<a href="/collections/${crumbCollection.handle}">${escapeHtml(crumbCollection.title)}</a> / ` : '') +
    `<span>${escapeHtml(product.title)}</span></nav>` +
    `<article class="product"><div class="media">` +
    product.images.map((img) => `<img src="${imgSrc(img.path, 1000)}" alt="${escapeHtml(img.alt)}" width="1000" height="1000"${img.position > 1 ? ' loading="lazy"' : ''}>`).join('') +
    `</div><div class="info"><p class="vendor">${escapeHtml(product.vendor)}</p><h1>${escapeHtml(product.title)}</h1>${priceHtml(product)}` +
    `<form method="post" action="/cart/add" accept-charset="UTF-8" data-cart><input type="hidden" name="form_type" value="product"><input type="hidden" name="utf8" value="✓">` +
    (single
      ? `<input type="hidden" name="id" value="${product.variants[0].id}">`
      : `<label for="variant">${escapeHtml(product.optionName)}</label> <select id="variant" name="id">${options}</select>`) +
    ` <button type="submit" name="add"${anyAvailable ? '' : ' disabled'}>${anyAvailable ? 'Add to cart' : 'Sold out'}</button></form>` +
    `<div class="description">${product.bodyHtml}</div>` +
    `<ul class="facts"><li>Type: ${escapeHtml(product.productType)}</li><li>SKU: ${escapeHtml(product.variants[0].sku)}</li>` +
    `<li>Free US shipping over $${Number(BRAND.freeShippingThreshold).toFixed(0)}; ships within one business day.</li></ul></div></article>` +
    `<section><h2>You may also like</h2><ul class="grid">${related(ctx, product).map(card).join('')}</ul></section>`;
  const url = `${origin}/products/${product.handle}`;
  const jsonLd = {
    '@context': 'https://schema.org', '@type': 'Product', name: product.title, url,
    description: plainText(product.bodyHtml), sku: product.variants[0].sku,
    brand: { '@type': 'Brand', name: product.vendor },
    image: product.images.map((i) => `${origin}${i.path}`),
    category: product.productType,
    offers: product.variants.map((v) => ({
      '@type': 'Offer', sku: v.sku, name: v.title === 'Default Title' ? product.title : `${product.title} – ${v.title}`,
      price: v.price, priceCurrency: BRAND.currency, url: `${url}?variant=${v.id}`,
      availability: v.available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    })),
  };
  return renderDocument(ctx, {
    title: product.title, description: clip(plainText(product.bodyHtml)), path: `/products/${product.handle}`,
    pageType: 'product', resourceId: product.id, ogType: 'product', ogImage: first?.path, jsonLd: [jsonLd],
    extraHead: `<meta property="og:price:amount" content="${product.variants[0].price}"><meta property="og:price:currency" content="${BRAND.currency}">`,
  }, main);
}

export function collectionPage(ctx: RenderContext, collection: Collection, page: number): string {
  const total = collection.products.length;
  const pages = Math.max(1, Math.ceil(total / COLLECTION_PAGE_SIZE));
  const items = collection.products.slice((page - 1) * COLLECTION_PAGE_SIZE, page * COLLECTION_PAGE_SIZE);
  const base = `/collections/${collection.handle}`;
  const path = page > 1 ? `${base}?page=${page}` : base;
  const nav =
    pages > 1
      ? `<nav class="pagination" aria-label="Pagination">` +
        (page > 1 ? `<a rel="prev" href="${page === 2 ? base : `${base}?page=${page - 1}`}">Previous</a>` : '') +
        `<span>Page ${Math.min(page, pages)} of ${pages}</span>` +
        (page < pages ? `<a rel="next" href="${base}?page=${page + 1}">Next</a>` : '') +
        `</nav>`
      : '';
  const main =
    `<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="/">Home</a> / <a href="/collections">Collections</a> / <span>${escapeHtml(collection.title)}</span></nav>` +
    `<h1>${escapeHtml(collection.title)}</h1><div class="rte">${collection.descriptionHtml}</div>` +
    `<p class="count">${total} product${total === 1 ? '' : 's'}</p>` +
    (items.length ? `<ul class="grid">${items.map(card).join('')}</ul>` : `<p>No products found.</p>`) +
    nav;
  return renderDocument(ctx, {
    title: page > 1 ? `${collection.title} – Page ${page}` : collection.title,
    description: clip(collection.plainDescription), path, pageType: 'collection', resourceId: collection.id,
    ogImage: collection.image?.path,
    extraHead:
      (page > 1 ? `<link rel="prev" href="${ctx.origin}${page === 2 ? base : `${base}?page=${page - 1}`}">` : '') +
      (page < pages ? `<link rel="next" href="${ctx.origin}${base}?page=${page + 1}">` : ''),
  }, main);
}

export function collectionsIndexPage(ctx: RenderContext): string {
  const main =
    `<h1>Collections</h1><ul class="grid">` +
    ctx.catalogue.collections
      .map((c) => `<li class="card"><a href="/collections/${c.handle}"><h3>${escapeHtml(c.title)}</h3></a><p>${c.products.length} products</p></li>`)
      .join('') +
    `</ul>`;
  return renderDocument(ctx, { title: 'Collections', description: `Every collection at ${ctx.catalogue.storeName}.`, path: '/collections', pageType: 'collections' }, main);
}

export function contentPage(ctx: RenderContext, page: Page): string {
  const name = ctx.catalogue.storeName;
  let body = withBrand(page.body, name);
  const jsonLd: object[] = [];
  // The FAQ is rendered from FAQ until the merchant writes its page body (admin endpoint).
  if (page.handle === 'faq' && !page.body) {
    body = FAQ.map((f) => `<details><summary>${escapeHtml(f.q)}</summary><p>${escapeHtml(f.a)}</p></details>`).join('');
    jsonLd.push({
      '@context': 'https://schema.org', '@type': 'FAQPage',
      mainEntity: FAQ.map((f) => ({ '@type': 'Question', name: f.q, acceptedAnswer: { '@type': 'Answer', text: f.a } })),
    });
  }
  if (page.handle === 'contact') {
    body +=
      `<form method="post" action="/contact#contact_form" id="contact_form" accept-charset="UTF-8">` +
      `<input type="hidden" name="form_type" value="contact"><input type="hidden" name="utf8" value="✓">` +
      `<input type="hidden" name="authenticity_token" value="${ctx.noise.authenticityToken}">` +
      `<p><label for="c-name">Name</label> <input id="c-name" name="contact[name]"></p>` +
      `<p><label for="c-email">Email</label> <input id="c-email" type="email" name="contact[email]" required></p>` +
      `<p><label for="c-body">Message</label> <textarea id="c-body" name="contact[body]" rows="5"></textarea></p>` +
      `<button type="submit">Send</button></form>`;
  }
  const main = `<article class="page"><h1>${escapeHtml(page.title)}</h1><div class="rte">${body}</div></article>`;
  return renderDocument(ctx, {
    title: page.title, description: page.metaDescription.split('{brand}').join(name), path: `/pages/${page.handle}`,
    pageType: 'page', resourceId: page.id, jsonLd,
  }, main);
}

export function blogPage(ctx: RenderContext): string {
  const { blog, posts } = ctx.catalogue;
  const list = [...posts].reverse(); // newest first, as Shopify lists articles
  const main =
    `<h1>${escapeHtml(blog.title)}</h1><p>${escapeHtml(blog.description)}</p>` +
    list
      .map((p) =>
        `<article class="article-card"><h2><a href="/blogs/${blog.handle}/${p.handle}">${escapeHtml(p.title)}</a></h2>` +
        `<p class="meta"><time datetime="${p.publishedAt}">${dateLabel(p.publishedAt)}</time> · ${escapeHtml(p.author)}</p><p>${escapeHtml(p.excerpt)}</p></article>`)
      .join('');
  return renderDocument(ctx, {
    title: blog.title, description: `${blog.description} From the ${ctx.catalogue.storeName} roastery in Portland, Maine.`,
    path: `/blogs/${blog.handle}`, pageType: 'blog', resourceId: blog.id,
  }, main);
}

export function articlePage(ctx: RenderContext, post: Post): string {
  const { blog, storeName } = ctx.catalogue;
  const main =
    `<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="/">Home</a> / <a href="/blogs/${blog.handle}">${escapeHtml(blog.title)}</a> / <span>${escapeHtml(post.title)}</span></nav>` +
    `<article class="article"><h1>${escapeHtml(post.title)}</h1>` +
    `<p class="meta"><time datetime="${post.publishedAt}">${dateLabel(post.publishedAt)}</time> · by ${escapeHtml(post.author)}</p>` +
    `<div class="rte">${withBrand(post.body, storeName)}</div>` +
    `<p class="tags">Tagged: ${post.tags.map(escapeHtml).join(', ')}</p></article>`;
  const url = `${ctx.origin}/blogs/${blog.handle}/${post.handle}`;
  return renderDocument(ctx, {
    title: post.title, description: post.excerpt, path: `/blogs/${blog.handle}/${post.handle}`, pageType: 'article', resourceId: post.id, ogType: 'article',
    extraHead: `<meta property="article:published_time" content="${post.publishedAt}"><meta property="article:modified_time" content="${post.updatedAt}">`,
    jsonLd: [{
      '@context': 'https://schema.org', '@type': 'BlogPosting', headline: post.title, url, datePublished: post.publishedAt, dateModified: post.updatedAt,
      author: { '@type': 'Person', name: post.author }, publisher: { '@type': 'Organization', name: storeName },
    }],
  }, main);
}

export function cartPage(ctx: RenderContext): string {
  const main = `<h1>Your cart</h1><p>Your cart is empty.</p><p><a class="button" href="/collections/all">Continue shopping</a></p>`;
  return renderDocument(ctx, { title: 'Your Shopping Cart', description: 'Your cart.', path: '/cart', pageType: 'cart', noindex: true }, main);
}

export function notFoundPage(ctx: RenderContext, path: string): string {
  const main =
    `<h1>Page not found</h1><p>The page you were looking for does not exist.</p>` +
    `<p><a class="button" href="/collections/all">Continue shopping</a></p>`;
  return renderDocument(ctx, { title: '404 Not Found', description: 'Page not found.', path, pageType: '404', noindex: true }, main);
}
