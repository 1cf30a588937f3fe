/** Test helpers: an llms.txt format checker and a link checker under both hosts' rules. */
import * as cheerio from 'cheerio';
import { route } from '../../../edge-function/route';
import type { SiteFile } from '../../../functions/core/site/types';

export interface LlmsDoc {
  title: string;
  summary: string;
  details: string[];
  sections: Array<{ title: string; links: Array<{ name: string; url: string; notes?: string }> }>;
}

const LINK_ITEM = /^- \[((?:\\.|[^\]\\])+)\]\(([^()\s]+)\)(?:: (.+))?$/;

/** Parses an llms.txt; throws with the offending line when the layout is not followed. */
export function parseLlmsTxt(text: string): LlmsDoc {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i]!.trim() === '') i += 1;
  };
  skipBlank();
  const h1 = /^# (\S.*)$/.exec(lines[i] ?? '');
  if (!h1) throw new Error(`llms.txt must start with an H1, got ${JSON.stringify(lines[i])}`);
  i += 1;
  skipBlank();
  const quote = /^> (\S.*)$/.exec(lines[i] ?? '');
  if (!quote) throw new Error(`the H1 must be followed by a blockquote, got ${JSON.stringify(lines[i])}`);
  i += 1;
  const details: string[] = [];
  while (i < lines.length && !lines[i]!.startsWith('## ')) {
    const line = lines[i]!;
    if (/^#/.test(line)) throw new Error(`no headings allowed in the detail section: ${JSON.stringify(line)}`);
    if (line.trim()) details.push(line);
    i += 1;
  }
  const sections: LlmsDoc['sections'] = [];
  for (; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const h2 = /^## (\S.*)$/.exec(line);
    if (h2) {
      sections.push({ title: h2[1]!, links: [] });
      continue;
    }
    const item = LINK_ITEM.exec(line);
    if (!item || sections.length === 0) throw new Error(`file lists hold only "- [name](url): notes" items: ${JSON.stringify(line)}`);
    sections[sections.length - 1]!.links.push({ name: item[1]!, url: item[2]!, ...(item[3] ? { notes: item[3] } : {}) });
  }
  const optional = sections.findIndex((s) => s.title === 'Optional');
  if (optional !== -1 && optional !== sections.length - 1) throw new Error('## Optional must be the last section');
  return { title: h1[1]!, summary: quote[1]!, details, sections };
}

/** The file the AI-site host serves for a URL path (with its `/ai/` fallback, D28), or null. */
export function resolveOnAiHost(paths: ReadonlySet<string>, urlPath: string): string | null {
  const candidates = [urlPath];
  if (urlPath.startsWith('/ai/')) candidates.push(urlPath.slice(3));
  for (const candidate of candidates) {
    const tries = candidate.endsWith('/') ? [`${candidate}index.html`] : [candidate, `${candidate}/index.html`];
    for (const p of tries) if (paths.has(p)) return p;
  }
  return null;
}

/** On the customer domain: the AI origin only for routed paths; everything else is the store. */
export function resolveOnCustomerDomain(paths: ReadonlySet<string>, urlPath: string): string | null {
  return route(urlPath) === 'ai' ? resolveOnAiHost(paths, urlPath) : null;
}

export interface LinkProblem {
  file: string;
  href: string;
  problem: string;
}

/** Every href/src of an HTML file. */
export function htmlLinks(content: string): string[] {
  const $ = cheerio.load(content);
  const out: string[] = [];
  $('[href]').each((_, el) => {
    out.push($(el).attr('href') as string);
  });
  $('[src]').each((_, el) => {
    out.push($(el).attr('src') as string);
  });
  return out;
}

/** Inline markdown link targets `](target)`. */
export function markdownLinks(content: string): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(/\]\(\s*<?([^)\s>]+)>?/g)) out.push(m[1]!);
  for (const m of content.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*(\S+)/gm)) out.push(m[1]!);
  return out;
}

/**
 * Checks one link found in an AI file. Root-relative links must resolve to a file under both
 * hosts' rules; absolute links must be on `storeOrigin` unless `anyAbsolute` (scraped markdown).
 */
export function checkLink(
  href: string,
  paths: ReadonlySet<string>,
  storeOrigin: string,
  anyAbsolute = false,
  publicOrigin?: string,
): string | null {
  if (href.startsWith('#')) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    if (/^mailto:|^tel:/i.test(href)) return anyAbsolute ? null : 'mailto/tel link in an AI page';
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return 'malformed absolute URL';
    }
    if (anyAbsolute) return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'not http(s)';
    // An absolute link on the site's public origin to an AI path (llms files, self canonicals):
    // it must resolve like its root-relative form, on both hosts (D28).
    if (publicOrigin && url.origin === new URL(publicOrigin).origin && route(decodeURIComponent(url.pathname)) === 'ai') {
      return checkLink(`${url.pathname}${url.search}`, paths, storeOrigin);
    }
    return url.origin === new URL(storeOrigin).origin ? null : `absolute link outside the store: ${url.origin}`;
  }
  if (!href.startsWith('/') || href.startsWith('//')) return 'relative or protocol-relative link';
  const path = decodeURIComponent(href.replace(/[?#].*$/, ''));
  if (!resolveOnAiHost(paths, path)) return 'does not resolve on the AI-site host';
  if (route(path) !== 'ai') return 'would go to the store on the customer domain (must be an absolute store URL)';
  if (!resolveOnCustomerDomain(paths, path)) return 'does not resolve on the customer domain';
  return null;
}

/** Every link problem of a finished site. */
export function linkProblems(files: readonly SiteFile[], storeOrigin: string, publicOrigin?: string): LinkProblem[] {
  const paths = new Set(files.map((f) => f.path));
  const problems: LinkProblem[] = [];
  for (const file of files) {
    let links: string[] = [];
    let anyAbsolute = false;
    if (file.path.endsWith('.html')) links = htmlLinks(file.content);
    else if (file.path.endsWith('.md')) {
      links = markdownLinks(file.content);
      anyAbsolute = true;
    } else if (file.path === '/llms.txt' || file.path.startsWith('/llms/')) links = markdownLinks(file.content);
    for (const href of links) {
      const problem = checkLink(href, paths, storeOrigin, anyAbsolute, publicOrigin);
      if (problem) problems.push({ file: file.path, href, problem });
    }
  }
  return problems;
}
