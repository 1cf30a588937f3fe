/**
 * A small HTML parser that builds just enough of a DOM for turndown (core/text/markdown.ts):
 * elements, text, parents, siblings, attributes, `textContent`, `getElementsByTagName`,
 * `removeChild`. It replaces the full DOM implementation turndown pulls in on Node (domino,
 * ~250 KB minified), which no API bundle can afford (250 KB limit), so product and collection
 * descriptions can be converted in any Lambda with the same converter as scraped pages.
 *
 * What it understands: start/end/self-closing tags, void elements, raw-text elements
 * (script, style, textarea, title: their content is not parsed), comments, doctypes and CDATA
 * (skipped), implied ends of `p`, `li`, `dt`/`dd`, `option`, table rows and cells, unmatched
 * end tags (ignored), and character references (numeric, and the named ones stores use).
 * It never throws on malformed input.
 */

export const VOID_ELEMENTS = new Set([
  'area', 'base', 'br', 'col', 'command', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'template']);

/** Elements whose start closes an open `<p>` (HTML's "close a p element"). */
const CLOSES_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul',
]);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', hellip: '…', mdash: '—', ndash: '–', minus: '−', bull: '•', middot: '·',
  lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»', lsaquo: '‹', rsaquo: '›',
  prime: '′', Prime: '″', dagger: '†', Dagger: '‡', permil: '‰', copy: '©', reg: '®', trade: '™', deg: '°', plusmn: '±',
  times: '×', divide: '÷', frac12: '½', frac14: '¼', frac34: '¾', sup1: '¹', sup2: '²', sup3: '³', micro: 'µ', para: '¶',
  sect: '§', cent: '¢', pound: '£', euro: '€', yen: '¥', curren: '¤', iexcl: '¡', iquest: '¿', ordf: 'ª', ordm: 'º',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', check: '✓', star: '☆', hearts: '♥', le: '≤', ge: '≥', ne: '≠',
  asymp: '≈', infin: '∞', alpha: 'α', beta: 'β', mu: 'μ', pi: 'π', Omega: 'Ω', szlig: 'ß', AElig: 'Æ', aelig: 'æ',
  OElig: 'Œ', oelig: 'œ', Oslash: 'Ø', oslash: 'ø', Aring: 'Å', aring: 'å', ETH: 'Ð', eth: 'ð', THORN: 'Þ', thorn: 'þ',
  Ccedil: 'Ç', ccedil: 'ç', Ntilde: 'Ñ', ntilde: 'ñ', colon: ':', comma: ',', period: '.', excl: '!', quest: '?',
  num: '#', dollar: '$', percnt: '%', lpar: '(', rpar: ')', ast: '*', plus: '+', sol: '/', bsol: '\\', lowbar: '_',
  lsqb: '[', rsqb: ']', lbrace: '{', rbrace: '}', vert: '|', tilde: '˜', circ: 'ˆ', grave: '`', semi: ';', equals: '=',
};
const ACCENTS: Record<string, string> = { acute: '\u0301', grave: '\u0300', circ: '\u0302', uml: '\u0308', tilde: '\u0303' };

function namedEntity(name: string): string | undefined {
  const direct = NAMED_ENTITIES[name];
  if (direct !== undefined) return direct;
  // Accented Latin letters: `eacute` → é, `Uuml` → Ü, `ocirc` → ô ...
  const m = /^([A-Za-z])(acute|grave|circ|uml|tilde)$/.exec(name);
  if (m) return `${m[1]}${ACCENTS[m[2] as string]}`.normalize('NFC');
  return undefined;
}

/** Decodes character references: numeric ones and the named ones above (others are left as written). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    if (!whole.endsWith(';') && !['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg'].includes(ref)) return whole;
    return namedEntity(ref) ?? whole;
  });
}

export abstract class MiniNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  parentNode: MiniElement | null = null;
  nextSibling: MiniNode | null = null;
  previousSibling: MiniNode | null = null;
  abstract get textContent(): string;
  cloneNode(): this {
    // turndown clones its input before mutating it; every tree here is built for one conversion.
    return this;
  }
}

export class MiniText extends MiniNode {
  readonly nodeType = 3;
  readonly nodeName = '#text';
  constructor(public data: string) {
    super();
  }
  get nodeValue(): string {
    return this.data;
  }
  set nodeValue(value: string) {
    this.data = value;
  }
  get textContent(): string {
    return this.data;
  }
}

export class MiniElement extends MiniNode {
  readonly nodeType = 1;
  readonly nodeName: string;
  readonly childNodes: MiniNode[] = [];
  constructor(
    readonly localName: string,
    private readonly attributes: Record<string, string> = {},
  ) {
    super();
    this.nodeName = localName.toUpperCase();
  }
  get tagName(): string {
    return this.nodeName;
  }
  get nodeValue(): null {
    return null;
  }
  get firstChild(): MiniNode | null {
    return this.childNodes[0] ?? null;
  }
  get lastChild(): MiniNode | null {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }
  get children(): MiniElement[] {
    return this.childNodes.filter((n): n is MiniElement => n instanceof MiniElement);
  }
  get lastElementChild(): MiniElement | null {
    for (let i = this.childNodes.length - 1; i >= 0; i -= 1) {
      const node = this.childNodes[i];
      if (node instanceof MiniElement) return node;
    }
    return null;
  }
  get textContent(): string {
    let out = '';
    for (const child of this.childNodes) out += child.textContent;
    return out;
  }
  get outerHTML(): string {
    const attrs = Object.entries(this.attributes)
      .map(([k, v]) => ` ${k}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
      .join('');
    if (VOID_ELEMENTS.has(this.localName)) return `<${this.localName}${attrs}>`;
    const inner = this.childNodes
      .map((n) => (n instanceof MiniElement ? n.outerHTML : n.textContent.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')))
      .join('');
    return `<${this.localName}${attrs}>${inner}</${this.localName}>`;
  }
  getAttribute(name: string): string | null {
    const value = this.attributes[name.toLowerCase()];
    return value === undefined ? null : value;
  }
  hasAttribute(name: string): boolean {
    return name.toLowerCase() in this.attributes;
  }
  getElementsByTagName(name: string): MiniElement[] {
    const wanted = name.toUpperCase();
    const out: MiniElement[] = [];
    const walk = (el: MiniElement) => {
      for (const child of el.childNodes) {
        if (!(child instanceof MiniElement)) continue;
        if (wanted === '*' || child.nodeName === wanted) out.push(child);
        walk(child);
      }
    };
    walk(this);
    return out;
  }
  appendChild<T extends MiniNode>(node: T): T {
    const last = this.lastChild;
    node.parentNode = this;
    node.previousSibling = last;
    node.nextSibling = null;
    if (last) last.nextSibling = node;
    this.childNodes.push(node);
    return node;
  }
  removeChild<T extends MiniNode>(node: T): T {
    const index = this.childNodes.indexOf(node);
    if (index === -1) return node;
    this.childNodes.splice(index, 1);
    if (node.previousSibling) node.previousSibling.nextSibling = node.nextSibling;
    if (node.nextSibling) node.nextSibling.previousSibling = node.previousSibling;
    node.parentNode = null;
    node.nextSibling = null;
    node.previousSibling = null;
    return node;
  }
}

function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const re = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const name = (m[1] as string).toLowerCase();
    if (!(name in attrs)) attrs[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** Parses an HTML fragment into a root element (nodeName `X-ROOT`) holding its nodes. */
export function parseHtmlFragment(html: string): MiniElement {
  const root = new MiniElement('x-root');
  const stack: MiniElement[] = [root];
  const current = () => stack[stack.length - 1] as MiniElement;
  const hasOpen = (name: string, stopAt: ReadonlySet<string> = new Set()) => {
    for (let i = stack.length - 1; i > 0; i -= 1) {
      const n = (stack[i] as MiniElement).localName;
      if (n === name) return true;
      if (stopAt.has(n)) return false;
    }
    return false;
  };
  const closeUpTo = (name: string) => {
    while (stack.length > 1) {
      const el = stack.pop() as MiniElement;
      if (el.localName === name) return;
    }
  };
  const text = (value: string) => {
    if (!value) return;
    const last = current().lastChild;
    if (last instanceof MiniText) last.data += value;
    else current().appendChild(new MiniText(value));
  };
  const LIST_SCOPE = new Set(['ul', 'ol', 'table', 'div', 'section', 'article']);
  const TABLE_SCOPE = new Set(['table']);

  let i = 0;
  const length = html.length;
  let lower: string | null = null;
  while (i < length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      text(decodeEntities(html.slice(i)));
      break;
    }
    if (lt > i) text(decodeEntities(html.slice(i, lt)));
    const next = html[lt + 1];
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? length : end + 3;
      continue;
    }
    if (next === '!' || next === '?') {
      const end = html.indexOf('>', lt + 2);
      i = end === -1 ? length : end + 1;
      continue;
    }
    const tag = /^<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/.exec(html.slice(lt, lt + 4096));
    if (!tag) {
      // A `<` that starts no tag is text.
      text('<');
      i = lt + 1;
      continue;
    }
    i = lt + tag[0].length;
    const closing = tag[1] === '/';
    const name = (tag[2] as string).toLowerCase();
    if (closing) {
      if (name === 'br') current().appendChild(new MiniElement('br'));
      else if (name === 'p' && !hasOpen('p')) current().appendChild(new MiniElement('p'));
      else if (hasOpen(name)) closeUpTo(name);
      continue;
    }
    const rawAttrs = (tag[3] as string).replace(/\/\s*$/, '');
    // Implied end tags.
    if (CLOSES_P.has(name) && hasOpen('p', LIST_SCOPE)) closeUpTo('p');
    if (name === 'li' && hasOpen('li', new Set(['ul', 'ol']))) closeUpTo('li');
    if ((name === 'dt' || name === 'dd') && (hasOpen('dt', new Set(['dl'])) || hasOpen('dd', new Set(['dl'])))) {
      closeUpTo(hasOpen('dd', new Set(['dl'])) ? 'dd' : 'dt');
    }
    if (name === 'option' && hasOpen('option')) closeUpTo('option');
    if ((name === 'td' || name === 'th' || name === 'tr') && (hasOpen('td', TABLE_SCOPE) || hasOpen('th', TABLE_SCOPE))) {
      closeUpTo(hasOpen('td', TABLE_SCOPE) ? 'td' : 'th');
    }
    if (name === 'tr' && hasOpen('tr', TABLE_SCOPE)) closeUpTo('tr');
    const element = current().appendChild(new MiniElement(name, parseAttributes(rawAttrs)));
    if (VOID_ELEMENTS.has(name) || /\/\s*$/.test(tag[3] as string)) continue;
    if (RAW_TEXT.has(name)) {
      lower ??= html.toLowerCase();
      const end = lower.indexOf(`</${name}`, i);
      const body = html.slice(i, end === -1 ? length : end);
      if (body) element.appendChild(new MiniText(name === 'textarea' || name === 'title' ? decodeEntities(body) : body));
      const close = end === -1 ? -1 : html.indexOf('>', end);
      i = close === -1 ? length : close + 1;
      continue;
    }
    stack.push(element);
  }
  return root;
}
