/**
 * The noise-free content fingerprint daily change detection relies on, main-content
 * extraction for the scraper, and the guard that keeps challenge pages from being hashed.
 *
 * Fingerprint pipeline (web-protocols.md §8):
 * 1. parse the DOM; drop script/style/noscript/template/svg/iframe/… elements, comments,
 *    hidden inputs and `[hidden]` elements;
 * 2. drop known volatile nodes: the platform's per-request `#__st`/`shopify-y`/captcha
 *    bootstrap, cart counts and drawers, currency/market selectors, "recently viewed",
 *    dynamic checkout buttons, CSRF fields, consent banners;
 * 3. keep the main content: `main`, else `[role=main]`, else a single `article`, else the
 *    body without header/nav/footer/aside (nav is dropped everywhere);
 * 4. serialize as text lines, one per block element, prefixed by the block's tag when it is
 *    semantic (`h2`, `li`, `p`, …; wrapper `div`/`section` carry no prefix, so theme or A/B
 *    wrappers do not count). Attributes never reach the hash (nonces, integrity hashes,
 *    `?v=` cache-busters, data ids all live in attributes);
 * 5. Unicode NFC, whitespace collapsed (nbsp and zero-width characters included);
 * 6. sha256, hex.
 */
import { createHash } from 'node:crypto';
import { load, type Cheerio, type CheerioAPI, type contains } from 'cheerio';

/** domhandler's node type, named through cheerio (no direct dependency on domhandler). */
type AnyNode = Parameters<typeof contains>[0];

/** Elements whose content is never page text. */
const NON_CONTENT = [
  'script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'embed', 'canvas',
  'link', 'meta', 'head', 'input[type=hidden]', '[hidden]',
].join(', ');

/**
 * Known per-request, per-session or per-geo nodes (web-protocols.md §8). Extend with care:
 * anything listed here can no longer trigger a change.
 */
export const VOLATILE_SELECTORS: readonly string[] = [
  // platform per-request bootstrap
  '#__st', 'meta[name="shopify-y"]', '#shopify-features', '#captcha-bootstrap', '#web-pixels-manager-setup',
  '#shopify-digital-wallet',
  // cart count, cart drawer and notifications
  '.cart-count', '.cart-count-bubble', '#CartCount', '[data-cart-count]', '[data-cart-item-count]', '.js-cart-count',
  '.cart-link__bubble', 'cart-drawer', '.cart-drawer', '#CartDrawer', 'cart-notification', '#cart-notification',
  // currency, country and language selectors
  'localization-form', '.localization-form', '.localization-wrapper', 'form[action*="/localization"]',
  'select[name="currency"]', 'select[name="country_code"]', '.currency-selector', '[data-currency-selector]',
  // recently viewed and session-dependent widgets
  'recently-viewed-products', '.recently-viewed', '.recently-viewed-products', '#recently-viewed', '[data-recently-viewed]',
  '.shopify-payment-button', 'shopify-payment-terms', '.shopify-payment-terms',
  // CSRF and form tokens that are not hidden inputs
  'input[name="authenticity_token"]', 'input[name="_csrf"]', 'input[name="csrf_token"]', 'input[name="form_key"]',
  // consent banners
  '#shopify-privacy-banner', '#shopify-pc__banner', '#onetrust-consent-sdk', '#CybotCookiebotDialog',
];

/** Page chrome dropped when no main element says where the content is. */
const CHROME = 'header, footer, aside, [role=banner], [role=contentinfo], [role=complementary]';
/** Navigation is chrome wherever it is (menus, breadcrumbs, pagination). */
const NAVIGATION = 'nav, [role=navigation]';

/** Block elements: each starts a new line of the serialized text. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr',
  'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot',
  'th', 'thead', 'tr', 'ul', 'legend', 'label', 'button', 'select', 'textarea',
]);
/** Blocks whose tag is part of the serialized line (meaningful structure, not theme wrappers). */
const SEMANTIC_BLOCKS = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'li', 'dt', 'dd', 'blockquote', 'pre', 'td', 'th', 'caption',
  'figcaption', 'summary', 'legend',
]);

/**
 * Parses HTML the same way everywhere in the crawler: htmlparser2 in HTML mode (what Crawlee
 * uses too), about twice as fast as cheerio's default parse5 tree builder. It does not invent
 * `<html>/<body>` for fragments and repairs less, which is fine here: a fingerprint only needs
 * the same input to give the same tree, and links are just `a[href]`.
 */
export function parseHtml(html: string): CheerioAPI {
  return load(html, { xml: { xmlMode: false, decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true } });
}

/** sha256 hex of the normalized main content of an HTML document. */
export function contentFingerprint(html: string): string {
  return fingerprintDocument(parseHtml(html));
}

/** Same on a parsed document. MUTATES it (removes nodes): extract links before calling. */
export function fingerprintDocument($: CheerioAPI): string {
  return sha256(fingerprintInputOf($));
}

/** The exact text that is hashed (for tests and for diagnosing an unexpected change). MUTATES `$`. */
export function fingerprintInputOf($: CheerioAPI): string {
  stripNoise($);
  return serializeText(selectMain($));
}

/** Fingerprint of text that is already extracted (e.g. a provider's markdown when no HTML came back). */
export function textFingerprint(text: string): string {
  return sha256(normalizeText(text).split('\n').map((l) => l.trim()).filter(Boolean).join('\n'));
}

export interface MainContent {
  title: string;
  description: string;
  /** Cleaned main-content HTML: links and image sources absolute, `data:` images removed. */
  mainHtml: string;
}

export interface PageAnalysis extends MainContent {
  fingerprint: string;
}

/** Title, description and main-content HTML of a page (the scraper's input to markdown). */
export function extractMainContent(html: string, url: string): MainContent {
  const { title, description, mainHtml } = analyzePage(html, url);
  return { title, description, mainHtml };
}

/**
 * One parse, everything the scraper needs: main content plus the fingerprint. The
 * fingerprint is computed from the same cleaned main element, so it always equals
 * `contentFingerprint(html)`.
 */
export function analyzePage(html: string, url: string): PageAnalysis {
  return analyzeDocument(parseHtml(html), url);
}

/**
 * Same on a parsed document (the mapper parses once for links, main content and fingerprint).
 * MUTATES it (removes nodes): extract links before calling.
 */
export function analyzeDocument($: CheerioAPI, url: string): PageAnalysis {
  const title = firstText(
    $('head > title').first().text(),
    $('title').not('svg title').first().text(),
    $('meta[property="og:title"]').attr('content'),
    $('meta[name="twitter:title"]').attr('content'),
    $('h1').first().text(),
  );
  const description = firstText(
    $('meta[name="description"]').attr('content'),
    $('meta[property="og:description"]').attr('content'),
    $('meta[name="twitter:description"]').attr('content'),
  );
  const baseHref = $('base[href]').first().attr('href');
  const base = resolveBase(baseHref, url);

  stripNoise($);
  const main = selectMain($);
  const fingerprint = sha256(serializeText(main));
  removeComments(main);

  main.find('a[href]').each((_, el) => {
    const link = $(el);
    const href = (link.attr('href') ?? '').trim();
    if (/^(?:javascript|data|vbscript):/i.test(href)) {
      link.removeAttr('href');
      return;
    }
    const absolute = absolutize(href, base);
    if (absolute) link.attr('href', absolute);
  });
  main.find('img').each((_, el) => {
    const img = $(el);
    const src = (img.attr('src') ?? img.attr('data-src') ?? '').trim();
    if (!src || /^data:/i.test(src)) {
      img.remove();
      return;
    }
    const absolute = absolutize(src, base);
    if (absolute) img.attr('src', absolute);
    else img.remove();
    img.removeAttr('srcset');
  });
  const mainHtml = main.is('body') || main.is($.root()) ? main.html() ?? '' : $.html(main);
  return { title, description, mainHtml, fingerprint };
}

// ---------------------------------------------------------------------------------------

function stripNoise($: CheerioAPI): void {
  $(NON_CONTENT).remove();
  $(VOLATILE_SELECTORS.join(', ')).remove();
  $(NAVIGATION).remove();
  // Comments ("generated at …" stamps, cache markers) never reach the hash: the serializer
  // reads text and elements only. They are removed from the main HTML in analyzePage.
}

function removeComments(root: Cheerio<AnyNode>): void {
  root.find('*').addBack().contents().filter((_, node) => node.type === 'comment').remove();
}

/** The main-content element of a cleaned document. */
function selectMain($: CheerioAPI): Cheerio<AnyNode> {
  const main = $('main').first();
  if (main.length) return main;
  const roleMain = $('[role=main]').first();
  if (roleMain.length) return roleMain;
  const articles = $('article');
  if (articles.length === 1) return articles.first();
  const body = $('body').first();
  const container: Cheerio<AnyNode> = body.length ? body : $.root();
  container.find(CHROME).remove();
  return container;
}

interface DomNode {
  type: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

/** One line per block element; inline content joins its block's line. */
function serializeText(root: Cheerio<AnyNode>): string {
  const lines: string[] = [];
  let current: string[] = [];
  const tagStack: string[] = [];

  const flush = () => {
    const text = normalizeText(current.join('')).trim();
    current = [];
    if (!text) return;
    const tag = [...tagStack].reverse().find((t) => SEMANTIC_BLOCKS.has(t));
    lines.push(tag ? `${tag}: ${text}` : text);
  };
  const walk = (node: DomNode) => {
    if (node.type === 'text') {
      current.push(node.data ?? '');
      return;
    }
    if (node.type === 'root') {
      for (const child of node.children ?? []) walk(child);
      return;
    }
    if (node.type !== 'tag' || !node.name) return;
    const name = node.name.toLowerCase();
    const block = BLOCKS.has(name);
    if (block) {
      flush();
      tagStack.push(name);
    } else if (name === 'img') {
      return;
    }
    for (const child of node.children ?? []) walk(child);
    if (block) {
      flush();
      tagStack.pop();
    }
  };
  root.each((_, node) => walk(node as unknown as DomNode));
  flush();
  return lines.join('\n');
}

/** NFC, nbsp and zero-width characters handled, runs of whitespace collapsed to one space. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u200B-\u200D\u2060\uFEFF]/g, '')
    .replace(/[\s\u00A0\u202F]+/g, ' ');
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function firstText(...candidates: Array<string | undefined>): string {
  for (const candidate of candidates) {
    const text = normalizeText(candidate ?? '').trim();
    if (text) return text;
  }
  return '';
}

function resolveBase(baseHref: string | undefined, url: string): URL | null {
  let page: URL | null;
  try {
    page = new URL(url);
  } catch {
    page = null;
  }
  if (!baseHref) return page;
  try {
    return new URL(baseHref, page ?? undefined);
  } catch {
    return page;
  }
}

function absolutize(href: string, base: URL | null): string | null {
  if (!href) return null;
  try {
    const resolved = base ? new URL(href, base) : new URL(href);
    if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:' && resolved.protocol !== 'mailto:' && resolved.protocol !== 'tel:') return null;
    return resolved.href;
  } catch {
    return null;
  }
}
