/**
 * The page of one AI article (spec: "AI article"; D28): `/<slug>/index.html`, reachable as
 * `/ai/<slug>/` on the AI-site host and on a customer domain. Pure, deterministic.
 *
 * It renders a written answer (answers.ts, or the model engine's grounded one): the question
 * as `<h1>`, the answer's blocks (sentences as a paragraph, fragments and option lines as a
 * list; a comparison's products under their own `<h2>`), what the store's facts do not cover,
 * "Related articles" (other articles of the same subject, from `existingPosts`) and "Sources"
 * (the AI pages quoted, the product on the store, the AI guide, llms.txt). It opens with the
 * answer's lead in bold (leads.ts). Prices and stock appear only in live slots every publish
 * rewrites (core/site/offer-slots.ts): an article is not rebuilt from the catalogue (D36).
 *
 * Head and dates (as every AI page, html.ts `renderPage`): canonical = its own URL on the
 * public origin in the routed form `/ai/<slug>/` (D113), og:type `article`,
 * `article:published_time` = `article:modified_time` = the published date (D112), JSON-LD
 * `Article` (headline, datePublished, dateModified, author and publisher = the store's
 * Organization, mainEntityOfPage, about); footer `Last updated` = published date and `Last
 * checked` = `now`; the `ai-site:content-hash` of the page rendered with placeholder dates
 * and the title's year neutral (core/site/dates.ts), so the daily refresh's year move is no
 * content change. Links use the path helpers so they resolve on both hosts.
 */
import { ValidationError } from '../errors';
import { HASH_DATE, contentHash, neutralTitleYear } from '../site/dates';
import { CONTENT_TYPES, escapeHtml, isoSeconds, linkList, oneLine, renderPage, truncate } from '../site/html';
import { SITE_PATHS, aiHref, hrefForFile, publicUrlOfFile } from '../site/paths';
import { SCHEMA_CONTEXT, organizationId } from '../site/structured-data';
import type { CatalogProduct, SiteFile } from '../site/types';
import { offerSlot, stockSlot, withoutOffers } from '../site/offer-slots';
import { leadSentence } from './answers';
import type { AnswerBlock, MemberLine, WrittenAnswer } from './questions-and-answers';
import { articleFilePath, articlePath as pathOfSlug } from './slugs';
import type { Source } from './site-sources';

export type FaqCategory = 'business_article' | 'product_article';

export interface ExistingPost {
  title: string;
  /** `/<slug>/` (the spec's `article_path`). */
  article_path: string;
}

export interface ArticleInput {
  /** A question (questions.ts). */
  title: string;
  /** slugs.ts `articleSlug`. */
  slug: string;
  business: { name: string; url: string };
  /** The product of a product article; absent for a business article. */
  product?: CatalogProduct | null;
  answer: WrittenAnswer;
  /** ISO: `backdate_to`, or now (`publishedDateOf`). */
  publishedDate: string;
  /** ISO time of this build: the footer's "Last checked". Defaults to `publishedDate`. */
  now?: string;
  /** Other articles of the same subject, for "Related articles". */
  relatedPosts: readonly ExistingPost[];
}

export interface ArticleBuild {
  files: SiteFile[];
  title: string;
  slug: string;
  /** `/<slug>/`. */
  articlePath: string;
  /** ISO, whole seconds. */
  publishedDate: string;
  faqCategory: FaqCategory;
  /** Paths of the AI-site files the article quotes. */
  sources: string[];
}

const MAX_RELATED = 5;

/** The published date of a new article: `backdate_to` (ISO, not in the future) or `now`, in whole seconds. */
export function publishedDateOf(backdateTo: string | null | undefined, now: string): string {
  const nowTime = new Date(now).getTime();
  if (Number.isNaN(nowTime)) throw new ValidationError('now must be an ISO timestamp');
  if (backdateTo === undefined || backdateTo === null || backdateTo === '') return isoSeconds(now);
  const time = new Date(backdateTo).getTime();
  if (typeof backdateTo !== 'string' || Number.isNaN(time)) throw new ValidationError('backdate_to must be an ISO date');
  if (time > nowTime) throw new ValidationError('backdate_to must not be in the future');
  return isoSeconds(new Date(time).toISOString());
}

function list(items: readonly string[]): string {
  return items.length ? `<ul>\n${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>` : '';
}

/** A family's members: each linked (its AI page, else the store's), with what sets it apart and its live offer. */
function memberList(members: readonly MemberLine[]): string {
  if (!members.length) return '';
  const item = (m: MemberLine) => {
    const link = `<a href="${escapeHtml(m.path ? hrefForFile(m.path) : m.url)}">${escapeHtml(m.label)}</a>`;
    return `<li>${link}${m.detail ? `: ${escapeHtml(m.detail)}` : ''} (${offerSlot(m.productId, m.offer)})</li>`;
  };
  return `<ul>\n${members.map(item).join('\n')}\n</ul>`;
}

/** The verdict and its fact, first and in bold; a live stock clause closes it when the lead names stock. */
function leadHtml(answer: WrittenAnswer): string {
  const lead = answer.lead;
  if (!lead) return '';
  const stock = lead.stockOf?.length ? `; ${stockSlot(lead.stockOf)}` : '';
  return `<p class="answer-lead"><strong>${escapeHtml(lead.text)}${stock}.</strong></p>`;
}

function blockHtml(block: AnswerBlock): string {
  const body = [block.sentences.length ? `<p>${escapeHtml(block.sentences.join(' '))}</p>` : '', list(block.items), memberList(block.members ?? [])].filter(Boolean).join('\n');
  return block.heading ? `<section>\n<h2>${escapeHtml(block.heading)}</h2>\n${body}\n</section>` : body;
}

function section(heading: string, body: string): string {
  return body.trim() ? `<section>\n<h2>${escapeHtml(heading)}</h2>\n${body}\n</section>` : '';
}

function sourceHref(path: string): string {
  return path.endsWith('/index.html') ? hrefForFile(path) : aiHref(path);
}

function bodyHtml(input: ArticleInput, title: string): string {
  const store = oneLine(input.business.name);
  const { answer } = input;
  const own = pathOfSlug(input.slug);
  const related = input.relatedPosts
    .filter((p) => p.article_path !== own && p.article_path !== `/ai${own}` && oneLine(p.title) && p.article_path.startsWith('/'))
    .slice(0, MAX_RELATED)
    .map((p) => ({ href: aiHref(p.article_path), label: oneLine(p.title) }));
  const product = input.product ?? null;
  const sources: Array<{ href: string; label: string }> = [
    ...answer.sources.filter((s: Source) => s.path).map((s) => ({ href: sourceHref(s.path), label: s.label })),
    ...(product?.url ? [{ href: product.url, label: `${oneLine(product.name)} on ${store}` }] : []),
    { href: aiHref('/'), label: `${store}: guide for AI assistants` },
    { href: aiHref(SITE_PATHS.llmsTxt), label: 'llms.txt' },
  ];
  const parts = [
    `<h1>${escapeHtml(title)}</h1>`,
    leadHtml(answer),
    ...answer.blocks.map(blockHtml),
    answer.uncovered.length ? `<p>${escapeHtml(answer.uncovered.join(' '))}</p>` : '',
    section('Related articles', linkList(related)),
    section('Sources', linkList(sources)),
  ];
  return `<article>\n${parts.filter(Boolean).join('\n')}\n</article>`;
}

/** The meta description: the lead, then the answer's first sentences. */
function descriptionOf(answer: WrittenAnswer): string {
  const first = [leadSentence(answer), ...answer.blocks.flatMap((b) => [...b.sentences, ...b.items])].filter(Boolean);
  return oneLine(first.slice(0, 2).join(' '));
}

/** The article's files and the create-ai-article response fields it decides. */
export function buildArticleFiles(input: ArticleInput): ArticleBuild {
  const title = oneLine(input.title);
  if (!title.endsWith('?')) throw new ValidationError('an article title is a question');
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(input.slug)) throw new ValidationError(`not a slug: ${JSON.stringify(input.slug)}`);
  const published = isoSeconds(input.publishedDate);
  const checked = isoSeconds(input.now ?? input.publishedDate);
  const path = articleFilePath(input.slug);
  const canonical = publicUrlOfFile(path);
  const store = oneLine(input.business.name);
  const storeOrigin = input.business.url.replace(/\/+$/, '');
  const orgId = organizationId({ name: store, url: storeOrigin, orgSlug: '', domain: '' });
  const organization = { '@type': 'Organization', '@id': orgId, name: store, url: storeOrigin };
  const product = input.product ?? null;
  const description = descriptionOf(input.answer);

  const render = (dates: { published: string; checked: string; hash: string }, pageTitle: string): string => {
    const article: Record<string, unknown> = {
      '@context': SCHEMA_CONTEXT,
      '@type': 'Article',
      headline: truncate(pageTitle, 110),
      description: truncate(description, 300),
      url: canonical,
      mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
      datePublished: dates.published,
      dateModified: dates.published,
      inLanguage: 'en',
      author: organization,
      publisher: organization,
      about: product ? { '@type': 'Product', '@id': `${product.url}#product`, name: oneLine(product.name), url: product.url } : { '@id': orgId },
    };
    return renderPage({
      storeName: input.business.name,
      storeUrl: input.business.url,
      title: pageTitle,
      description,
      canonical,
      modifiedTime: dates.published,
      checkedTime: dates.checked,
      ...(dates.hash ? { contentHash: dates.hash } : {}),
      ogType: 'article',
      extraMeta: [['article:published_time', dates.published]],
      jsonLd: [article],
      body: bodyHtml(input, pageTitle),
    });
  };
  // Dates and live offers are not the page's words: neither counts as a change (D112, D36).
  const hash = contentHash(withoutOffers(render({ published: HASH_DATE, checked: HASH_DATE, hash: '' }, neutralTitleYear(title))));
  const html = render({ published, checked, hash }, title);
  return {
    files: [{ path, content: html, contentType: CONTENT_TYPES.html }],
    title,
    slug: input.slug,
    articlePath: pathOfSlug(input.slug),
    publishedDate: published,
    faqCategory: product ? 'product_article' : 'business_article',
    sources: input.answer.sources.map((s) => s.path).filter(Boolean),
  };
}

