/**
 * Store text (markdown from core/text/markdown.ts: product and collection descriptions) in the
 * forms the AI site writes: HTML blocks for pages, detail lines for llms files, one plain line
 * for notes and meta descriptions. Lists stay lists in every form but the one-line one.
 */
import { markdownBlocks, type MarkdownBlock } from '../generate/text';
import { escapeHtml, oneLine } from './html';

type Group = { kind: 'heading' | 'paragraph'; block: MarkdownBlock } | { kind: 'list'; items: MarkdownBlock[] };

function groups(markdown: string): Group[] {
  const out: Group[] = [];
  for (const block of markdownBlocks(markdown)) {
    const last = out[out.length - 1];
    if (block.kind === 'item') {
      if (last?.kind === 'list') last.items.push(block);
      else out.push({ kind: 'list', items: [block] });
    } else out.push({ kind: block.kind, block });
  }
  return out;
}

/** Escaped HTML: `<p>`, `<ul><li>`, and headings as `<h3>` (pages own their h1/h2). */
export function markdownHtml(markdown: string): string {
  return groups(markdown)
    .map((g) => {
      if (g.kind === 'list') return `<ul>\n${g.items.map((i) => `<li>${escapeHtml(i.text)}</li>`).join('\n')}\n</ul>`;
      if (g.kind === 'heading') return `<h3>${escapeHtml(g.block.text)}</h3>`;
      return `<p>${escapeHtml(g.block.text)}</p>`;
    })
    .join('\n');
}

/**
 * Blocks for an llms.txt detail section (which allows no headings): paragraphs, `- item` lists
 * (one block per list), headings as `**Heading**` lines. A leading `#` or `>` is escaped.
 */
export function markdownDetails(markdown: string): string[] {
  const safe = (text: string) => oneLine(text).replace(/^([#>])/, '\\$1');
  return groups(markdown).map((g) => {
    if (g.kind === 'list') return g.items.map((i) => `- ${oneLine(i.text)}`).join('\n');
    if (g.kind === 'heading') return `**${oneLine(g.block.text)}**`;
    return safe(g.block.text);
  });
}

/** One plain line (markup removed, list items joined with `; `): notes, summaries, meta. */
export function markdownPlain(markdown: string): string {
  return oneLine(
    groups(markdown)
      .map((g) => (g.kind === 'list' ? g.items.map((i) => i.text).join('; ') : g.block.text.replace(/[^.!?:;]$/, (c) => (g.kind === 'heading' ? `${c}:` : c))))
      .join(' '),
  );
}
