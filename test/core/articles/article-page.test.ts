/** The AI article page: built only from the AI site's own content, linked for both hosts, dated and marked up like every AI page. */
import * as cheerio from 'cheerio';
import { ARTICLE_CONNECTIVES, buildArticleFiles, publishedDateOf, readArticleSources, type ArticleInput } from '../../../functions/core/articles/article-page';
import { articleSlug, takenSlugs } from '../../../functions/core/articles/slugs';
import { pickTitle, titleContext, type TitleVariation } from '../../../functions/core/articles/titles';
import { seededRandom } from '../../../functions/core/util/random';
import { ValidationError } from '../../../functions/core/errors';
import { markdownToText, splitSentences } from '../../../functions/core/generate/text';
import { buildSiteFiles, finalizeSite, refreshTimestamps } from '../../../functions/core/site/build';
import { lastCheckedLine, lastUpdatedLine } from '../../../functions/core/site/html';
import { PUBLIC_ORIGIN_TOKEN, publicUrlOfFile } from '../../../functions/core/site/paths';
import type { CatalogProduct, SiteFile } from '../../../functions/core/site/types';
import { linkProblems } from '../site/helpers';
import { INDEXNOW_KEY, NOW, STORE, TRACKING_ENDPOINT, metadata, narrative, snapshot } from '../site/fixtures';

const AI_HOST = 'https://northwind-coffee.aivis.example';
const BUSINESS = { name: 'Northwind Coffee Roasters', url: STORE };
const LATER = '2026-03-20T06:00:00.000Z';

function siteFiles(): SiteFile[] {
  return buildSiteFiles(snapshot(), narrative(), { now: NOW, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT });
}

function productOf(id: string): CatalogProduct {
  return snapshot().products.find((p) => p.productId === id) as CatalogProduct;
}

/** An article input over the fixture site for a picked (or given) title. */
function input(options: { seed?: string; title?: string; product?: CatalogProduct | null; files?: SiteFile[]; existing?: ArticleInput['existingPosts']; now?: string } = {}): ArticleInput {
  const files = options.files ?? siteFiles();
  const product = options.product ?? null;
  let variation: TitleVariation | null = null;
  if (!options.title) variation = pickTitle(titleContext(snapshot(), narrative(), { now: NOW, product }), [], seededRandom(options.seed ?? 'a'));
  const title = options.title ?? (variation as TitleVariation).title;
  return {
    title,
    slug: articleSlug(title, takenSlugs(files.map((f) => f.path))),
    business: BUSINESS,
    product,
    ...(variation ? { slots: variation.slots } : {}),
    llmsTxt: files.find((f) => f.path === '/llms.txt')?.content ?? '',
    dataJson: JSON.parse(files.find((f) => f.path === '/data.json')?.content ?? '{}'),
    pages: files,
    publishedDate: NOW,
    ...(options.now ? { now: options.now } : {}),
    existingPosts: options.existing ?? [],
  };
}

const norm = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The plain text of everything the article was given: the AI site's files and the product's catalogue entry. */
function corpus(given: ArticleInput): string {
  const parts: string[] = [markdownToText(given.llmsTxt)];
  const strings = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(strings);
    else if (value && typeof value === 'object') Object.values(value).forEach(strings);
  };
  strings(given.dataJson);
  for (const file of given.pages) {
    if (file.path.endsWith('.html')) {
      const $ = cheerio.load(file.content);
      $('main h1, main h2, main h3, main p, main li, main dt, main dd').each((_, el) => {
        parts.push($(el).text());
      });
    } else if (file.path.endsWith('.md')) parts.push(markdownToText(file.content));
  }
  if (given.product) strings(given.product);
  return norm(parts.join('\n'));
}

const LABELLED = /^(Product type|Vendor|Option [^:]+|Materials named in the description|Features named in the description|Availability on [A-Z][a-z]+ \d{1,2}, \d{4}): (.+)$/;

/** Sentences of the article body that are neither quoted from the content nor a fixed connective. */
function unsupported(html: string, given: ArticleInput): string[] {
  const source = corpus(given);
  const lower = source.toLowerCase();
  const $ = cheerio.load(html);
  const bad: string[] = [];
  $('main article p, main article li').each((_, el) => {
    const copy = $(el).clone();
    copy.find('a').remove();
    const text = norm(copy.text()).replace(/^:\s*/, '');
    if (!text) return;
    const labelled = LABELLED.exec(text);
    if (labelled) {
      const values = /^(Materials|Features)/.test(labelled[1] as string) ? (labelled[2] as string).split(', ') : [labelled[2] as string];
      for (const v of values) if (!lower.includes(v.toLowerCase()) && !(labelled[1] as string).startsWith('Option')) bad.push(text);
      if ((labelled[1] as string).startsWith('Option')) for (const v of (labelled[2] as string).split(', ')) if (!source.includes(v)) bad.push(text);
      return;
    }
    for (const sentence of splitSentences(text)) {
      if (ARTICLE_CONNECTIVES.some((re) => re.test(sentence))) continue;
      if (!source.includes(norm(sentence).replace(/[.!]$/, ''))) bad.push(sentence);
    }
  });
  return bad;
}

function articleHtml(build: ReturnType<typeof buildArticleFiles>): string {
  expect(build.files).toHaveLength(1);
  return (build.files[0] as SiteFile).content;
}

describe('what the article is', () => {
  it('a business article: /<slug>/index.html, article_path /<slug>/, the title a question, faq category business_article', () => {
    const given = input({ seed: 'business' });
    const build = buildArticleFiles(given);
    expect(build.files[0]?.path).toBe(`/${given.slug}/index.html`);
    expect(build.articlePath).toBe(`/${given.slug}/`);
    expect(build.title).toBe(given.title);
    expect(build.title.endsWith('?')).toBe(true);
    expect(build.faqCategory).toBe('business_article');
    expect(build.publishedDate).toBe('2026-03-14T09:12:00Z');
    const $ = cheerio.load(articleHtml(build));
    expect($('main h1').text()).toBe(given.title);
    expect(build.files.some((f) => f.path.endsWith('.md'))).toBe(false); // own-content pages have no markdown twin
  });

  it('a product article: faq category product_article, about the product, linking its AI page and store page', () => {
    const given = input({ seed: 'product', product: productOf('ethiopia-yirgacheffe') });
    const build = buildArticleFiles(given);
    expect(build.faqCategory).toBe('product_article');
    const html = articleHtml(build);
    const $ = cheerio.load(html);
    expect($('main p').first().text()).toContain('Northwind Coffee Roasters lists the Ethiopia Yirgacheffe Whole Bean in its online store.');
    expect($('a[href="/ai/products/ethiopia-yirgacheffe/"]').length).toBeGreaterThan(0);
    expect($(`a[href="${STORE}/products/ethiopia-yirgacheffe"]`).length).toBe(1);
    const article = JSON.parse($('script[type="application/ld+json"]').first().text());
    expect(article.about).toEqual({ '@type': 'Product', '@id': `${STORE}/products/ethiopia-yirgacheffe#product`, name: 'Ethiopia Yirgacheffe Whole Bean', url: `${STORE}/products/ethiopia-yirgacheffe` });
    expect(build.sources).toContain('/ai/products/ethiopia-yirgacheffe/index.html');
  });

  it('refuses a title that is not a question, and a bad slug', () => {
    expect(() => buildArticleFiles({ ...input(), title: 'Best coffee beans' })).toThrow(ValidationError);
    expect(() => buildArticleFiles({ ...input(), slug: 'Not a slug' })).toThrow(ValidationError);
  });

  it('is deterministic, and the same with the site read once for many articles', () => {
    const given = input({ seed: 'same', product: productOf('house-espresso-blend') });
    expect(buildArticleFiles(given)).toEqual(buildArticleFiles(given));
    expect(buildArticleFiles(given, readArticleSources(given))).toEqual(buildArticleFiles(given));
  });
});

describe('never invents a fact', () => {
  const seeds = Array.from({ length: 12 }, (_, i) => `fact-${i}`);
  it.each(seeds)('business article %s: every sentence is quoted from the AI site or a fixed connective', (seed) => {
    const given = input({ seed });
    expect(unsupported(articleHtml(buildArticleFiles(given)), given)).toEqual([]);
  });

  it.each(snapshot().products.map((p) => p.productId))('product article for %s: the same holds', (id) => {
    const given = input({ seed: id, product: productOf(id) });
    expect(unsupported(articleHtml(buildArticleFiles(given)), given)).toEqual([]);
  });

  it('the checker itself catches an invented sentence', () => {
    const given = input({ seed: 'x' });
    const html = articleHtml(buildArticleFiles(given)).replace('</h1>', '</h1>\n<p>Northwind ships free to the Moon.</p>');
    expect(unsupported(html, given)).toEqual(['Northwind ships free to the Moon.']);
  });

  it('puts no price in prose (the product page’s offers carry prices)', () => {
    for (const id of ['ethiopia-yirgacheffe', 'model-2025-burr-grinder', 'decaf-colombia']) {
      const product = productOf(id);
      const $ = cheerio.load(articleHtml(buildArticleFiles(input({ seed: id, product }))));
      const text = $('main').text();
      for (const amount of [product.price, product.compareAtPrice].filter(Boolean) as string[]) expect(text).not.toContain(amount);
      expect(text).not.toMatch(/USD\s?\d/);
      expect($('script[type="application/ld+json"]').text()).not.toContain('"price"');
    }
  });

  it('dates the availability it states, because availability changes', () => {
    const $ = cheerio.load(articleHtml(buildArticleFiles(input({ seed: 'stock', product: productOf('decaf-colombia') }))));
    expect($('main li').map((_, el) => $(el).text()).get()).toContain('Availability on March 14, 2026: Out of stock');
  });

  it('says so when a city the title names is not in the content', () => {
    const given = input({ title: 'Where can I buy coffee beans online in Tokyo?', product: productOf('house-espresso-blend') });
    given.slots = { product: 'coffee beans', city: 'Tokyo' };
    const $ = cheerio.load(articleHtml(buildArticleFiles(given)));
    expect($('main p').first().text()).toContain('The site of Northwind Coffee Roasters does not mention Tokyo.');
    expect($('main h2').map((_, el) => $(el).text()).get()).toContain('Shipping and returns');
    expect($('main').text()).toContain('Orders ship within 2 business days.');
  });

  it('is short when the content says little, and says so', () => {
    const tiny: ArticleInput = {
      title: 'What are the best home decor gifts for students?',
      slug: 'what-are-the-best-home-decor-gifts-for-students',
      business: { name: 'Tiny Candles', url: 'https://tiny.example' },
      llmsTxt: '# Tiny Candles\n\n> Tiny Candles pours soy wax candles by hand.\n',
      dataJson: {},
      pages: [],
      publishedDate: NOW,
      existingPosts: [],
    };
    const html = articleHtml(buildArticleFiles(tiny));
    const $ = cheerio.load(html);
    const sentences = $('main article p, main article li')
      .map((_, el) => { const c = $(el).clone(); c.find('a').remove(); return norm(c.text()); })
      .get()
      .filter(Boolean)
      .flatMap((t) => splitSentences(t));
    expect(sentences).toEqual(['Tiny Candles pours soy wax candles by hand.', 'The site of Tiny Candles says little more about this question.']);
    expect($('main h2').map((_, el) => $(el).text()).get()).toEqual(['Sources']);

    const empty = cheerio.load(articleHtml(buildArticleFiles({ ...tiny, llmsTxt: '', dataJson: null })));
    expect(norm(empty('main article p').text())).toBe('The site of Tiny Candles says little more about this question.');
  });

  it('quotes the site’s relevant Q&A, linked, and marks them up as an FAQPage', () => {
    const given = input({ title: 'How do I choose coffee beans for freshness?', product: productOf('ethiopia-yirgacheffe') });
    const html = articleHtml(buildArticleFiles(given));
    const $ = cheerio.load(html);
    expect($('main h3 a[href="/ai/how-fresh-is-the-coffee/"]').text()).toBe('How fresh is the coffee?');
    const nodes = $('script[type="application/ld+json"]').map((_, el) => JSON.parse($(el).text())).get();
    const faq = nodes.find((n: Record<string, unknown>) => n['@type'] === 'FAQPage');
    expect(faq.mainEntity.map((q: { name: string }) => q.name)).toContain('How fresh is the coffee?');
  });

  it('escapes the store’s text', () => {
    const html = articleHtml(buildArticleFiles(input({ seed: 'mug', product: productOf('script-mug') })));
    const $ = cheerio.load(html);
    expect($('script').length).toBe($('script[type="application/ld+json"]').length + 1); // + tracking.js
    expect(html).not.toContain('<script>alert');
  });
});

describe('head, dates and structured data like every AI page', () => {
  it('canonical is its own URL (routed /ai/<slug>/ on the public origin), og:type article, published = modified', () => {
    const given = input({ seed: 'head', now: LATER });
    const html = articleHtml(buildArticleFiles(given));
    const $ = cheerio.load(html);
    const own = `${PUBLIC_ORIGIN_TOKEN}/ai/${given.slug}/`;
    expect(publicUrlOfFile(`/${given.slug}/index.html`)).toBe(own);
    expect($('link[rel="canonical"]').attr('href')).toBe(own);
    expect($('meta[property="og:url"]').attr('content')).toBe(own);
    expect($('meta[property="og:type"]').attr('content')).toBe('article');
    expect($('meta[property="article:published_time"]').attr('content')).toBe('2026-03-14T09:12:00Z');
    expect($('meta[property="article:modified_time"]').attr('content')).toBe('2026-03-14T09:12:00Z');
    expect($('meta[name="ai-site:content-hash"]').attr('content')).toMatch(/^[0-9a-f]{32}$/);
    expect($('meta[name="description"]').attr('content')).toBeTruthy();
    expect($('footer').text()).toContain(lastUpdatedLine(NOW));
    expect($('footer').text()).toContain(lastCheckedLine(LATER));
    const article = JSON.parse($('script[type="application/ld+json"]').first().text());
    expect(article).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: given.title,
      datePublished: '2026-03-14T09:12:00Z',
      dateModified: '2026-03-14T09:12:00Z',
      mainEntityOfPage: { '@type': 'WebPage', '@id': own },
      author: { '@type': 'Organization', '@id': `${STORE}/#organization`, name: 'Northwind Coffee Roasters' },
      publisher: { '@type': 'Organization', '@id': `${STORE}/#organization` },
    });

    const published = finalizeSite([...siteFiles(), ...buildArticleFiles(given).files], metadata(STORE));
    const served = cheerio.load(published.find((f) => f.path === `/${given.slug}/index.html`)!.content);
    expect(served('link[rel="canonical"]').attr('href')).toBe(`${STORE}/ai/${given.slug}/`);
  });

  it('the content hash ignores the dates and the title’s year (the refresh moves them); the content moves it', () => {
    const hash = (given: ArticleInput) => cheerio.load(articleHtml(buildArticleFiles(given)))('meta[name="ai-site:content-hash"]').attr('content');
    const base = input({ title: 'What are the best coffee beans for milk drinks in 2026?', product: productOf('house-espresso-blend') });
    expect(hash({ ...base, title: 'What are the best coffee beans for milk drinks in 2027?' })).toBe(hash(base));
    expect(hash({ ...base, now: LATER, publishedDate: '2026-01-02T00:00:00Z' })).toBe(hash(base));
    expect(hash({ ...base, product: productOf('ethiopia-yirgacheffe') })).not.toBe(hash(base));
  });

  it('the daily refresh moves its title year and check date, never its published or modified date', () => {
    const given = input({ title: 'Which coffee beans are best in 2026?', product: productOf('house-espresso-blend') });
    const [file] = buildArticleFiles(given).files as [SiteFile];
    expect(cheerio.load(file.content)('title').text()).toBe('Which coffee beans are best in 2026? | Northwind Coffee Roasters');
    const [refreshed] = refreshTimestamps([file], '2027-01-02T00:00:00Z') as [SiteFile];
    const $ = cheerio.load(refreshed.content);
    expect($('title').text()).toBe('Which coffee beans are best in 2027? | Northwind Coffee Roasters');
    expect($('meta[property="og:title"]').attr('content')).toBe('Which coffee beans are best in 2027? | Northwind Coffee Roasters');
    expect($('meta[name="ai-site:content-hash"]').attr('content')).toBe(cheerio.load(file.content)('meta[name="ai-site:content-hash"]').attr('content'));
    expect($('meta[property="article:modified_time"]').attr('content')).toBe('2026-03-14T09:12:00Z');
    expect($('meta[property="article:published_time"]').attr('content')).toBe('2026-03-14T09:12:00Z');
    expect($('footer').text()).toContain('Last checked: January 2, 2027');
    expect($('footer').text()).toContain(lastUpdatedLine(NOW));
  });
});

describe('links', () => {
  it.each([
    ['customer domain as public origin', STORE],
    ['AI-site host as public origin', AI_HOST],
  ])('resolve on both hosts (%s), related articles included', (_, origin) => {
    const files = siteFiles();
    const first = buildArticleFiles(input({ files, seed: 'first', product: productOf('ethiopia-yirgacheffe') }));
    const withFirst = [...files, ...first.files];
    const second = buildArticleFiles(
      input({ files: withFirst, seed: 'second', product: productOf('house-espresso-blend'), existing: [{ title: first.title, article_path: first.articlePath }] }),
    );
    expect(second.slug).not.toBe(first.slug);
    const site = finalizeSite([...withFirst, ...second.files], metadata(origin));
    expect(linkProblems(site, STORE, origin).filter((p) => !p.file.startsWith('/ai/') && !p.file.startsWith('/llms') && !p.file.startsWith('/pages/'))).toEqual([]);
    expect(linkProblems(site, STORE, origin)).toEqual([]);
    const $ = cheerio.load(site.find((f) => f.path === `/${second.slug}/index.html`)!.content);
    expect($(`a[href="/ai/${first.slug}/"]`).text()).toBe(first.title);
    // The AI home and the sitemap list the article in its /ai/<slug>/ form.
    expect(site.find((f) => f.path === '/ai/index.html')!.content).toContain(`href="/ai/${second.slug}/"`);
    expect(site.find((f) => f.path === '/sitemap.xml')!.content).toContain(`${origin}/ai/${second.slug}/`);
  });

  it('links the AI home, llms.txt and the store, never a root-relative store path', () => {
    const $ = cheerio.load(articleHtml(buildArticleFiles(input({ seed: 'links' }))));
    const hrefs = $('main a').map((_, el) => $(el).attr('href')).get();
    expect(hrefs).toContain('/ai/');
    expect(hrefs).toContain('/llms.txt');
    expect(hrefs).toContain(`${STORE}/`);
    for (const href of hrefs) expect(href.startsWith('/ai/') || href.startsWith('/llms') || href.startsWith(STORE)).toBe(true);
  });
});

describe('publishedDateOf', () => {
  it('is backdate_to when given, else now, in whole seconds', () => {
    expect(publishedDateOf(undefined, NOW)).toBe('2026-03-14T09:12:00Z');
    expect(publishedDateOf('2026-01-02', NOW)).toBe('2026-01-02T00:00:00Z');
    expect(publishedDateOf('2026-02-03T04:05:06.789Z', NOW)).toBe('2026-02-03T04:05:06Z');
  });

  it('refuses an unreadable or future backdate', () => {
    expect(() => publishedDateOf('yesterday', NOW)).toThrow(ValidationError);
    expect(() => publishedDateOf('2027-01-01', NOW)).toThrow(ValidationError);
  });
});
