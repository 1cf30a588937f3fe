/**
 * Live offers on pages that are not rebuilt from the catalogue (D36: prices and stock appear
 * only where every publish refreshes them): a family page (core/articles/family-answer.ts)
 * lists each member's price and stock in `<span data-offer="<product id>">…</span>`, and every
 * publish rewrites each such span from the current catalogue (app/site/deploy.ts). A product
 * the catalogue no longer holds reads "no longer listed". The content hash of such a page is
 * taken with the spans empty (`withoutOffers`), so a price change is not a change of its words.
 */
import { escapeHtml } from './html';
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
      const product = byId.get(id);
      return `${open}${id}${close}${escapeHtml(product ? offerText(product) : 'no longer listed')}${end}`;
    });
    return content === file.content ? file : { ...file, content };
  });
}
