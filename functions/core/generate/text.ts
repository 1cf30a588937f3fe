/**
 * Small, pure text helpers for the generators: markdown to plain text, sentence
 * splitting, and word-boundary keyword matching. No I/O, deterministic.
 */
/** Collapses every run of whitespace to one space and trims. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Inline markdown of one line to plain text: links and images, emphasis, code, tags, entities. */
export function stripInlineMarkdown(line: string): string {
  return line
    // markdown escapes (turndown adds them) are shielded from the rules below, restored at the end
    .replace(/\\([\\`*_{}[\]()#+\-.!>|])/g, (_m, c: string) => String.fromCharCode(0xe000 + c.charCodeAt(0)))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links keep their text
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1') // reference links
    // leftover html tags: block ones separate words, inline and void ones never split a word ("I<meta>deal")
    .replace(/<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote|hr|dd|dt)\b[^>]*>/gi, ' ')
    .replace(/<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_m, e: string) => HTML_ENTITIES[e] ?? _m)
    .replace(/[\ue000-\ue0ff]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xe000));
}

export interface MarkdownBlock {
  kind: 'heading' | 'paragraph' | 'item';
  /** Heading level (1-6) for headings, 0 otherwise. */
  level: number;
  /** Plain text, inline markdown removed, whitespace normalized. */
  text: string;
  /** The block's source lines, unmodified (for question detection on bold lines). */
  raw: string;
}

/**
 * Splits markdown into headings, paragraphs and list items. Code fences, tables,
 * horizontal rules and blockquote markers are dropped or unwrapped.
 */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) {
      const raw = para.join('\n');
      const text = normalizeSpace(stripInlineMarkdown(para.join(' ')));
      if (text) blocks.push({ kind: 'paragraph', level: 0, text, raw });
    }
    para = [];
  };
  let inFence = false;
  for (const rawLine of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.replace(/^\s*(>\s*)+/, '').trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const trimmed = line.trim();
    if (!trimmed) { flush(); continue; }
    if (/^([-*_]\s*){3,}$/.test(trimmed) || /^\|?[\s:|-]+\|[\s:|-]*$/.test(trimmed)) { flush(); continue; }
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(trimmed);
    if (heading) {
      flush();
      const text = normalizeSpace(stripInlineMarkdown(heading[2]));
      if (text) blocks.push({ kind: 'heading', level: heading[1].length, text, raw: trimmed });
      continue;
    }
    // Setext heading underline: the paragraph so far is a heading.
    if (/^(=+|-+)$/.test(trimmed) && para.length) {
      const raw = para.join('\n');
      const text = normalizeSpace(stripInlineMarkdown(para.join(' ')));
      para = [];
      if (text) blocks.push({ kind: 'heading', level: trimmed.startsWith('=') ? 1 : 2, text, raw });
      continue;
    }
    const item = /^(?:[-*+]|\d{1,3}[.)])\s+(.*)$/.exec(trimmed);
    if (item) {
      flush();
      const text = normalizeSpace(stripInlineMarkdown(item[1]));
      if (text) blocks.push({ kind: 'item', level: 0, text, raw: item[1] });
      continue;
    }
    if (trimmed.startsWith('|')) {
      // A table row: keep the cell text as a paragraph of its own.
      flush();
      const text = normalizeSpace(stripInlineMarkdown(trimmed.split('|').map((c) => c.trim()).filter(Boolean).join(', ')));
      if (text) blocks.push({ kind: 'paragraph', level: 0, text, raw: trimmed });
      continue;
    }
    para.push(trimmed);
  }
  flush();
  return blocks;
}

/** Markdown to plain text, one block per line. */
export function markdownToText(markdown: string): string {
  return markdownBlocks(markdown).map((b) => b.text).join('\n');
}

/** Words that end with a period without ending a sentence. */
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'etc', 'vs', 'mr', 'mrs', 'ms', 'dr', 'st', 'no', 'approx', 'inc', 'ltd', 'co', 'jr', 'sr', 'oz', 'lb', 'lbs', 'fl', 'ca', 'min', 'max', 'u.s', 'u.k', 'dept', 'est',
]);

/**
 * Splits plain text into sentences. Boundaries are `.`, `!`, `?` (with closing quotes or
 * brackets) followed by whitespace and an upper-case letter, digit or quote, plus line
 * breaks; decimals ("24.00") and common abbreviations do not split.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const s = normalizeSpace(line);
    if (!s) continue;
    let start = 0;
    const re = /[.!?]+["'”’)\]]*(?=\s+["'“‘(]?[A-Z0-9À-Ý])/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(s))) {
      const end = m.index + m[0].length;
      if (m[0].startsWith('.') && m[0].length === 1) {
        const before = s.slice(start, m.index);
        const lastWord = (/([A-Za-z.]+)$/.exec(before)?.[1] ?? '').toLowerCase();
        if (ABBREVIATIONS.has(lastWord) || /^[a-z]$/i.test(lastWord)) continue;
      }
      const sentence = s.slice(start, end).trim();
      if (sentence) out.push(sentence);
      start = end;
    }
    const rest = s.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}

/** Whether the sentence ends like a statement (. or !, possibly with a closing quote). */
export function isStatement(sentence: string): boolean {
  return /[.!]["'”’)\]]*$/.test(sentence);
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive, word-boundary regex for a keyword; plain keywords also match their plural. */
export function keywordRegExp(keyword: string, flags = 'gi'): RegExp {
  const body = escapeRegExp(keyword).replace(/\\? /g, '[\\s-]+');
  const plural = /[a-z]$/i.test(keyword) ? '(?:s|es)?' : '';
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}${plural}(?![\\p{L}\\p{N}])`, `${flags}u`);
}

const regexCache = new Map<string, RegExp>();
function cachedRegExp(keyword: string, flags: string): RegExp {
  const key = `${flags}:${keyword}`;
  let re = regexCache.get(key);
  if (!re) {
    if (regexCache.size > 5000) regexCache.clear();
    re = keywordRegExp(keyword, flags);
    regexCache.set(key, re);
  }
  return re;
}

/** How many times the keyword (or its plural) occurs in the text. */
export function countKeyword(text: string, keyword: string): number {
  if (!text) return 0;
  return text.match(cachedRegExp(keyword, 'gi'))?.length ?? 0; // match() resets lastIndex
}

/** " lower case words " with every non-letter/digit run as one space: for fast `hasWord` checks. */
export function wordText(text: string): string {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/**
 * The keyword and its plurals as ` word ` needles for a `wordText`: whole-word matching
 * like `countKeyword`, without a regex per test (for loops over big catalogues).
 */
export function wordVariants(keyword: string): string[] {
  const k = wordText(keyword).trim();
  return k ? [` ${k} `, ` ${k}s `, ` ${k}es `] : [];
}

/** Cuts at a word boundary and adds an ellipsis when the text is longer than `max`. */
export function truncateText(text: string, max: number): string {
  const s = normalizeSpace(text);
  if (s.length <= max) return s;
  const cut = s.slice(0, Math.max(0, max - 1));
  const at = cut.lastIndexOf(' ');
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The first sentences of a text, up to `maxSentences` and `maxChars`. */
export function leadSentences(text: string, maxSentences: number, maxChars: number): string {
  const picked: string[] = [];
  let length = 0;
  for (const sentence of splitSentences(text)) {
    if (picked.length >= maxSentences) break;
    if (picked.length && length + sentence.length + 1 > maxChars) break;
    picked.push(sentence);
    length += sentence.length + 1;
  }
  return truncateText(picked.join(' '), maxChars);
}

/** "the mug comes in" → "The mug comes in". */
export const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "a", "b and c" style list. */
export function joinList(items: string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} ${conjunction} ${items[1]}`;
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}


/** Case- and punctuation-insensitive key for de-duplication. */
export function dedupeKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Singular-ish key so "Teas" and "Tea" collapse. */
export function singularKey(text: string): string {
  return dedupeKey(text)
    .split(' ')
    .map((w) => (w.length > 3 && /ies$/.test(w) ? `${w.slice(0, -3)}y` : w.length > 3 && /(ss|us)$/.test(w) ? w : w.length > 3 && /s$/.test(w) ? w.slice(0, -1) : w))
    .join(' ');
}

/** A money amount: "$18", "18.00 USD", "USD 18", "€12,50", "£7". */
const MONEY = /(?:[$€£¥₹]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:[$€£¥₹]|(?:USD|EUR|GBP|CAD|AUD|NZD|JPY|CHF|SEK|NOK|DKK|INR)\b)|\b(?:USD|EUR|GBP|CAD|AUD|NZD|JPY|CHF|SEK|NOK|DKK|INR)\s?\d)/;
/** Words of a store policy that states an amount (a free-shipping threshold, a return fee): not a product's price. */
const POLICY = /\b(shipping|ships|delivery|deliver|orders?|returns?|refunds?|exchanges?|checkout|minimum|threshold|gift cards?|vouchers?|membership)\b/i;

/** Whether a sentence states a price (a money amount that is not a shipping or order policy). */
export function statesPrice(sentence: string): boolean {
  return MONEY.test(sentence) && !POLICY.test(sentence);
}

/**
 * The text without its sentences that state prices: prices change without the prose being
 * rewritten, so they live in the structured offers (Offer JSON-LD, the Price lines of the
 * product files), never in generated prose. Policy amounts ("free shipping on orders over
 * $45") stay.
 */
export function withoutPrices(text: string): string {
  if (!MONEY.test(text)) return text;
  return text
    .split(/\n{2,}/)
    .map((paragraph) => splitSentences(paragraph).filter((s) => !statesPrice(s)).join(' '))
    .filter((p) => p.trim())
    .join('\n\n');
}

/**
 * "Brewing Gear" → "brewing gear", "Single-Origin Coffee" → "single-origin coffee"; acronyms
 * and brand casing ("CBD Oil" → "CBD oil", "USB-C", "eKO") keep their case.
 */
export function lowerLabel(label: string): string {
  return label
    .trim()
    .split(/\s+/)
    .map((w) => (w.split('-').some((part) => /[A-Z].*[A-Z]/.test(part) || /^\p{Ll}+\p{Lu}/u.test(part)) ? w : w.toLowerCase()))
    .join(' ');
}
