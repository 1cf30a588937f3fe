/**
 * schema.org structured data (reference/web-protocols.md §7): the `/data.json` graph and the
 * JSON-LD objects embedded in pages. Every URL here is an absolute store URL.
 */
import { sourceDate, latestDate } from './dates';
import { isoSeconds, oneLine } from './html';
import { currencyOf } from './offers';
import type { OrganizationProfile } from './organization';
import { decimalValue, hasOptions, priceSpan, variantsOf } from '../products/variants';
import type { CatalogProduct, CatalogVariant, FaqEntry, SiteNarrative, StoreIdentity } from './types';

export const SCHEMA_CONTEXT = 'https://schema.org';

/** `@id` of the store organization node. */
export function organizationId(business: StoreIdentity): string {
  return `${storeOrigin(business)}/#organization`;
}

export function storeOrigin(business: StoreIdentity): string {
  return business.url.replace(/\/+$/, '');
}

/** `"24.00"` → 24; null when the store gave no usable price. */
export function priceNumber(price: string | null): number | null {
  if (price === null) return null;
  const cleaned = price.trim().replace(/,/g, '');
  if (!/^\d+(?:\.\d+)?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

export function availabilityUrl(available: boolean): string {
  return available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock';
}

/** The Offer of one variant, or undefined without a usable price. No currency is ever assumed. */
export function variantOffer(product: CatalogProduct, variant: CatalogVariant, sellerId?: string): Record<string, unknown> | undefined {
  const price = priceNumber(variant.price);
  if (price === null) return undefined;
  const currency = currencyOf(product);
  const compare = decimalValue(variant.compareAtPrice);
  return {
    '@type': 'Offer',
    price,
    ...(currency ? { priceCurrency: currency } : {}),
    availability: availabilityUrl(variant.available),
    itemCondition: 'https://schema.org/NewCondition',
    url: variantUrl(product, variant),
    ...(variant.sku ? { sku: oneLine(variant.sku) } : {}),
    ...(variant.gtin ? { gtin: variant.gtin } : {}),
    ...(compare !== null && compare > price && currency
      ? { priceSpecification: { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: compare, priceCurrency: currency } }
      : {}),
    ...(sellerId ? { seller: { '@id': sellerId } } : {}),
  };
}

/** The store page with the variant selected (`?variant=<id>`), or the product page. */
export function variantUrl(product: CatalogProduct, variant: CatalogVariant): string {
  return variant.id && hasOptions(product) ? `${product.url}${product.url.includes('?') ? '&' : '?'}variant=${encodeURIComponent(variant.id)}` : product.url;
}

/** The Offer of a product without options (its only variant), or undefined without a usable price. */
export function productOffer(product: CatalogProduct, sellerId?: string): Record<string, unknown> | undefined {
  return variantOffer(product, variantsOf(product)[0] as CatalogVariant, sellerId);
}

/**
 * The AggregateOffer summarizing a product's variants: lowPrice/highPrice over every priced
 * variant, offerCount, priceCurrency (when stated) and availability (InStock when any can be
 * bought). Undefined without a priced variant.
 */
export function aggregateOffer(product: CatalogProduct, sellerId?: string): Record<string, unknown> | undefined {
  const span = priceSpan(product);
  if (!span) return undefined;
  const currency = currencyOf(product);
  return {
    '@type': 'AggregateOffer',
    lowPrice: span.lowValue,
    highPrice: span.highValue,
    offerCount: span.count,
    ...(currency ? { priceCurrency: currency } : {}),
    availability: availabilityUrl(variantsOf(product).some((v) => v.available)),
    url: product.url,
    ...(sellerId ? { seller: { '@id': sellerId } } : {}),
  };
}

/** Option names schema.org (and Google's `variesBy`) has properties for. */
const OPTION_PROPERTIES: Record<string, string> = {
  color: 'color', colour: 'color', size: 'size', material: 'material', pattern: 'pattern',
  'suggested gender': 'suggestedGender', gender: 'suggestedGender', 'age group': 'suggestedAge',
};

function optionProperty(name: string): string | null {
  return OPTION_PROPERTIES[oneLine(name).toLowerCase()] ?? null;
}

/**
 * A schema.org Product node. `dateModified` is the store's own update time (`updated_at`),
 * and absent when the store gives none (or one after `now`): a node never claims a change
 * that did not happen (D112). A page that embeds the node sets it to the page's modified
 * date, which its sitemap `<lastmod>` carries too.
 *
 * A product with options is a `ProductGroup` (a schema.org Product subtype, Google's
 * variant markup): `productGroupID`, `variesBy` (the options schema.org names), one
 * `hasVariant` Product per variant with its own Offer (price, priceCurrency, availability,
 * sku, gtin), and an AggregateOffer summary (lowPrice, highPrice, offerCount) for readers
 * that do not walk the variants. A product without options is a Product with one Offer.
 */
export function productNode(
  product: CatalogProduct,
  narrative: SiteNarrative,
  now: string,
  sellerId?: string,
): Record<string, unknown> {
  const description = oneLine(narrative.productSummaries[product.productId] || product.description || product.name);
  const common = {
    name: oneLine(product.name),
    description,
    url: product.url,
    ...(product.imageUrls.length ? { image: product.imageUrls } : {}),
    ...(product.vendor ? { brand: { '@type': 'Brand', name: oneLine(product.vendor) } } : {}),
    ...(product.productType ? { category: oneLine(product.productType) } : {}),
    ...(product.tags.length ? { keywords: product.tags.map(oneLine).join(', ') } : {}),
  };
  const modified = sourceDate(product.updatedAt, now);
  const dateModified = modified ? { dateModified: modified } : {};
  if (!hasOptions(product)) {
    const only = variantsOf(product)[0] as CatalogVariant;
    const offer = productOffer(product, sellerId);
    return {
      '@type': 'Product',
      '@id': `${product.url}#product`,
      ...common,
      ...(only.sku ? { sku: oneLine(only.sku) } : {}),
      ...(only.gtin ? { gtin: only.gtin } : {}),
      ...(offer ? { offers: offer } : {}),
      ...dateModified,
    };
  }
  const names = product.optionNames ?? [];
  const variesBy = [...new Set(names.map(optionProperty).filter((p): p is string => Boolean(p)))].map((p) => `https://schema.org/${p}`);
  const offer = aggregateOffer(product, sellerId);
  const variants = variantsOf(product).map((variant, i) => {
    const properties: Record<string, unknown> = {};
    const additional: Array<Record<string, string>> = [];
    variant.options.forEach((value, d) => {
      const name = names[d] ?? `Option ${d + 1}`;
      const property = optionProperty(name);
      if (property && !(property in properties)) properties[property] = oneLine(value);
      else additional.push({ '@type': 'PropertyValue', name: oneLine(name), value: oneLine(value) });
    });
    const variantOfferNode = variantOffer(product, variant, sellerId);
    return {
      '@type': 'Product',
      '@id': `${product.url}#variant-${variant.id ?? i + 1}`,
      name: oneLine(`${product.name} – ${variant.title || `Option ${i + 1}`}`),
      url: variantUrl(product, variant),
      ...(product.imageUrls.length ? { image: product.imageUrls[0] } : {}),
      ...(variant.sku ? { sku: oneLine(variant.sku) } : {}),
      ...(variant.gtin ? { gtin: variant.gtin } : {}),
      ...properties,
      ...(additional.length ? { additionalProperty: additional } : {}),
      ...(variantOfferNode ? { offers: variantOfferNode } : {}),
    };
  });
  return {
    '@type': 'ProductGroup',
    '@id': `${product.url}#product`,
    ...common,
    productGroupID: product.productId,
    ...(variesBy.length ? { variesBy } : {}),
    hasVariant: variants,
    ...(offer ? { offers: offer } : {}),
    ...dateModified,
  };
}

/**
 * The store as an Organization/OnlineStore. `profile` (organization.ts) adds the logo,
 * `sameAs` and `contactPoint` only when they were found on the store; none is invented.
 */
export function organizationNode(business: StoreIdentity, narrative: SiteNarrative, profile?: OrganizationProfile): Record<string, unknown> {
  const contact = profile?.contact;
  return {
    '@type': ['Organization', 'OnlineStore'],
    '@id': organizationId(business),
    name: oneLine(business.name),
    url: storeOrigin(business),
    description: oneLine(narrative.summary || narrative.description),
    ...(profile?.logo ? { logo: profile.logo } : {}),
    ...(profile?.sameAs.length ? { sameAs: profile.sameAs } : {}),
    ...(contact?.email ? { email: contact.email } : {}),
    ...(contact?.telephone ? { telephone: contact.telephone } : {}),
    ...(contact && (contact.email || contact.telephone)
      ? {
          contactPoint: {
            '@type': 'ContactPoint',
            contactType: 'customer service',
            ...(contact.email ? { email: contact.email } : {}),
            ...(contact.telephone ? { telephone: contact.telephone } : {}),
            ...(contact.url ? { url: contact.url } : {}),
          },
        }
      : {}),
    ...(narrative.industry ? { knowsAbout: oneLine(narrative.industry) } : {}),
  };
}

/**
 * The `/data.json` document: one graph with the store and every product. Its top-level
 * `dateModified` is the latest of its nodes' (D112), absent when none has one: the build
 * time would claim a change on every build.
 */
export function buildDataJson(
  business: StoreIdentity,
  products: readonly CatalogProduct[],
  narrative: SiteNarrative,
  now: string,
  profile?: OrganizationProfile,
): Record<string, unknown> {
  const orgId = organizationId(business);
  const nodes = products.map((product) => productNode(product, narrative, now, orgId));
  const latest = latestDate(nodes.map((n) => n.dateModified as string | undefined));
  return {
    '@context': SCHEMA_CONTEXT,
    ...(latest ? { dateModified: latest } : {}),
    '@graph': [organizationNode(business, narrative, profile), ...nodes],
  };
}

/** FAQPage JSON-LD for one or more Q&A entries; `modified` is the page's modified date (D112). */
export function faqPageNode(entries: readonly FaqEntry[], modified: string): Record<string, unknown> {
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'FAQPage',
    dateModified: isoSeconds(modified),
    mainEntity: entries.map((entry) => ({
      '@type': 'Question',
      name: oneLine(entry.question),
      acceptedAnswer: { '@type': 'Answer', text: entry.answer.trim() },
    })),
  };
}

