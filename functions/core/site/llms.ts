/**
 * `/llms.txt` and the per-product `/llms/<product-slug>.txt` files (reference/web-protocols.md §2).
 *
 * llms.txt layout, in this order: an H1 with the store name; a one-line blockquote summary;
 * detail paragraphs and lists (no headings); then H2 file lists whose items are
 * `- [name](url): notes`, the last one `## Optional`.
 *
 * Links are root-relative and in their routed form (`aiHref`): `/llms/<slug>.txt`,
 * `/ai/collections/<handle>/`, `/ai/<faq-slug>/`, `/ai/pages/<slug>.md`, `/ai/data.json`,
 * `/sitemap.xml`. The same llms.txt is served on the AI-site host and on the customer domain,
 * and these forms resolve on both (an absolute URL would name only one of them). The file
 * says so in its detail section.
 */
import { CONTENT_TYPES, oneLine, truncate } from './html';
import { SITE_PATHS, aiHref, hrefForFile, productSlugs } from './paths';
import { priceNumber } from './structured-data';
import type { CatalogProduct, SiteFile, SiteNarrative, StoreIdentity } from './types';

export interface LlmsLink {
  name: string;
  url: string;
  notes?: string;
}

export interface LlmsSection {
  title: string;
  links: LlmsLink[];
}

/** Escapes the characters that would end a link label early. */
function linkLabel(text: string): string {
  return oneLine(text).replace(/\\/g, '\\\\').replace(/\[/g, '\\[').replace(/\]/g, '\\]') || 'Untitled';
}

/** Detail text must not create headings or blockquotes: a leading `#` or `>` is escaped. */
function detailLine(text: string): string {
  return oneLine(text).replace(/^([#>])/, '\\$1');
}

export function llmsLinkLine(link: LlmsLink): string {
  const notes = link.notes ? oneLine(link.notes) : '';
  return `- [${linkLabel(link.name)}](${link.url})${notes ? `: ${notes}` : ''}`;
}

/** Renders a document in the llms.txt layout. */
export function renderLlmsDocument(doc: { title: string; summary: string; details: string[]; sections: LlmsSection[] }): string {
  const out: string[] = [`# ${oneLine(doc.title) || 'Untitled'}`, ''];
  const summary = oneLine(doc.summary);
  if (summary) out.push(`> ${summary}`, '');
  for (const block of doc.details) {
    if (block.trim()) out.push(block.trimEnd(), '');
  }
  for (const section of doc.sections) {
    if (section.links.length === 0) continue;
    out.push(`## ${oneLine(section.title)}`, '');
    for (const link of section.links) out.push(llmsLinkLine(link));
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Plain text → detail paragraphs (blank-line separated), safe for the llms.txt layout. */
export function detailParagraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map(detailLine)
    .filter(Boolean);
}

/** `24.00 USD`, `24.00 USD (was 30.00 USD)`, or null. */
export function priceText(product: CatalogProduct): string | null {
  if (priceNumber(product.price) === null || product.price === null) return null;
  const currency = product.currency ? ` ${product.currency.trim().toUpperCase()}` : '';
  const compare = priceNumber(product.compareAtPrice);
  const now = priceNumber(product.price);
  const was = product.compareAtPrice !== null && compare !== null && now !== null && compare > now ? ` (was ${product.compareAtPrice.trim()}${currency})` : '';
  return `${product.price.trim()}${currency}${was}`;
}

export function availabilityText(product: CatalogProduct): string {
  return product.available ? 'In stock' : 'Out of stock';
}

export function productSummary(product: CatalogProduct, narrative: SiteNarrative): string {
  return oneLine(narrative.productSummaries[product.productId] || truncate(product.description, 200) || product.name);
}

export interface ProductLlmsOptions {
  now: string;
  /** The store, for the "Sold by" line. */
  business?: StoreIdentity;
}

/** One `/llms/<slug>.txt` per product (onboarding step 3b builds these on their own). */
export function buildProductLlmsFiles(
  products: readonly CatalogProduct[],
  narrative: SiteNarrative,
  options: ProductLlmsOptions,
): SiteFile[] {
  const slugs = productSlugs(products);
  const seen = new Set<string>();
  const files: SiteFile[] = [];
  for (const product of products) {
    if (seen.has(product.productId)) continue;
    seen.add(product.productId);
    const slug = slugs.get(product.productId) as string;
    const facts: string[] = [];
    const price = priceText(product);
    facts.push(`- Price: ${price ?? 'not listed'}`);
    facts.push(`- Availability: ${availabilityText(product)}`);
    if (product.productType) facts.push(`- Product type: ${oneLine(product.productType)}`);
    if (product.vendor) facts.push(`- Vendor: ${oneLine(product.vendor)}`);
    if (product.tags.length) facts.push(`- Tags: ${product.tags.map(oneLine).join(', ')}`);
    facts.push(`- Store page: ${product.url}`);
    if (options.business) facts.push(`- Sold by: ${oneLine(options.business.name)} (${options.business.url.replace(/\/+$/, '')})`);
    const details = [facts.join('\n')];
    const description = detailParagraphs(product.description);
    if (description.length) details.push('Description:', ...description);
    const content = renderLlmsDocument({
      title: product.name,
      summary: productSummary(product, narrative),
      details,
      sections: [
        {
          title: 'Optional',
          links: [
            { name: 'Product page (AI site)', url: hrefForFile(SITE_PATHS.productPage(slug)), notes: 'the same facts as HTML with Product structured data' },
            { name: 'Store overview', url: aiHref(SITE_PATHS.llmsTxt), notes: 'llms.txt of the whole store' },
          ],
        },
      ],
    });
    files.push({ path: SITE_PATHS.productLlms(slug), content, contentType: CONTENT_TYPES.text });
  }
  return files;
}

export interface LlmsTxtInput {
  business: StoreIdentity;
  narrative: SiteNarrative;
  products: Array<{ product: CatalogProduct; slug: string }>;
  collections: Array<{ title: string; description: string; path: string }>;
  faqs: Array<{ question: string; answer: string; path: string }>;
  pages: Array<{ title: string; description: string; path: string }>;
}

/** The store's `/llms.txt`. */
export function buildLlmsTxt(input: LlmsTxtInput): SiteFile {
  const { business, narrative } = input;
  const details: string[] = [...detailParagraphs(narrative.description)];
  if (narrative.keyFacts.length) {
    details.push('Key facts:', narrative.keyFacts.map((fact) => `- ${oneLine(fact)}`).join('\n'));
  }
  const about: string[] = ['About the store:'];
  if (narrative.industry) about.push(`- Industry: ${oneLine(narrative.industry)}`);
  if (narrative.audience) about.push(`- Audience: ${oneLine(narrative.audience)}`);
  if (narrative.categories.length) about.push(`- Categories: ${narrative.categories.map(oneLine).join(', ')}`);
  about.push(`- Store: ${business.url.replace(/\/+$/, '')}`);
  details.push(about[0] as string, about.slice(1).join('\n'));
  details.push(
    'Links below are root-relative: resolve them against the address this file was fetched from. ' +
      'Product prices and availability change; the store pages are authoritative.',
  );

  const sections: LlmsSection[] = [
    {
      title: 'Products',
      links: input.products.map(({ product, slug }) => {
        const price = priceText(product);
        const notes = [price, availabilityText(product).toLowerCase(), truncate(productSummary(product, input.narrative), 160)]
          .filter(Boolean)
          .join('; ');
        return { name: product.name, url: aiHref(SITE_PATHS.productLlms(slug)), notes };
      }),
    },
    {
      title: 'Collections',
      links: input.collections.map((c) => ({ name: c.title, url: hrefForFile(c.path), notes: truncate(c.description, 160) })),
    },
    {
      title: 'Questions and answers',
      links: input.faqs.map((f) => ({ name: f.question, url: hrefForFile(f.path), notes: truncate(f.answer, 160) })),
    },
    {
      title: 'Pages',
      links: input.pages.map((p) => ({ name: p.title, url: hrefForFile(p.path), notes: truncate(p.description, 160) })),
    },
    {
      title: 'Optional',
      links: [
        { name: 'Structured data', url: aiHref(SITE_PATHS.dataJson), notes: 'schema.org JSON-LD graph of the store and its products' },
        { name: 'Sitemap', url: aiHref(SITE_PATHS.sitemap), notes: 'every store page and AI page' },
      ],
    },
  ];
  const content = renderLlmsDocument({ title: business.name, summary: narrative.summary, details, sections });
  return { path: SITE_PATHS.llmsTxt, content, contentType: CONTENT_TYPES.text };
}
