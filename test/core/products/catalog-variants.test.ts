/** Catalogue rules for variants, tags, body text and the store's currency signals. */
import { htmlToText, toCatalogProduct, type StorefrontProduct } from '../../../functions/core/products/catalog';
import { currencyFromHtml, currencyFromJson, normalizeCurrency } from '../../../functions/core/products/currency';
import { isInternalTag, publicTags } from '../../../functions/core/products/tags';
import { gtinOf, priceSpan, soldOutLabels, toCatalogVariant, variantSummary } from '../../../functions/core/products/variants';

const STORE = 'https://lotus-stone.example';

function mat(variants: StorefrontProduct['variants'], options = [{ name: 'Color' }, { name: 'Thickness' }]): StorefrontProduct {
  return { handle: 'grip-pro', title: 'Grip Pro Yoga Mat', variants, options, tags: ['Yoga Mat', '__label:New', 'YGroup_mats', 'filter-color-black'] };
}

describe('variants', () => {
  it('keeps every variant: options, price, compare-at, stock, SKU and a valid barcode as GTIN', () => {
    const p = toCatalogProduct(
      mat([
        { id: 1, title: 'Matte Black / 4 mm', option1: 'Matte Black', option2: '4 mm', price: '48.00', compare_at_price: '60.00', available: false, sku: 'GP-MB-4', barcode: '5601234000016' },
        { id: 2, title: 'Matte Black / 6 mm', option1: 'Matte Black', option2: '6 mm', price: '54.00', available: false, sku: '', barcode: '12345' },
        { id: 3, title: 'Sage / 4 mm', option1: 'Sage', option2: '4 mm', price: '48.00', available: true, sku: 'GP-SG-4', barcode: null },
        { id: 4, title: 'Sage / 6 mm', option1: 'Sage', option2: '6 mm', price: '54.00', available: true },
      ]),
      STORE,
      'usd',
    );
    expect(p.currency).toBe('USD');
    expect(p.optionNames).toEqual(['Color', 'Thickness']);
    expect(p.variants).toHaveLength(4);
    expect(p.variants![0]).toEqual({ id: '1', title: 'Matte Black / 4 mm', options: ['Matte Black', '4 mm'], price: '48.00', compareAtPrice: '60.00', available: false, sku: 'GP-MB-4', gtin: '5601234000016' });
    expect(p.variants![1]!.sku).toBeNull();
    expect(p.variants![1]!.gtin).toBeNull();
    // Derived summaries: the lowest price among what can be bought, and "some can be bought".
    expect(p.price).toBe('48.00');
    expect(p.compareAtPrice).toBeNull();
    expect(p.available).toBe(true);
    expect(priceSpan(p)).toEqual(expect.objectContaining({ low: '48.00', high: '54.00', count: 4 }));
    // A colour sold out in every thickness is named alone.
    expect(soldOutLabels(p)).toEqual(['Matte Black']);
    expect(p.tags).toEqual(['Yoga Mat']);
  });

  it('names single sold-out combinations by their full title', () => {
    const p = toCatalogProduct(
      mat([
        { id: 1, option1: 'Black', option2: '4 mm', price: '48.00', available: false },
        { id: 2, option1: 'Black', option2: '6 mm', price: '54.00', available: true },
        { id: 3, option1: 'Sage', option2: '4 mm', price: '48.00', available: true },
        { id: 4, option1: 'Sage', option2: '6 mm', price: '54.00', available: false },
      ]),
      STORE,
    );
    expect(soldOutLabels(p)).toEqual(['Black / 4 mm', 'Sage / 6 mm']);
    expect(p.currency).toBeNull();
  });

  it('reads "Default Title" as a product without options', () => {
    const v = toCatalogVariant({ id: 9, title: 'Default Title', option1: 'Default Title', price: '29.00', available: true, sku: 'BAG-1' });
    expect(v).toEqual(expect.objectContaining({ title: '', options: [], sku: 'BAG-1' }));
    expect(variantSummary([])).toEqual({ price: null, compareAtPrice: null, available: true });
  });

  it('accepts GTIN-8/12/13/14 with a correct check digit only', () => {
    expect(gtinOf('96385074')).toBe('96385074');
    expect(gtinOf('036000291452')).toBe('036000291452');
    expect(gtinOf('4006381333931')).toBe('4006381333931');
    expect(gtinOf('4006381333932')).toBeNull();
    expect(gtinOf('12345')).toBeNull();
    expect(gtinOf('0000000000000')).toBeNull();
    expect(gtinOf('')).toBeNull();
  });
});

describe('tags', () => {
  it('drops theme and app tags, keeps shopper-facing ones', () => {
    for (const tag of ['__label:New', '__badge:bestseller', 'YGroup_mats', 'filter-color-black', 'filter_thickness_6mm', 'spo-default', 'pr_reviewed', 'meta-related-strap', 'sca_clone_freegift', '6834129873', 'color:black', '__hidden']) {
      expect(isInternalTag(tag)).toBe(true);
    }
    for (const tag of ['Yoga Mat', 'eco', 'non-slip', 'sale', 'organic cotton', 'hot yoga', 'Props']) expect(isInternalTag(tag)).toBe(false);
    expect(publicTags(['Yoga Mat', 'yoga mat', ' eco ', '__label:New'])).toEqual(['Yoga Mat', 'eco']);
  });
});

describe('htmlToText', () => {
  it('joins inline tags inside words, decodes entities, drops empty paragraphs and comments', () => {
    const text = htmlToText(
      '<meta charset="utf-8"><p data-mce-fragment="1">Our <strong>non-slip</strong> mat. <span style="color:#2b2b2b;">Ma</span><span>de in Portugal</span>.</p><p></p><p>&nbsp;</p>' +
        '<ul><li>Natural <em>tree</em> rubber<ul><li>FSC&reg; certified</li></ul></li><li>Size: 183 &times; 68&nbsp;cm &ndash; you&#8217;ll love it&#x2026;</li></ul><!-- restock --><p><br></p>',
    );
    expect(text).toBe('Our non-slip mat. Made in Portugal.\nNatural tree rubber\nFSC® certified\nSize: 183 × 68 cm – you’ll love it…');
  });
});

describe('currency signals', () => {
  it('reads Shopify.currency, og:price:currency, JSON-LD and ShopifyAnalytics, in that order', () => {
    expect(currencyFromHtml('<script>Shopify.currency = {"active":"EUR","rate":"1.0"};</script><meta property="og:price:currency" content="USD">')).toBe('EUR');
    expect(currencyFromHtml('<meta content="CAD" property="og:price:currency">')).toBe('CAD');
    expect(currencyFromHtml('<script type="application/ld+json">{"offers":{"price":"1","priceCurrency":"GBP"}}</script>')).toBe('GBP');
    expect(currencyFromHtml('<script>window.ShopifyAnalytics.meta={"currency":"AUD","page":{}};</script>')).toBe('AUD');
    expect(currencyFromHtml('<p>Prices in dollars</p>')).toBeNull();
    expect(currencyFromHtml('<meta property="og:price:currency" content="XYZ1">')).toBeNull();
  });

  it('reads the ISO code a theme prints beside its prices, when the page states nothing else (issue 44)', () => {
    // Dawn with currency codes on: the drinkware store's pages say "$55.00 USD" and nothing more.
    expect(currencyFromHtml('<div class="price"><span class="price-item">$55.00 USD</span></div><p>From $1,299.00 USD</p>')).toBe('USD');
    expect(currencyFromHtml('<span>GBP 1,199.00</span> <span>£989.99 GBP</span>')).toBe('GBP');
    // A sign alone names no currency; a code in a script or a word that is no price neither.
    expect(currencyFromHtml('<p>$55.00</p><script>var c = "9 EUR";</script><p>Ships to the USA in 3 days</p>')).toBeNull();
    expect(currencyFromHtml('<p>Model 2025 XYZ and 40 oz</p>')).toBeNull();
  });

  it('accepts only ISO 4217 codes from JSON bodies', () => {
    expect(currencyFromJson({ currency: 'usd' })).toBe('USD');
    expect(currencyFromJson({ currency: 'ZZZ' })).toBeNull();
    expect(currencyFromJson({ currency: 5 })).toBeNull();
    expect(currencyFromJson(null)).toBeNull();
    expect(normalizeCurrency(' jpy ')).toBe('JPY');
  });
});
