/**
 * A catalogue served as a Shopify store with the Dawn theme, as the answerability bench
 * (answerability.ts) reads the store's own pages: one product page per product
 * (`/products/<handle>`) and the all-products page `/collections/all`, 24 products a page
 * (`?page=2`, ...: Dawn's "Products per page" setting). The HTML is Dawn's, trimmed to what a
 * crawler without JavaScript reads; "currency code enabled", so prices read `$55.00 USD`,
 * `£1,299.00 GBP`.
 *
 * Product page: header, vendor, `<h1>` title, the price of the selected (first available)
 * variant as Dawn prints it ("Regular price" / compare-at / "Sale price"), every value of every
 * option as a radio label (a value all of whose variants are sold out carries the
 * visually-hidden "Variant sold out or unavailable"), Dawn's `<noscript>` variant list
 * ("<variant> - Sold out - $35.00", which a reader without JavaScript sees), quantity,
 * "Add to cart" or "Sold out", the description (`body_html`), footer. Left out: the "Sale" and
 * "Sold out" price badges Dawn prints on every product page for CSS to show or hide, and the
 * hidden label text Dawn versions print on every value (text that says nothing true), and what
 * JavaScript loads (recommendations, dynamic checkout buttons).
 * Collection page: "Collection: Products", filters, product cards (title, price, "From" when
 * the variants' prices differ, "Sold out" or "Sale" badge), pagination. Pure.
 */
import { decimalValue, priceSpan, variantsOf } from '../functions/core/products/variants';
import type { CatalogProduct, CatalogVariant, StoreSnapshot } from '../functions/core/site/types';

export const COLLECTION_PAGE_SIZE = 24;

/** A page of the store: its path and HTML. */
export interface StorePage {
  path: string;
  content: string;
  contentType: string;
}

const HTML = 'text/html; charset=utf-8';
const SYMBOLS: Record<string, string> = { USD: '$', NZD: '$', AUD: '$', CAD: '$', GBP: '£', EUR: '€' };

const esc = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Shopify's `money` ("$1,299.00") or, with the code, `money_with_currency` ("$1,299.00 USD"); empty for no price. */
export function money(amount: string | null, currency: string, withCode = true): string {
  const value = decimalValue(amount);
  if (value === null) return '';
  const figure = value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const symbol = SYMBOLS[currency];
  return symbol ? `${symbol}${figure}${withCode ? ` ${currency}` : ''}` : `${figure} ${currency}`;
}

function layout(store: StoreSnapshot, title: string, main: string): string {
  const name = esc(store.business.name);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} &ndash; ${name}</title>
<link rel="stylesheet" href="/cdn/shop/t/1/assets/base.css"><style>.visually-hidden{position:absolute!important}</style>
<script src="/cdn/shop/t/1/assets/global.js" defer></script></head>
<body class="gradient">
<a class="skip-to-content-link button visually-hidden" href="#MainContent">Skip to content</a>
<div class="announcement-bar"><p class="announcement-bar__message h5">Welcome to our store</p></div>
<header class="header"><a href="/" class="header__heading-link"><span class="h2">${name}</span></a>
<nav class="header__inline-menu"><ul class="list-menu"><li><a href="/">Home</a></li><li><a href="/collections/all">Catalog</a></li><li><a href="/pages/contact">Contact</a></li></ul></nav>
<a href="/search" class="header__icon"><span class="visually-hidden">Search</span></a><a href="/account/login" class="header__icon"><span class="visually-hidden">Log in</span></a><a href="/cart" class="header__icon"><span class="visually-hidden">Cart</span></a></header>
<main id="MainContent" class="content-for-layout" role="main">
${main}
</main>
<footer class="footer"><h2 class="footer-block__heading">Subscribe to our emails</h2><form><label for="NewsletterForm">Email</label><input id="NewsletterForm" type="email"><button>Subscribe</button></form>
<div class="footer__localization"><h2>Country/region</h2></div>
<small class="copyright__content">&copy; 2026, <a href="/">${name}</a> <a href="https://www.shopify.com">Powered by Shopify</a></small>
<ul class="policies list-unstyled"><li><a href="/policies/refund-policy">Refund policy</a></li><li><a href="/policies/privacy-policy">Privacy policy</a></li><li><a href="/policies/terms-of-service">Terms of service</a></li></ul></footer>
<script>window.shopUrl = '${esc(store.business.url)}'; window.variantStrings = { soldOut: 'Sold out', unavailable: 'Unavailable' };</script>
</body></html>`;
}

/** Dawn's snippets/price.liquid: the regular and the sale block are both in the HTML (CSS picks one). */
function priceBlock(price: string, compareAt: string, classes: string): string {
  return `<div class="price${classes}"><div class="price__container">
<div class="price__regular"><span class="visually-hidden visually-hidden--inline">Regular price</span><span class="price-item price-item--regular">${price}</span></div>
<div class="price__sale"><span class="visually-hidden visually-hidden--inline">Regular price</span><span><s class="price-item price-item--regular">${compareAt}</s></span><span class="visually-hidden visually-hidden--inline">Sale price</span><span class="price-item price-item--sale price-item--last">${price}</span></div>
</div></div>`;
}

const onSale = (price: string | null, compareAt: string | null): boolean =>
  (decimalValue(compareAt) ?? 0) > (decimalValue(price) ?? Infinity);

/** Each option's values in first-seen order, with the variants holding each. */
function optionValues(product: CatalogProduct): Array<{ name: string; values: Array<{ value: string; variants: CatalogVariant[] }> }> {
  const variants = variantsOf(product);
  return (product.optionNames ?? []).map((name, d) => {
    const values = new Map<string, CatalogVariant[]>();
    for (const v of variants) {
      const value = v.options[d];
      if (value) values.set(value, [...(values.get(value) ?? []), v]);
    }
    return { name, values: [...values].map(([value, holding]) => ({ value, variants: holding })) };
  }).filter((o) => o.values.length > 0);
}

function variantPicker(product: CatalogProduct): string {
  if (variantsOf(product).length < 2) return '';
  const fieldsets = optionValues(product).map((option, o) => {
    const labels = option.values.map(({ value, variants }, i) => {
      const soldOut = variants.every((v) => !v.available);
      return `<input type="radio" id="option-${o}-${i}" name="${esc(option.name)}" value="${esc(value)}"${i === 0 ? ' checked' : ''}${soldOut ? ' class="disabled"' : ''}>` +
        `<label for="option-${o}-${i}">${esc(value)}${soldOut ? '<span class="visually-hidden">Variant sold out or unavailable</span>' : ''}</label>`;
    }).join('\n');
    return `<fieldset class="js product-form__input product-form__input--pill"><legend class="form__label">${esc(option.name)}</legend>\n${labels}\n</fieldset>`;
  });
  return `<variant-selects class="no-js-hidden">\n${fieldsets.join('\n')}\n<script type="application/json">[]</script></variant-selects>`;
}

/** Dawn's `<noscript>` form: every variant, "- Sold out" when it is, and its price without the code. */
function noscriptVariants(product: CatalogProduct, currency: string): string {
  const variants = variantsOf(product);
  const options = variants.map((v) => `<option${v.available ? '' : ' disabled'}>${esc(v.title || 'Default Title')}${v.available ? '' : ' - Sold out'} - ${money(v.price, currency, false)}</option>`);
  return `<noscript class="product-form__noscript-wrapper"><div class="product-form__input${variants.length < 2 ? ' hidden' : ''}"><label class="form__label" for="Variants">Product variants</label>` +
    `<div class="select"><select name="id" id="Variants" class="select__select">${options.join('')}</select></div></div></noscript>`;
}

export function productPage(store: StoreSnapshot, product: CatalogProduct, bodyHtml: string): StorePage {
  const currency = product.currency ?? 'USD';
  const variants = variantsOf(product);
  const selected = variants.find((v) => v.available) ?? variants[0]!;
  const available = variants.some((v) => v.available);
  const title = esc(product.name);
  const classes = ` price--large${available ? '' : ' price--sold-out'}${onSale(selected.price, selected.compareAtPrice) ? ' price--on-sale' : ''} price--show-badge`;
  const main = `<section class="product"><div class="product__info-container">
<p class="product__text caption-with-letter-spacing">${esc(product.vendor)}</p>
<div class="product__title"><h1>${title}</h1></div>
<div class="no-js-hidden" role="status">${priceBlock(money(selected.price, currency), money(selected.compareAtPrice, currency), classes)}</div>
<div class="product__tax caption rte">Shipping calculated at checkout.</div>
${variantPicker(product)}
${noscriptVariants(product, currency)}
<div class="product-form__input product-form__quantity"><label class="quantity__label form__label">Quantity</label><quantity-input class="quantity">` +
    `<button class="quantity__button" name="minus" type="button"><span class="visually-hidden">Decrease quantity for ${title}</span></button><input class="quantity__input" type="number" name="quantity" value="1">` +
    `<button class="quantity__button" name="plus" type="button"><span class="visually-hidden">Increase quantity for ${title}</span></button></quantity-input></div>
<div class="product-form__buttons"><button type="submit" name="add" class="product-form__submit button"${available ? '' : ' disabled'}><span>${available ? 'Add to cart' : 'Sold out'}</span></button></div>
<div class="product__description rte quick-add-hidden">${bodyHtml}</div>
<share-button class="share-button"><button class="share-button__button">Share</button></share-button>
</div></section>`;
  return { path: new URL(product.url).pathname, content: layout(store, product.name, main), contentType: HTML };
}

function card(product: CatalogProduct): string {
  const currency = product.currency ?? 'USD';
  const span = priceSpan(product);
  const low = span ? money(span.low, currency) : '';
  const price = span && span.highValue > span.lowValue ? `From ${low}` : low;
  const compareAts = variantsOf(product).map((v) => v.compareAtPrice).filter((c) => decimalValue(c) !== null);
  const compareAt = compareAts.sort((a, b) => (decimalValue(a) as number) - (decimalValue(b) as number))[0] ?? null;
  const badge = !product.available ? 'Sold out' : onSale(span?.low ?? null, compareAt) ? 'Sale' : '';
  const link = new URL(product.url).pathname;
  return `<li class="grid__item"><div class="card-wrapper product-card-wrapper"><div class="card card--standard"><div class="card__content">
<div class="card__information"><h3 class="card__heading h5"><a href="${esc(link)}" class="full-unstyled-link">${esc(product.name)}</a></h3>
<div class="card-information">${priceBlock(price, money(compareAt, currency), '')}</div></div>
<div class="card__badge bottom left">${badge ? `<span class="badge badge--bottom-left">${badge}</span>` : ''}</div>
</div></div></div></li>`;
}

function collectionPages(store: StoreSnapshot): StorePage[] {
  const products = store.products;
  const pages = Math.max(1, Math.ceil(products.length / COLLECTION_PAGE_SIZE));
  const inStock = products.filter((p) => p.available).length;
  const highest = Math.max(0, ...products.map((p) => priceSpan(p)?.highValue ?? 0));
  const currency = products[0]?.currency ?? 'USD';
  return Array.from({ length: pages }, (_, i) => {
    const page = i + 1;
    const cards = products.slice(i * COLLECTION_PAGE_SIZE, page * COLLECTION_PAGE_SIZE).map(card).join('\n');
    const main = `<div class="collection-hero"><h1 class="collection-hero__title"><span class="visually-hidden">Collection: </span>Products</h1></div>
<facet-filters-form><form id="FacetFiltersForm"><h2 class="facets__heading">Filter:</h2>
<details><summary>Availability</summary><ul><li><label>In stock (${inStock})</label></li><li><label>Out of stock (${products.length - inStock})</label></li></ul></details>
<details><summary>Price</summary><p>The highest price is ${money(String(highest.toFixed(2)), currency)}</p></details>
<label for="SortBy">Sort by:</label><select name="sort_by" id="SortBy"><option>Featured</option><option>Best selling</option><option>Alphabetically, A-Z</option><option>Alphabetically, Z-A</option><option>Price, low to high</option><option>Price, high to low</option><option>Date, old to new</option><option>Date, new to old</option></select>
<h2 class="product-count__text">${products.length} products</h2></form></facet-filters-form>
<ul id="product-grid" class="grid product-grid">
${cards}
</ul>
<nav class="pagination-wrapper" role="navigation" aria-label="Pagination"><ul class="pagination__list list-unstyled">${Array.from({ length: pages }, (_, j) =>
      `<li><a href="/collections/all?page=${j + 1}" class="pagination__item"><span class="visually-hidden">Page</span>${j + 1}</a></li>`).join('')}</ul></nav>`;
    const path = page === 1 ? '/collections/all' : `/collections/all?page=${page}`;
    return { path, content: layout(store, page === 1 ? 'Products' : `Products – Page ${page}`, main), contentType: HTML };
  });
}

/** The store's product pages and all-products pages (see the header); `bodyHtml` gives each product's description HTML. */
export function dawnStorePages(store: StoreSnapshot, bodyHtml: (product: CatalogProduct) => string): StorePage[] {
  return [...store.products.map((p) => productPage(store, p, bodyHtml(p))), ...collectionPages(store)];
}
