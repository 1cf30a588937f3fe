/**
 * The store's own questions and answers, read from its page markdown. A question is a
 * heading, a bold line, a `<summary>` line or a "Q:" line ending in '?' (on FAQ pages
 * also a plain one-sentence paragraph ending in '?'); its answer is the text that follows
 * until the next question or heading. Pages other than FAQ pages count only when they
 * are structured as Q&A (at least two pairs).
 */
import type { FaqEntry, StoreSnapshot } from '../site/types';
import { orderedPages, pageRole } from './evidence';
import { dedupeKey, markdownBlocks, normalizeSpace, splitSentences, stripInlineMarkdown, truncateText, type MarkdownBlock } from './text';

export const MAX_QUESTION_CHARS = 200;
export const MAX_ANSWER_CHARS = 900;

interface QuestionHit {
  question: string;
  /** Answer text on the same line (`**Q?** answer`). */
  inlineAnswer?: string;
  /** Heading level, 0 when not a heading. */
  level: number;
}

function questionOf(block: MarkdownBlock, faqPage: boolean): QuestionHit | null {
  const ok = (q: string) => q.endsWith('?') && q.length >= 8 && q.length <= MAX_QUESTION_CHARS;
  if (block.kind === 'heading') return ok(block.text) ? { question: block.text, level: block.level } : null;
  const raw = block.raw.trim();
  const summary = /<summary[^>]*>([\s\S]*?)<\/summary>\s*([\s\S]*)$/i.exec(raw);
  if (summary) {
    const q = normalizeSpace(stripInlineMarkdown(summary[1]));
    const rest = normalizeSpace(stripInlineMarkdown(summary[2].replace(/<\/?details[^>]*>/gi, ' ')));
    if (ok(q)) return { question: q, inlineAnswer: rest || undefined, level: 0 };
  }
  const bold = /^(\*\*|__)(.+?)\1\s*(.*)$/s.exec(raw);
  if (bold) {
    const q = normalizeSpace(stripInlineMarkdown(bold[2])).replace(/^(?:Q|Question)\s*[:.)-]\s*/i, '');
    const rest = normalizeSpace(stripInlineMarkdown(bold[3])).replace(/^(?:A|Answer)\s*[:.)-]\s*/i, '');
    if (ok(q)) return { question: q, inlineAnswer: rest || undefined, level: 0 };
  }
  const prefixed = /^(?:Q|Question)\s*[:.)-]\s*(.+?\?)\s*(?:(?:A|Answer)\s*[:.)-]\s*(.*))?$/is.exec(block.text);
  if (prefixed && ok(prefixed[1])) return { question: prefixed[1], inlineAnswer: prefixed[2]?.trim() || undefined, level: 0 };
  if (faqPage && block.kind === 'paragraph' && ok(block.text) && splitSentences(block.text).length === 1) {
    return { question: block.text, level: 0 };
  }
  return null;
}

function cleanAnswer(text: string): string {
  const stripped = normalizeSpace(text.replace(/^(?:A|Answer)\s*[:.)-]\s*/i, ''));
  if (stripped.length <= MAX_ANSWER_CHARS) return stripped;
  // Keep whole sentences when possible.
  const kept: string[] = [];
  let length = 0;
  for (const sentence of splitSentences(stripped)) {
    if (length + sentence.length + 1 > MAX_ANSWER_CHARS) break;
    kept.push(sentence);
    length += sentence.length + 1;
  }
  return kept.length ? kept.join(' ') : truncateText(stripped, MAX_ANSWER_CHARS);
}

/** Q&A pairs of one page's markdown. */
export function extractFaqPairs(markdown: string, faqPage: boolean): FaqEntry[] {
  const blocks = markdownBlocks(markdown);
  const pairs: FaqEntry[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const hit = questionOf(blocks[i], faqPage);
    if (!hit) continue;
    const parts: string[] = hit.inlineAnswer ? [hit.inlineAnswer] : [];
    let j = i + 1;
    for (; j < blocks.length && parts.length < 4; j++) {
      const b = blocks[j];
      if (b.kind === 'heading') break;
      if (questionOf(b, faqPage)) break;
      parts.push(b.text);
    }
    const answer = cleanAnswer(parts.join(' '));
    if (answer.split(/\s+/).filter(Boolean).length >= 2) pairs.push({ question: hit.question, answer });
    i = j - 1;
  }
  return pairs;
}

/** The store's own Q&A, FAQ pages first, unique questions, at most `max`. */
export function extractStoreFaqs(snapshot: StoreSnapshot, max = 20): FaqEntry[] {
  const out: FaqEntry[] = [];
  const seen = new Set<string>();
  const pages = orderedPages(snapshot).filter((p) => pageRole(p) !== 'product' && pageRole(p) !== 'blog');
  const faqFirst = [...pages.filter((p) => pageRole(p) === 'faq'), ...pages.filter((p) => pageRole(p) !== 'faq')];
  for (const page of faqFirst) {
    const isFaq = pageRole(page) === 'faq';
    const pairs = extractFaqPairs(page.markdown, isFaq);
    if (!isFaq && pairs.length < 2) continue;
    for (const pair of pairs) {
      const key = dedupeKey(pair.question);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(pair);
      if (out.length >= max) return out;
    }
  }
  return out;
}
