/**
 * The HTML pages of the AI site (products, collections, Q&A) and the markdown replicas of
 * the store's pages. Every page goes through `renderPage` (html.ts), so every page carries
 * the same head metadata, header, footer line and tracking script.
 */
import {
  CONTENT_TYPES,
  escapeHtml,
  humanDate,
  linkList,
  oneLine,
  paragraphs,
  renderPage,
  truncate,
  utcYear,
  type PageShell,
} from './html';
import { datedContent, type PageDates } from './dates';
import { markdownHtml, markdownPlain } from './markdown';
import { productSummary } from './llms';
import { factCardHtml, factCardMarkdown } from './fact-card';
import { productFacts } from './product-facts';
import { identifierFacts, productOgMeta, variantSectionHtml } from './offers';
import { byPrice, catalogueAnswersHtml } from './catalogue-answers';
import type { KindGroup } from './kinds';
import type { KindOf } from '../products/kind';
import { SITE_PATHS, aiHref, hrefForFile, publicUrlOfFile } from './paths';
import { SCHEMA_CONTEXT, faqPageNode, organizationId, productNode, storeOrigin } from './structured-data';
import type { CatalogCollection, CatalogProduct, FaqEntry, ScrapedPage, SiteFile, SiteNarrative, StoreIdentity } from './types';

export interface PageContext {
  business: StoreIdentity;
  narrative: SiteNarrative;
  now: string;
  /** The previous release's pages (core/site/dates.ts), so unchanged pages keep their date. */
  previous?: PageDates;
  /** The catalogue's kinds (core/products/kind.ts `catalogueKinds`), for the fact cards. */
  kindOf: KindOf;
}

/**
 * An HTML page dated by its content (D112): `shell(modified, checked)` is rendered with
 * placeholder dates for the hash, then with the decided modified date and `now` as checked.
 */
function datedPage(ctx: PageContext, path: string, sourceDate: string | null | undefined, shell: (modified: string, checked: string) => PageShell): SiteFile {
  const { content } = datedContent(
    ({ modified, checked, hash }) => renderPage({ ...shell(modified, checked), modifiedTime: modified, checkedTime: checked, ...(hash ? { contentHash: hash } : {}) }),
    ctx.previous?.[path],
    sourceDate,
    ctx.now,
  );
  return { path, content, contentType: CONTENT_TYPES.html };
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
  const facts = productFacts(product, ctx.kindOf);
  // The card says kind, brand, price and stock; these are the identifiers and labels it leaves out.
  const details: Array<[string, string]> = [...identifierFacts(product)];
  if (product.tags.length) details.push(['Tags', product.tags.map(oneLine).join(', ')]);
  const inCollections = collections.filter((c) => c.products.some((p) => p.product.productId === product.productId));
  const more = [
    { href: aiHref(SITE_PATHS.productLlms(slug)), label: 'Plain-text facts for AI assistants', note: 'llms text file' },
    ...inCollections.map((c) => ({ href: hrefForFile(SITE_PATHS.collectionPage(c.handle)), label: `Collection: ${oneLine(c.collection.title)}` })),
  ];
  const body = `<article>
<h1>${escapeHtml(oneLine(product.name))}</h1>
${factCardHtml(facts)}
<p>${escapeHtml(summary)}</p>
${details.length ? `<dl>\n${details.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}\n</dl>` : ''}
${variantSectionHtml(product)}
${product.description.trim() ? `<h2>Description</h2>\n${markdownHtml(product.description)}` : ''}
<p><a href="${escapeHtml(product.url)}">View ${escapeHtml(oneLine(product.name))} on ${escapeHtml(storeName(ctx))}</a></p>
<h2>More</h2>
${linkList(more)}
</article>`;
  const node = { '@context': SCHEMA_CONTEXT, ...productNode(product, ctx.narrative, ctx.now, organizationId(ctx.business), ctx.kindOf) };
  // Canonical: the store's product page. This page replicates it (same product, same facts),
  // so search engines index the store's page; the date follows the product's (D112).
  return datedPage(ctx, SITE_PATHS.productPage(slug), product.updatedAt, (modified) => ({
    storeName: ctx.business.name,
    storeUrl: storeOrigin(ctx.business),
    title: product.name,
    description: summary,
    canonical: product.url,
    modifiedTime: modified,
    ogType: 'product',
    extraMeta: productOgMeta(product),
    // The page's date on the node that describes the page's content (D112: they agree).
    jsonLd: [{ ...node, dateModified: modified }],
    body,
  }));
}

/** The CollectionPage node of a page that lists products (a collection, a kind). */
function productListNode(name: string, url: string, description: string, refs: readonly ProductRef[], modified: string, business: StoreIdentity) {
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'CollectionPage',
    name,
    url,
    description,
    dateModified: modified,
    isPartOf: { '@id': organizationId(business) },
    mainEntity: {
      '@type': 'ItemList',
      numberOfItems: refs.length,
      itemListElement: refs.map(({ product }, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        url: product.url,
        name: oneLine(product.name),
      })),
    },
  };
}

export function buildCollectionPage(ctx: PageContext, ref: CollectionRef): SiteFile {
  const { collection } = ref;
  const title = oneLine(collection.title);
  const description = markdownPlain(collection.description) || `${title} at ${storeName(ctx)}.`;
  const body = `<article>
<h1>${escapeHtml(title)}</h1>
${markdownHtml(collection.description)}
${ref.products.length ? catalogueAnswersHtml(title, storeName(ctx), ref.products) : '<p>The products of this collection are listed on the store.</p>'}
<p><a href="${escapeHtml(collection.url)}">View the ${escapeHtml(title)} collection on ${escapeHtml(storeName(ctx))}</a></p>
</article>`;
  // Canonical: the store's collection page, which this page replicates (its products, its text).
  // The store gives collections no update time: the date is when this content last changed.
  return datedPage(ctx, SITE_PATHS.collectionPage(ref.handle), null, (modified) => ({
    storeName: ctx.business.name,
    storeUrl: storeOrigin(ctx.business),
    title: collection.title,
    description,
    canonical: collection.url,
    modifiedTime: modified,
    // The store's own order of its collection.
    jsonLd: [productListNode(title, collection.url, description, ref.products, modified, ctx.business)],
    body,
  }));
}

/**
 * One kind's page (`/ai/kinds/<slug>/`): every product of the kind with its price, stock and
 * options, the cheapest and dearest, price bands and option values (catalogue-answers.ts).
 * Content of its own, which no store page carries: canonical = its own public URL.
 */
export function buildKindPage(ctx: PageContext, group: KindGroup<ProductRef>): SiteFile {
  const label = oneLine(group.kind);
  const heading = `${label} at ${storeName(ctx)}: prices, stock and options`;
  const description = `Every ${label} product ${storeName(ctx)} lists (${group.products.length}), cheapest first, with its price, stock and options.`;
  const path = SITE_PATHS.kindPage(group.slug);
  const body = `<article>
<h1>${escapeHtml(heading)}</h1>
${catalogueAnswersHtml(label, storeName(ctx), group.products)}
</article>`;
  return datedPage(ctx, path, null, (modified) => ({
    storeName: ctx.business.name,
    storeUrl: storeOrigin(ctx.business),
    title: heading,
    description,
    canonical: publicUrlOfFile(path),
    modifiedTime: modified,
    jsonLd: [productListNode(heading, publicUrlOfFile(path), description, byPrice(group.products), modified, ctx.business)],
    body,
  }));
}

/** How many other questions a Q&A page links to (the index links to all). */
const RELATED_QUESTIONS = 5;

/**
 * One Q&A page. Its canonical is its own public URL (D112 decision in build.ts): the answer is
 * content of its own, which no store page carries, so it must not declare itself a copy.
 */
export function buildFaqPage(ctx: PageContext, faqs: readonly FaqRef[], index: number): SiteFile {
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
  const path = SITE_PATHS.faqPage(ref.slug);
  return datedPage(ctx, path, null, (modified) => ({
    storeName: ctx.business.name,
    storeUrl: storeOrigin(ctx.business),
    title: ref.entry.question,
    description: ref.entry.answer,
    canonical: publicUrlOfFile(path),
    modifiedTime: modified,
    jsonLd: [faqPageNode([ref.entry], modified)],
    body,
  }));
}

export function buildQuestionsIndex(ctx: PageContext, faqs: readonly FaqRef[]): SiteFile {
  const items = faqs.map(
    (ref) =>
      `<section>\n<h2><a href="${escapeHtml(hrefForFile(SITE_PATHS.faqPage(ref.slug)))}">${escapeHtml(oneLine(ref.entry.question))}</a></h2>\n${paragraphs(ref.entry.answer)}\n</section>`,
  );
  const heading = `Questions and answers about ${storeName(ctx)}`;
  const body = `<h1>${escapeHtml(heading)}</h1>
${items.length ? items.join('\n') : '<p>No questions have been answered yet.</p>'}`;
  const path = SITE_PATHS.questionsIndex;
  return datedPage(ctx, path, null, (modified, checked) => ({
    storeName: ctx.business.name,
    storeUrl: storeOrigin(ctx.business),
    // The year is the check date's (the daily refresh moves it), not a content change.
    title: `Questions and answers (${utcYear(checked)})`,
    description: `Answers to common questions about ${storeName(ctx)}: ${oneLine(ctx.narrative.summary)}`,
    canonical: publicUrlOfFile(path),
    modifiedTime: modified,
    jsonLd: [faqPageNode(faqs.map((f) => f.entry), modified)],
    body,
  }));
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
  /** The product a store product page shows: its replica opens with the product's fact card. */
  product?: CatalogProduct;
}

/** `/pages/<slug>.md`: the page's markdown, headed with its source URL and last-updated line. */
export function buildPageReplica(ctx: PageContext, ref: ReplicaRef): SiteFile {
  const { page } = ref;
  const updated = page.lastmod && !Number.isNaN(new Date(page.lastmod).getTime()) ? page.lastmod : ctx.now;
  const title = oneLine(page.title) || page.url;
  const header = [
    `# ${title}`,
    '',
    ...(ref.product ? [factCardMarkdown(productFacts(ref.product, ctx.kindOf)), ''] : []),
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
