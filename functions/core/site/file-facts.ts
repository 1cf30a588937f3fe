/**
 * What the generated files (the AI home, the sitemap) read of a content file: its path and a
 * few facts, not its bytes. A publish that streams a store's 65,000 files keeps only these
 * (D204); the array builders take files or facts alike.
 */
import { decodeHtmlEntities, oneLine } from './html';
import { SITE_PATHS } from './paths';
import { FACT_CARD_CLASS } from './fact-card';
import type { SiteFile } from './types';

export interface FileFacts {
  path: string;
  /** How the AI home lists it: an HTML page's h1 (else its title), a markdown or text file's `# ` heading. */
  heading: string | null;
  /** An HTML page's `article:modified_time` (the sitemap's `<lastmod>`). */
  modified?: string;
  /** llms.txt's `> summary` line; a product page's first fact-card line (its kind, price and stock). */
  summary?: string | null;
}

const FACT_CARD_HEAD = new RegExp(`<ul class="${FACT_CARD_CLASS}">\\s*<li>([\\s\\S]*?)<\\/li>`);

const MODIFIED_TIME = /<meta\s+property="article:modified_time"\s+content="([^"]+)"/i;

function htmlHeading(content: string): string | null {
  const match = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(content) ?? /<title>([\s\S]*?)<\/title>/i.exec(content);
  if (!match) return null;
  return oneLine(decodeHtmlEntities((match[1] as string).replace(/<[^>]*>/g, ''))) || null;
}

function markdownHeading(content: string): string | null {
  const match = /^#\s+(.+)$/m.exec(content);
  return match ? oneLine(match[1] as string) : null;
}

export function factsOf(file: SiteFile): FileFacts {
  if (file.path.endsWith('.html')) {
    const modified = MODIFIED_TIME.exec(file.content);
    const card = FACT_CARD_HEAD.exec(file.content);
    return {
      path: file.path,
      heading: htmlHeading(file.content),
      ...(modified ? { modified: decodeHtmlEntities(modified[1] as string) } : {}),
      ...(card ? { summary: oneLine(decodeHtmlEntities(card[1] as string)) } : {}),
    };
  }
  const facts: FileFacts = { path: file.path, heading: markdownHeading(file.content) };
  if (file.path === SITE_PATHS.llmsTxt) facts.summary = /^>\s*(.+)$/m.exec(file.content)?.[1] ?? null;
  return facts;
}

/** Files or their facts, as facts. */
export function asFacts(items: ReadonlyArray<SiteFile | FileFacts>): FileFacts[] {
  return items.map((item) => ('content' in item ? factsOf(item) : item));
}
