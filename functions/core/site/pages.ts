/**
 * The HTML pages of the AI site (products, collections, Q&A) and the markdown replicas of
 * the store's pages. Every page goes through `renderPage` (html.ts), so every page carries
 * the same head metadata, header, footer line and tracking script.
 */
import {
  CONTENT_TYPES,
  escapeHtml,
  humanDate,
  isoSeconds,
  linkList,
  oneLine,
  paragraphs,
  renderPage,
  truncate,
  utcYear,
} from './html';
import { availabilityText, priceText, productSummary } from './llms';
import { SITE_PATHS, aiHref, hrefForFile } from './paths';
import { SCHEMA_CONTEXT, faqPageNode, organizationId, productNode, storeOrigin } from './structured-data';
import type { CatalogCollection, CatalogProduct, FaqEntry, ScrapedPage, SiteFile, SiteNarrative, StoreIdentity } from './types';

export interface PageContext {
  business: StoreIdentity;
  narrative: SiteNarrative;
  now: string;
}

export interface ProductRef {
  product: CatalogProduct;
  slug: string;
}

export interface CollectionRef {
  collection: CatalogCollection;
  /** Path segment under `/ai/collections/`. */
  handle: string;
  products: ProductRef[];
}

export interface FaqRef {
  entry: FaqEntry;
  slug: string;
}

function storeName(ctx: PageContext): string {
  return oneLine(ctx.business.name);
}

export function buildProductPage(ctx: PageContext, ref: ProductRef, collections: readonly CollectionRef[]): SiteFile {
  const { product, slug } = ref;
  const summary = productSummary(product, ctx.narrative);
  const price = priceText(product);
  const facts: Array<[string, string]> = [
    ['Price', price ?? 'Not listed'],
    ['Availability', availabilityText(product)],
  ];
  if (product.productType) facts.push(['Product type', oneLine(product.productType)]);
  if (product.vendor) facts.push(['Vendor', oneLine(product.vendor)]);
  if (product.tags.length) facts.push(['Tags', product.tags.map(oneLine).join(', ')]);
  const inCollections = collections.filter((c) => c.products.some((p) => p.product.productId === product.productId));
  const more = [
    { href: aiHref(SITE_PATHS.productLlms(slug)), label: 'Plain-text facts for AI assistants', note: 'llms text file' },
    ...inCollections.map((c) => ({ href: hrefForFile(SITE_PATHS.collectionPage(c.handle)), label: `Collection: ${oneLine(c.collection.title)}` })),
  ];
  const body = `<article>
<h1>${escapeHtml(oneLine(product.name))}</h1>
<p>${escapeHtml(summary)}</p>
<dl>
${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
${product.description.trim() ? `<h2>Description</h2>\n${paragraphs(product.description)}` : ''}
<p><a href="${escapeHtml(product.url)}">View ${escapeHtml(oneLine(product.name))} on ${escapeHtml(storeName(ctx))}</a></p>
<h2>More</h2>
${linkList(more)}
</article>`;
  const node = { '@context': SCHEMA_CONTEXT, ...productNode(product, ctx.narrative, ctx.now, organizationId(ctx.business)) };
  return {
    path: SITE_PATHS.productPage(slug),
    content: renderPage({
      storeName: ctx.business.name,
      storeUrl: storeOrigin(ctx.business),
      title: product.name,
      description: summary,
      canonical: product.url,
      modifiedTime: ctx.now,
      jsonLd: [node],
      body,
    }),
    contentType: CONTENT_TYPES.html,
  };
}

export function buildCollectionPage(ctx: PageContext, ref: CollectionRef): SiteFile {
  const { collection } = ref;
  const description = oneLine(collection.description) || `${oneLine(collection.title)} at ${storeName(ctx)}.`;
  const productItems = ref.products.map(({ product, slug }) => ({
    href: hrefForFile(SITE_PATHS.productPage(slug)),
    label: oneLine(product.name),
    note: [priceText(product), availabilityText(product).toLowerCase()].filter(Boolean).join(', '),
  }));
  const body = `<article>
<h1>${escapeHtml(oneLine(collection.title))}</h1>
${paragraphs(collection.description)}
<h2>Products</h2>
${productItems.length ? linkList(productItems) : '<p>The products of this collection are listed on the store.</p>'}
<p><a href="${escapeHtml(collection.url)}">View the ${escapeHtml(oneLine(collection.title))} collection on ${escapeHtml(storeName(ctx))}</a></p>
</article>`;
  const node = {
    '@context': SCHEMA_CONTEXT,
    '@type': 'CollectionPage',
    name: oneLine(collection.title),
    url: collection.url,
    description,
    dateModified: isoSeconds(ctx.now),
    isPartOf: { '@id': organizationId(ctx.business) },
    mainEntity: {
      '@type': 'ItemList',
      numberOfItems: ref.products.length,
      itemListElement: ref.products.map(({ product }, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        url: product.url,
        name: oneLine(product.name),
      })),
    },
  };
  return {
    path: SITE_PATHS.collectionPage(ref.handle),
    content: renderPage({
      storeName: ctx.business.name,
      storeUrl: storeOrigin(ctx.business),
      title: collection.title,
      description,
      canonical: collection.url,
      modifiedTime: ctx.now,
      jsonLd: [node],
      body,
    }),
    contentType: CONTENT_TYPES.html,
  };
}

/** How many other questions a Q&A page links to (the index links to all). */
const RELATED_QUESTIONS = 5;

/**
 * One Q&A page. `canonical` is decided by the caller (see `faqCanonical` in build.ts):
 * the store's own FAQ page when it has one, else the store home.
 */
export function buildFaqPage(ctx: PageContext, faqs: readonly FaqRef[], index: number, canonical: string): SiteFile {
  const ref = faqs[index] as FaqRef;
  const others = faqs.filter((_, i) => i !== index);
  // The next questions in order (wrapping around), so every page is linked from several others.
  const related = [...others.slice(index), ...others.slice(0, index)].slice(0, RELATED_QUESTIONS);
  const body = `<article>
<h1>${escapeHtml(oneLine(ref.entry.question))}</h1>
${paragraphs(ref.entry.answer)}
</article>
${related.length ? `<h2>More questions</h2>\n${linkList(related.map((r) => ({ href: hrefForFile(SITE_PATHS.faqPage(r.slug)), label: oneLine(r.entry.question) })))}` : ''}
<p><a href="${aiHref('/ai/questions/')}">All questions and answers</a></p>`;
  return {
    path: SITE_PATHS.faqPage(ref.slug),
    content: renderPage({
      storeName: ctx.business.name,
      storeUrl: storeOrigin(ctx.business),
      title: ref.entry.question,
      description: ref.entry.answer,
      canonical,
      modifiedTime: ctx.now,
      jsonLd: [faqPageNode([ref.entry], ctx.now)],
      body,
    }),
    contentType: CONTENT_TYPES.html,
  };
}

export function buildQuestionsIndex(ctx: PageContext, faqs: readonly FaqRef[], canonical: string): SiteFile {
  const items = faqs.map(
    (ref) =>
      `<section>\n<h2><a href="${escapeHtml(hrefForFile(SITE_PATHS.faqPage(ref.slug)))}">${escapeHtml(oneLine(ref.entry.question))}</a></h2>\n${paragraphs(ref.entry.answer)}\n</section>`,
  );
  const heading = `Questions and answers about ${storeName(ctx)}`;
  const body = `<h1>${escapeHtml(heading)}</h1>
${items.length ? items.join('\n') : '<p>No questions have been answered yet.</p>'}`;
  return {
    path: SITE_PATHS.questionsIndex,
    content: renderPage({
      storeName: ctx.business.name,
      storeUrl: storeOrigin(ctx.business),
      title: `Questions and answers (${utcYear(ctx.now)})`,
      description: `Answers to common questions about ${storeName(ctx)}: ${oneLine(ctx.narrative.summary)}`,
      canonical,
      modifiedTime: ctx.now,
      jsonLd: [faqPageNode(faqs.map((f) => f.entry), ctx.now)],
      body,
    }),
    contentType: CONTENT_TYPES.html,
  };
}

/** Makes every link target of a markdown text absolute against the page it came from. */
export function absolutizeMarkdownLinks(markdown: string, pageUrl: string): string {
  const absolutize = (target: string): string => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return target;
    try {
      return new URL(target, pageUrl).href;
    } catch {
      return target;
    }
  };
  return markdown
    .replace(/\]\(\s*<([^>\n]*)>/g, (_, target: string) => `](<${absolutize(target)}>`)
    .replace(/\]\(\s*([^\s)<][^\s)]*)/g, (_, target: string) => `](${absolutize(target)}`)
    .replace(/^( {0,3}\[[^\]\n]+\]:\s*)(\S+)/gm, (_, head: string, target: string) => `${head}${absolutize(target.replace(/^<|>$/g, ''))}`);
}

export interface ReplicaRef {
  page: ScrapedPage;
  slug: string;
}

/** `/pages/<slug>.md`: the page's markdown, headed with its source URL and last-updated line. */
export function buildPageReplica(ctx: PageContext, ref: ReplicaRef): SiteFile {
  const { page } = ref;
  const updated = page.lastmod && !Number.isNaN(new Date(page.lastmod).getTime()) ? page.lastmod : ctx.now;
  const title = oneLine(page.title) || page.url;
  const header = [
    `# ${title}`,
    '',
    `Source: ${page.url}  `,
    `Last updated: ${humanDate(updated)}`,
    ...(page.description.trim() ? ['', `> ${oneLine(page.description)}`] : []),
    '',
    '---',
    '',
    '',
  ];
  return {
    path: SITE_PATHS.pageReplica(ref.slug),
    content: `${header.join('\n')}${absolutizeMarkdownLinks(page.markdown.trim(), page.url)}\n`,
    contentType: CONTENT_TYPES.markdown,
  };
}

/** The label of a replica in link lists. */
export function replicaLabel(page: ScrapedPage): string {
  return truncate(oneLine(page.title) || new URL(page.url).pathname, 120);
}
