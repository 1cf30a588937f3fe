/**
 * Live offers on pages that are not rebuilt from the catalogue (D36: prices and stock appear
 * only where every publish refreshes them): a family page (core/articles/family-answer.ts)
 * lists each member's price and stock in `<span data-offer="<product id>">…</span>`, and every
 * publish rewrites each such span from the current catalogue (app/site/deploy.ts). A product
 * the catalogue no longer holds reads "no longer listed". The content hash of such a page is
 * taken with the spans empty (`withoutOffers`), so a price change is not a change of its words.
 * A stock slot (`data-offer="stock:<id>,<id>"`) says which of those products or their options
 * are sold out now: an article's answer that names what is sold out (issue 45).
 */
import { joinList } from '../generate/text';
import { soldOutLabels, variantsOf } from '../products/variants';
import { escapeHtml, oneLine } from './html';
import { priceStatement, stockNote } from './offers';
import type { CatalogProduct, SiteFile } from './types';

const SLOT = /(<span data-offer=")([^"]+)(">)([^<]*)(<\/span>)/g;
export const OFFER_SLOT_MARK = 'data-offer="';

/** "USD 98.00, in stock". */
export function offerText(product: CatalogProduct): string {
  return `${priceStatement(product) ?? 'price not listed'}, ${stockNote(product)}`;
}

export function offerSlot(productId: string, text: string): string {
  return `<span data-offer="${escapeHtml(productId)}">${escapeHtml(text)}</span>`;
}

const STOCK_PREFIX = 'stock:';
/** Names listed at most in a stock clause. */
const MAX_SOLD_OUT_NAMES = 6;

/** Whether a product is sold out entirely. */
const soldOut = (product: CatalogProduct) => !product.available || variantsOf(product).every((v) => !v.available);

/**
 * Which of these products, or of their options, are sold out now, as a clause:
 * "every option is in stock", "it is sold out", "sold out now: 40 oz / Rose Quartz".
 * One product speaks of its options; several of themselves (a family's members, by name).
 */
export function stockClause(products: readonly CatalogProduct[]): string {
  if (products.length === 1) {
    const [product] = products as [CatalogProduct];
    if (soldOut(product)) return 'it is sold out';
    const labels = soldOutLabels(product).map(oneLine);
    return labels.length ? `sold out now: ${namesOf(labels)}` : 'every option is in stock';
  }
  const out = products.flatMap((p) => {
    if (soldOut(p)) return [oneLine(p.name)];
    const labels = soldOutLabels(p);
    return labels.length ? [`${oneLine(p.name)} in ${joinList(labels.map(oneLine), 'or')}`] : [];
  });
  return out.length ? `sold out now: ${namesOf(out)}` : 'every one is in stock';
}

function namesOf(names: readonly string[]): string {
  const more = names.length - MAX_SOLD_OUT_NAMES;
  return more > 0 ? `${names.slice(0, MAX_SOLD_OUT_NAMES).join('; ')} and ${more} more` : names.join('; ');
}

/** A stock clause every publish rewrites (see the header). */
export function stockSlot(products: readonly CatalogProduct[]): string {
  return `<span data-offer="${escapeHtml(STOCK_PREFIX + products.map((p) => p.productId).join(','))}">${escapeHtml(stockClause(products))}</span>`;
}

/** The page with every offer slot empty: what its content hash is taken over. */
export function withoutOffers(html: string): string {
  return html.includes(OFFER_SLOT_MARK) ? html.replace(SLOT, '$1$2$3$5') : html;
}

/** Every offer slot of the files rewritten from the current catalogue; files without one are returned as they are. */
export function refreshOfferSlots(files: readonly SiteFile[], products: readonly CatalogProduct[]): SiteFile[] {
  const byId = new Map(products.map((p) => [escapeHtml(p.productId), p]));
  return files.map((file) => {
    if (!file.content.includes(OFFER_SLOT_MARK)) return file;
    const content = file.content.replace(SLOT, (_m, open: string, id: string, close: string, _old: string, end: string) => {
      if (id.startsWith(STOCK_PREFIX)) {
        const listed = id.slice(STOCK_PREFIX.length).split(',').flatMap((one) => byId.get(one) ?? []);
        return `${open}${id}${close}${escapeHtml(listed.length ? stockClause(listed) : 'no longer listed')}${end}`;
      }
      const product = byId.get(id);
      return `${open}${id}${close}${escapeHtml(product ? offerText(product) : 'no longer listed')}${end}`;
    });
    return content === file.content ? file : { ...file, content };
  });
}
