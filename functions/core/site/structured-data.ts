/**
 * schema.org structured data (reference/web-protocols.md §7): the `/data.json` graph and the
 * JSON-LD objects embedded in pages. Every URL here is an absolute store URL.
 */
import { sourceDate, latestDate } from './dates';
import { isoSeconds, oneLine } from './html';
import { currencyOf } from './offers';
import type { OrganizationProfile } from './organization';
import { decimalValue, hasOptions, priceSpan, variantsOf } from '../products/variants';
import type { Attribute } from '../products/attributes';
import { productKind, type KindOf } from '../products/kind';
import { ATTRIBUTE_LABELS } from './fact-card';
import { productFacts } from './product-facts';
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

/** `additionalProperty` entries: what the store states that schema.org has no property for. */
function propertyValue(name: string, value: string): Record<string, string> {
  return { '@type': 'PropertyValue', name: oneLine(name), value: oneLine(value) };
}

function capitalised(label: string): string {
  return label.charAt(0).toUpperCase() + label.slice(1);
}

interface SharedFacts {
  kind: string | null;
  brand: string | null;
  /** material, color, size, pattern ... stated once for the whole product. */
  fields: Record<string, string>;
  additional: Array<Record<string, string>>;
  /** `https://schema.org/<property>` of each option whose values differ between variants. */
  variesBy: string[];
}

/**
 * What the product's fact card states (product-facts.ts), as Product fields shared by the
 * product and each of its variants: `material`, `color` and `size` where the catalogue states
 * one value for the whole product, and `additionalProperty` for its other attributes and for
 * options with one value that schema.org has no property for ("Width: 134cm").
 *
 * - material: a Material option's single value, else the material the text states; none when a
 *   Material option varies (each variant states its own).
 * - color: a Color/Colour option with exactly one value (pattern ... likewise).
 * - size: a Size option's single value; without a Size option, the capacity ("40 oz") or else
 *   the dimensions the text states (Google takes a Text size); the other one is an
 *   additionalProperty ("Dimensions").
 * - additionalProperty names are the fact card's labels, capitalised ("Protection rating").
 */
function sharedFacts(product: CatalogProduct, kindOf: KindOf): SharedFacts {
  const facts = productFacts(product, kindOf);
  const fields: Record<string, string> = {};
  const additional: Array<Record<string, string>> = [];
  const varying = new Set<string>();
  for (const option of facts.options) {
    const property = optionProperty(option.name);
    if (option.values.length > 1) {
      if (property) varying.add(property);
    } else if (property && !(property in fields)) {
      fields[property] = option.values[0] as string;
    } else {
      additional.push(propertyValue(option.name, option.values[0] as string));
    }
  }
  const attributes = new Map(facts.attributes.map((a) => [a.key, a]));
  const material = attributes.get('material');
  if (material && !('material' in fields) && !varying.has('material')) fields.material = oneLine(material.value);
  // A size the text states: never beside a Size option (attributes.ts drops sized figures then too).
  const sizeFrom = 'size' in fields || varying.has('size') ? null : attributes.has('capacity') ? 'capacity' : attributes.has('dimensions') ? 'dimensions' : null;
  if (sizeFrom) fields.size = oneLine((attributes.get(sizeFrom) as Attribute).value);
  for (const a of facts.attributes) {
    if (a.key === 'material' || a.key === sizeFrom) continue;
    additional.push(propertyValue(capitalised(ATTRIBUTE_LABELS[a.key]), a.value));
  }
  return { kind: facts.kind, brand: facts.brand, fields, additional, variesBy: [...varying].map((p) => `https://schema.org/${p}`) };
}

/**
 * A schema.org Product node. `dateModified` is the store's own update time (`updated_at`),
 * and absent when the store gives none (or one after `now`): a node never claims a change
 * that did not happen (D112). A page that embeds the node sets it to the page's modified
 * date, which its sitemap `<lastmod>` carries too.
 *
 * The node states the product's fact card (product-facts.ts) as fields: `category` is its
 * kind (never a placeholder type such as "normal"), `brand` its vendor, and material, colour,
 * size and other attributes as `sharedFacts` reads them; nothing the catalogue does not state.
 *
 * A product with options is a `ProductGroup` (a schema.org Product subtype, Google's
 * variant markup): `productGroupID`, `variesBy` (the schema.org properties of the options that
 * vary), one `hasVariant` Product per variant with its own option values (color, size,
 * material, pattern; other options as additionalProperty), `inProductGroupWithID` and
 * `isVariantOf` naming the group, and its own Offer (price, priceCurrency, availability, sku,
 * gtin); plus an AggregateOffer summary (lowPrice, highPrice, offerCount) for readers that do
 * not walk the variants. A product without options is a Product with one Offer.
 *
 * Without a currency stated by the store none is ever assumed. Each Offer then states the
 * price as the fact card does, a bare amount (Google's product-snippet rules take an Offer
 * without priceCurrency, with a warning; only merchant listings require it), and the group has
 * no AggregateOffer: Google rejects one without priceCurrency, and its range is already stated
 * by the variants' Offers.
 *
 * `kindOf` is what the fact card's kind is read with: the catalogue's kinds (products/kind.ts
 * `catalogueKinds`); without it, a real product type, else the industry word the name states.
 */
export function productNode(
  product: CatalogProduct,
  narrative: SiteNarrative,
  now: string,
  sellerId?: string,
  kindOf: KindOf = productKind,
): Record<string, unknown> {
  const shared = sharedFacts(product, kindOf);
  const description = oneLine(narrative.productSummaries[product.productId] || product.description || product.name);
  const common = {
    name: oneLine(product.name),
    description,
    url: product.url,
    ...(product.imageUrls.length ? { image: product.imageUrls } : {}),
    ...(shared.brand ? { brand: { '@type': 'Brand', name: shared.brand } } : {}),
    ...(shared.kind ? { category: oneLine(shared.kind) } : {}),
    ...(product.tags.length ? { keywords: product.tags.map(oneLine).join(', ') } : {}),
    ...shared.fields,
    ...(shared.additional.length ? { additionalProperty: shared.additional } : {}),
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
  const groupId = `${product.url}#product`;
  const names = product.optionNames ?? [];
  const offer = currencyOf(product) ? aggregateOffer(product, sellerId) : undefined;
  const variants = variantsOf(product).map((variant, i) => {
    // The whole product's material, colour and size, unless this variant's own option says it.
    const properties: Record<string, unknown> = { ...shared.fields };
    const own = new Set<string>();
    const additional: Array<Record<string, string>> = [];
    variant.options.forEach((value, d) => {
      const name = names[d] ?? `Option ${d + 1}`;
      const property = optionProperty(name);
      if (property && !own.has(property)) {
        properties[property] = oneLine(value);
        own.add(property);
      } else additional.push(propertyValue(name, value));
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
      inProductGroupWithID: product.productId,
      isVariantOf: { '@id': groupId },
      ...(variantOfferNode ? { offers: variantOfferNode } : {}),
    };
  });
  return {
    '@type': 'ProductGroup',
    '@id': groupId,
    ...common,
    productGroupID: product.productId,
    ...(shared.variesBy.length ? { variesBy: shared.variesBy } : {}),
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
 * time would claim a change on every build. `kindOf`: as `productNode`'s, the same the product
 * pages use (the whole catalogue's kinds: `products` may be a part of it).
 */
export function buildDataJson(
  business: StoreIdentity,
  products: readonly CatalogProduct[],
  narrative: SiteNarrative,
  now: string,
  profile?: OrganizationProfile,
  kindOf: KindOf = (product) => productKind(product, business.name),
): Record<string, unknown> {
  const orgId = organizationId(business);
  const nodes = products.map((product) => productNode(product, narrative, now, orgId, kindOf));
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

