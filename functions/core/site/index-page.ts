/**
 * The AI home: `/ai/index.html` (and the same page at `/index.html` for the AI host's root).
 * Built at publish time from the full file list, so it links to every page, including AI
 * articles written by other steps. Labels are read back from the files themselves.
 */
import { CONTENT_TYPES, escapeHtml, isoSeconds, linkList, oneLine, renderPage, utcYear } from './html';
import { datedContent, neutralTitleYear, type PageDate } from './dates';
import { PUBLIC_ORIGIN_TOKEN, SITE_PATHS, aiHref, hrefForFile, resolvePublicOrigin } from './paths';
import { SCHEMA_CONTEXT } from './structured-data';
import type { DeployMetadata, SiteFile } from './types';
import { asFacts, type FileFacts } from './file-facts';

/** The `> summary` line of llms.txt, when there is one. */
function llmsSummary(files: readonly FileFacts[]): string | null {
  const summary = files.find((f) => f.path === SITE_PATHS.llmsTxt)?.summary;
  return summary ? oneLine(summary) : null;
}

interface Item {
  href: string;
  label: string;
  note?: string;
}

/** A product's kind, price and stock from its fact-card line ("Name: Tumbler by Stanley, USD 30.00, in stock."). */
function productNote(file: FileFacts): string | undefined {
  const line = file.summary;
  if (!line) return undefined;
  const head = file.heading ? `${file.heading}: ` : '';
  return (line.startsWith(head) ? line.slice(head.length) : line).replace(/\.$/, '');
}

function byLabel(a: Item, b: Item): number {
  return a.label.localeCompare(b.label);
}

/**
 * `/index.html` and `/ai/index.html`, identical. Canonical: `/ai/` on the public origin (its
 * own content, D113). Dated by its content (D112): `previous` is the last release's AI home.
 */
export function buildIndexPage(items: ReadonlyArray<SiteFile | FileFacts>, metadata: DeployMetadata, previous?: PageDate): SiteFile[] {
  const files = asFacts(items);
  const paths = new Set(files.map((f) => f.path));
  const products: Item[] = [];
  const collections: Item[] = [];
  const kinds: Item[] = [];
  const questions: Item[] = [];
  const articles: Item[] = [];
  const pages: Item[] = [];
  for (const file of files) {
    const { path } = file;
    let match: RegExpExecArray | null;
    if ((match = /^\/ai\/products\/([^/]+)\/index\.html$/.exec(path))) {
      const note = productNote(file);
      products.push({ href: hrefForFile(path), label: file.heading ?? (match[1] as string), ...(note ? { note } : {}) });
    } else if ((match = /^\/ai\/kinds\/([^/]+)\/index\.html$/.exec(path))) {
      kinds.push({ href: hrefForFile(path), label: file.heading ?? (match[1] as string) });
    } else if ((match = /^\/ai\/collections\/([^/]+)\/index\.html$/.exec(path))) {
      collections.push({ href: hrefForFile(path), label: file.heading ?? (match[1] as string) });
    } else if ((match = /^\/ai\/([^/]+)\/index\.html$/.exec(path))) {
      if (match[1] === 'questions') continue;
      questions.push({ href: hrefForFile(path), label: file.heading ?? (match[1] as string) });
    } else if ((match = /^\/([^/]+(?:\/[^/]+)*)\/index\.html$/.exec(path)) && !path.startsWith('/ai/')) {
      if (paths.has(`/ai${path}`)) continue; // shadowed on the customer domain
      articles.push({ href: hrefForFile(path), label: file.heading ?? (match[1] as string) });
    } else if ((match = /^\/pages\/([^/]+)\.md$/.exec(path))) {
      pages.push({ href: aiHref(path), label: file.heading ?? (match[1] as string) });
    }
  }
  const section = (title: string, items: Item[]) =>
    items.length ? `<section>\n<h2>${escapeHtml(title)}</h2>\n${linkList([...items].sort(byLabel))}\n</section>` : '';

  const machine: Item[] = [];
  if (paths.has(SITE_PATHS.llmsTxt)) machine.push({ href: aiHref(SITE_PATHS.llmsTxt), label: 'llms.txt: the store summarized for AI assistants' });
  if (paths.has(SITE_PATHS.dataJson)) machine.push({ href: aiHref(SITE_PATHS.dataJson), label: 'Structured data (schema.org JSON-LD)' });
  const catalogue = files.filter((f) => /^\/llms\/catalog\/[^/]+\.txt$/.test(f.path)).map((f) => f.path).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const path of catalogue) {
    machine.push({ href: aiHref(path), label: path === SITE_PATHS.llmsFull ? 'Full product catalogue (plain text)' : `Product catalogue, part ${/(\d+)\.txt$/.exec(path)?.[1] ?? ''} (plain text)` });
  }
  machine.push({ href: aiHref(SITE_PATHS.sitemap), label: 'Sitemap' });

  const name = oneLine(metadata.businessName);
  const storeHome = `${metadata.sourceUrl.replace(/\/+$/, '')}/`;
  const summary = llmsSummary(files) ?? `${name}: products, collections and answers to common questions, in a form AI assistants read easily.`;
  const hasQuestionsIndex = paths.has(SITE_PATHS.questionsIndex);
  // The labels read from HTML pages are their h1s, whose title year the daily refresh moves:
  // hashed year-neutral, so that move is no change of the AI home either (D112).
  const fromHtml = (items: Item[], neutral: boolean) => (neutral ? items.map((i) => ({ ...i, label: neutralTitleYear(i.label) })) : items);
  const bodyOf = (neutral: boolean) => `<h1>${escapeHtml(name)}</h1>
<p>${escapeHtml(summary)}</p>
<p><a href="${escapeHtml(storeHome)}">Visit ${escapeHtml(name)}</a></p>
${section('Products', fromHtml(products, neutral))}
${section('Products by kind', fromHtml(kinds, neutral))}
${section('Collections', fromHtml(collections, neutral))}
${questions.length || hasQuestionsIndex ? `<section>\n<h2>Questions and answers</h2>\n${hasQuestionsIndex ? `<p><a href="${hrefForFile(SITE_PATHS.questionsIndex)}">All questions on one page</a></p>\n` : ''}${linkList(fromHtml(questions, neutral))}\n</section>` : ''}
${section('Articles', fromHtml(articles, neutral))}
${section('Store pages (markdown)', pages)}
${section('For machines', machine)}`;

  const { content: dated } = datedContent(
    ({ modified, checked, hash, neutral }) =>
      renderPage({
        storeName: metadata.businessName,
        storeUrl: metadata.sourceUrl,
        title: `Guide for AI assistants (${utcYear(checked)})`,
        description: summary,
        // resolved below, so connecting a domain is no content change
        canonical: `${PUBLIC_ORIGIN_TOKEN}${aiHref('/')}`,
        modifiedTime: modified,
        checkedTime: checked,
        ...(hash ? { contentHash: hash } : {}),
        jsonLd: [
          {
            '@context': SCHEMA_CONTEXT,
            '@type': 'WebPage',
            name: `${name}: guide for AI assistants`,
            description: summary,
            dateModified: isoSeconds(modified),
            about: { '@type': ['Organization', 'OnlineStore'], name, url: metadata.sourceUrl.replace(/\/+$/, '') },
          },
        ],
        body: bodyOf(neutral),
      }),
    previous,
    null,
    metadata.deployedAt,
  );
  const content = resolvePublicOrigin(dated, metadata.publicOrigin);
  return [
    { path: SITE_PATHS.rootIndex, content, contentType: CONTENT_TYPES.html },
    { path: SITE_PATHS.aiHome, content, contentType: CONTENT_TYPES.html },
  ];
}
