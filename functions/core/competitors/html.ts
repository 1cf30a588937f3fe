/**
 * A small, dependency-free reader for a competitor's web page: title, meta tags, JSON-LD
 * blocks and the main text as a list of blocks (headings, paragraphs, list items).
 *
 * Why not cheerio (core/crawl/fingerprint.ts)? The competitor routes are API Lambdas with a
 * 250 KB bundle budget (bench/bundle.ts); cheerio alone brings ~1.9 MB. Competitor pages
 * only need text and a few tags, which a tolerant tokenizer gets right on real-world HTML:
 * raw-text elements are dropped wholesale, unclosed tags are closed by their parent, and
 * the main content is `<main>`/`[role=main]` when present, else the body without its
 * header, footer, aside and navigation (the same rule as the crawler's fingerprint).
 */

export interface PageBlock {
  /** Nearest semantic block: h1..h6, p, li, dt, dd, blockquote, td, th, figcaption, summary; else `div`. */
  tag: string;
  text: string;
  /** Inside an element whose class, id or itemtype says "product" (a product card or grid). */
  inProduct: boolean;
}

export interface PageFacts {
  url: string;
  lang: string;
  title: string;
  /** `name`/`property`/`itemprop` (lower-case) → content; the first occurrence wins. */
  meta: Record<string, string>;
  /** Parsed JSON-LD values (invalid blocks skipped). */
  jsonLd: unknown[];
  /** Main-content blocks in document order. */
  blocks: PageBlock[];
}

const MAX_HTML_CHARS = 3_000_000;

/** Elements whose content is never page text. */
const RAW_TEXT = /<(script|style|noscript|template|svg|math|iframe|textarea|select|canvas|object|video|audio|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Never content, wherever they are. */
const ALWAYS_SKIPPED = new Set(['nav', 'button', 'dialog', 'script', 'style', 'noscript', 'template']);
/** Page chrome, skipped when the page has no main element. */
const CHROME = new Set(['header', 'footer', 'aside']);
const CHROME_ROLES = /^(?:navigation|banner|contentinfo|complementary|dialog|alertdialog)$/i;
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'ol', 'p',
  'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'body', 'html',
]);
const SEMANTIC = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'li', 'dt', 'dd', 'blockquote', 'td', 'th', 'figcaption', 'summary', 'caption']);
/** Start tags that close an open <p> (HTML's optional end tag rule). */
const P_CLOSERS = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'div', 'dl', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'main', 'menu', 'nav', 'ol', 'p', 'pre',
  'section', 'table', 'ul',
]);
/** Elements an implied end tag never reaches across. */
const SCOPE_BOUNDARIES = ['td', 'th', 'table', 'button', 'template', 'html'];
const PRODUCT_MARK = /product/i;
const COOKIE_MARK = /\b(?:cookie|consent|gdpr|newsletter-popup|announcement-bar)\b/i;

interface Open {
  name: string;
  /** This element or an ancestor is not content. */
  skip: boolean;
  /** This element or an ancestor is the main element. */
  main: boolean;
  /** This element or an ancestor is marked as a product. */
  product: boolean;
  /** Nearest semantic block, this element included. */
  semantic: string | null;
}

const MAX_DEPTH = 1024;
const MAX_SCAN = 256;

export function readPage(html: string, url: string): PageFacts {
  const source = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  const withoutComments = source.replace(/<!--[\s\S]*?(?:-->|$)/g, '');

  const jsonLd: unknown[] = [];
  for (const m of withoutComments.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const type = attributes(m[1]).type ?? '';
    if (!/ld\+json/i.test(type)) continue;
    const text = m[2].trim().replace(/^<!\[CDATA\[|\]\]>$/g, '').trim();
    try {
      jsonLd.push(JSON.parse(text));
    } catch {
      // an invalid block is skipped; the others still count
    }
  }

  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(withoutComments);
  const meta: Record<string, string> = {};
  for (const m of withoutComments.matchAll(/<meta\b([^>]*)>/gi)) {
    const attrs = attributes(m[1]);
    const key = (attrs.name ?? attrs.property ?? attrs.itemprop ?? '').trim().toLowerCase();
    const content = attrs.content;
    if (key && content !== undefined && !(key in meta)) meta[key] = cleanText(content);
  }
  const htmlTag = /<html\b([^>]*)>/i.exec(withoutComments);
  const lang = (htmlTag ? attributes(htmlTag[1]).lang ?? '' : '').trim().toLowerCase();

  const body = withoutComments.replace(RAW_TEXT, ' ').replace(/<![^>]*>|<\?[^>]*>/g, ' ');
  return {
    url,
    lang,
    title: cleanText(titleMatch?.[1] ?? ''),
    meta,
    jsonLd,
    blocks: readBlocks(body),
  };
}

function readBlocks(html: string): PageBlock[] {
  const hasMain = /<main[\s>]/i.test(html) || /<[a-z][^>]*\srole\s*=\s*["']?main["'\s>]/i.test(html);
  const blocks: PageBlock[] = [];
  // Each entry carries the state inherited from its ancestors, so every step is O(1).
  const stack: Open[] = [];
  let buffer: string[] = [];

  const top = (): Open | undefined => stack[stack.length - 1];
  const flush = () => {
    const text = cleanText(buffer.join(''));
    buffer = [];
    if (!text) return;
    const current = top();
    blocks.push({ tag: current?.semantic ?? 'div', text, inProduct: Boolean(current?.product) });
  };
  const collecting = () => {
    const current = top();
    return !current?.skip && (!hasMain || Boolean(current?.main));
  };

  const token = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)|</g;
  for (const m of html.matchAll(token)) {
    if (m[4] !== undefined || m[0] === '<') {
      if (collecting()) buffer.push(m[4] ?? '<');
      continue;
    }
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    const rawAttrs = m[3] ?? '';
    if (closing) {
      const index = findOpen(stack, name);
      if (index < 0) continue;
      if (stack.slice(index).some((o) => BLOCKS.has(o.name))) flush();
      stack.length = index;
      continue;
    }
    if (VOID.has(name) || /\/\s*$/.test(rawAttrs)) {
      if ((name === 'br' || name === 'hr') && collecting()) flush();
      else if (name === 'img' && collecting()) buffer.push(' ');
      continue;
    }
    // HTML's optional end tags: a block start closes an open <p>; <li>, <dt>, <dd> close their open sibling.
    const implied = P_CLOSERS.has(name) ? findOpen(stack, 'p', SCOPE_BOUNDARIES)
      : name === 'li' ? findOpen(stack, 'li', ['ul', 'ol', ...SCOPE_BOUNDARIES])
        : name === 'dt' || name === 'dd' ? Math.max(findOpen(stack, 'dt', ['dl', ...SCOPE_BOUNDARIES]), findOpen(stack, 'dd', ['dl', ...SCOPE_BOUNDARIES]))
          : -1;
    if (implied >= 0) {
      flush();
      stack.length = implied;
    }
    if (BLOCKS.has(name)) flush();
    // Absurd nesting (broken or hostile markup): deeper elements only contribute their text.
    if (stack.length >= MAX_DEPTH) continue;
    const attrs = attributes(rawAttrs);
    const parent = top();
    const marks = `${attrs.class ?? ''} ${attrs.id ?? ''}`;
    const skip = Boolean(parent?.skip)
      || ALWAYS_SKIPPED.has(name)
      || (!hasMain && CHROME.has(name))
      || CHROME_ROLES.test(attrs.role ?? '')
      || 'hidden' in attrs
      || (attrs['aria-hidden'] ?? '').toLowerCase() === 'true'
      || /display\s*:\s*none/i.test(attrs.style ?? '')
      || COOKIE_MARK.test(marks);
    stack.push({
      name,
      skip,
      main: Boolean(parent?.main) || name === 'main' || (attrs.role ?? '').toLowerCase() === 'main',
      product: Boolean(parent?.product) || PRODUCT_MARK.test(marks) || PRODUCT_MARK.test(attrs.itemtype ?? ''),
      semantic: SEMANTIC.has(name) ? name : parent?.semantic ?? null,
    });
  }
  flush();
  return blocks;
}

/**
 * Index of the innermost open element `name`, not crossing a `boundary` element, looking
 * at most MAX_SCAN levels up (a stray end tag in deep markup must not cost the whole stack).
 */
function findOpen(stack: Open[], name: string, boundary: string[] = []): number {
  for (let i = stack.length - 1; i >= 0 && i >= stack.length - MAX_SCAN; i--) {
    if (stack[i].name === name) return i;
    if (boundary.includes(stack[i].name)) return -1;
  }
  return -1;
}

/** Attributes of a start tag (names lower-case, values entity-decoded; bare names map to ''). */
export function attributes(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(/([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = m[1].toLowerCase();
    if (name in out) continue;
    out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ',
  ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„',
  laquo: '«', raquo: '»', middot: '·', bull: '•', copy: '©', reg: '®', trade: '™', deg: '°', times: '×',
  divide: '÷', euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', frac12: '½', frac14: '¼',
  frac34: '¾', plusmn: '±', hearts: '♥', star: '☆', check: '✓', rarr: '→', larr: '←', shy: '',
  agrave: 'à', aacute: 'á', acirc: 'â', atilde: 'ã', auml: 'ä', aring: 'å', aelig: 'æ', ccedil: 'ç',
  egrave: 'è', eacute: 'é', ecirc: 'ê', euml: 'ë', igrave: 'ì', iacute: 'í', icirc: 'î', iuml: 'ï',
  ntilde: 'ñ', ograve: 'ò', oacute: 'ó', ocirc: 'ô', otilde: 'õ', ouml: 'ö', oslash: 'ø', ugrave: 'ù',
  uacute: 'ú', ucirc: 'û', uuml: 'ü', yacute: 'ý', yuml: 'ÿ', szlig: 'ß', Agrave: 'À', Aacute: 'Á',
  Auml: 'Ä', Ccedil: 'Ç', Eacute: 'É', Egrave: 'È', Ntilde: 'Ñ', Oacute: 'Ó', Ouml: 'Ö', Uuml: 'Ü', Oslash: 'Ø',
};

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[ref] ?? NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** Entities decoded, stray tags removed, NFC, whitespace (nbsp, zero-width) collapsed, trimmed. */
export function cleanText(text: string): string {
  return decodeEntities(text.replace(/<[^<>]*>/g, ' '))
    .normalize('NFC')
    .replace(/[\u200B-\u200D\u2060\uFEFF]/g, '')
    .replace(/[\s\u00A0\u202F]+/g, ' ')
    .trim();
}

/**
 * The page's main text, markdown-like (`#` headings, `-` list items), capped in characters
 * at a line boundary: the competitor's `scraped_content`.
 */
export function pageText(page: PageFacts, maxChars = 50_000): string {
  const lines: string[] = [];
  let total = 0;
  let previous = '';
  for (const block of page.blocks) {
    const heading = /^h([1-6])$/.exec(block.tag);
    const line = heading ? `${'#'.repeat(Number(heading[1]))} ${block.text}` : block.tag === 'li' ? `- ${block.text}` : block.text;
    if (line === previous) continue;
    previous = line;
    if (total + line.length + 2 > maxChars) break;
    lines.push(line);
    total += line.length + 2;
  }
  return lines.join('\n\n');
}

