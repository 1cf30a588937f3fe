/**
 * schema.org structured data (reference/web-protocols.md §7): the `/data.json` graph and the
 * JSON-LD objects embedded in pages. Every URL here is an absolute store URL.
 */
import { isoSeconds, oneLine } from './html';
import type { CatalogProduct, FaqEntry, SiteNarrative, StoreIdentity } from './types';

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

/** The Offer of a product, or undefined without a usable price. */
export function productOffer(product: CatalogProduct, sellerId?: string): Record<string, unknown> | undefined {
  const price = priceNumber(product.price);
  if (price === null) return undefined;
  const currency = product.currency && /^[A-Za-z]{3}$/.test(product.currency.trim()) ? product.currency.trim().toUpperCase() : null;
  return {
    '@type': 'Offer',
    price,
    ...(currency ? { priceCurrency: currency } : {}),
    availability: availabilityUrl(product.available),
    itemCondition: 'https://schema.org/NewCondition',
    url: product.url,
    ...(sellerId ? { seller: { '@id': sellerId } } : {}),
  };
}

/** A schema.org Product node. `dateModified` is the store's update time, else `now`. */
export function productNode(
  product: CatalogProduct,
  narrative: SiteNarrative,
  now: string,
  sellerId?: string,
): Record<string, unknown> {
  const offer = productOffer(product, sellerId);
  const description = oneLine(narrative.productSummaries[product.productId] || product.description || product.name);
  return {
    '@type': 'Product',
    '@id': `${product.url}#product`,
    name: oneLine(product.name),
    description,
    url: product.url,
    ...(product.imageUrls.length ? { image: product.imageUrls } : {}),
    ...(product.vendor ? { brand: { '@type': 'Brand', name: oneLine(product.vendor) } } : {}),
    ...(product.productType ? { category: oneLine(product.productType) } : {}),
    ...(product.tags.length ? { keywords: product.tags.map(oneLine).join(', ') } : {}),
    ...(offer ? { offers: offer } : {}),
    dateModified: isoSeconds(validIso(product.updatedAt) ?? now),
  };
}

export function organizationNode(business: StoreIdentity, narrative: SiteNarrative): Record<string, unknown> {
  // No sameAs: the snapshot knows no social profiles, and none are invented.
  return {
    '@type': ['Organization', 'OnlineStore'],
    '@id': organizationId(business),
    name: oneLine(business.name),
    url: storeOrigin(business),
    description: oneLine(narrative.summary || narrative.description),
    ...(narrative.industry ? { knowsAbout: oneLine(narrative.industry) } : {}),
  };
}

/** The `/data.json` document: one graph with the store and every product. */
export function buildDataJson(
  business: StoreIdentity,
  products: readonly CatalogProduct[],
  narrative: SiteNarrative,
  now: string,
): Record<string, unknown> {
  const orgId = organizationId(business);
  return {
    '@context': SCHEMA_CONTEXT,
    dateModified: isoSeconds(now),
    '@graph': [organizationNode(business, narrative), ...products.map((product) => productNode(product, narrative, now, orgId))],
  };
}

/** FAQPage JSON-LD for one or more Q&A entries. */
export function faqPageNode(entries: readonly FaqEntry[], now: string): Record<string, unknown> {
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'FAQPage',
    dateModified: isoSeconds(now),
    mainEntity: entries.map((entry) => ({
      '@type': 'Question',
      name: oneLine(entry.question),
      acceptedAnswer: { '@type': 'Answer', text: entry.answer.trim() },
    })),
  };
}

function validIso(value: string | null): string | null {
  if (!value) return null;
  return Number.isNaN(new Date(value).getTime()) ? null : value;
}
