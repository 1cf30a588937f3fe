/**
 * Prompt quality rules shared by both engines (offline and model): every candidate passes
 * `validatePrompt` in the strategy filter before it can be tracked. Pure: no I/O.
 *
 * A tracked prompt is a whole, grammatical shopper question: never a fragment cut to fit
 * a template ("…providing the sup?"), never a stutter ("for for added grip?").
 */

/** The buyer intents a business's prompt set spreads over. */
export const PROMPT_INTENTS = ['discovery', 'comparison', 'use-case', 'price', 'gift'] as const;
export type PromptIntent = (typeof PROMPT_INTENTS)[number];

export const PROMPT_MIN_WORDS = 4;
export const PROMPT_MAX_WORDS = 28;

/** Words a sentence cannot end on: a cut-off phrase ("… for the?", "… made of?"). */
const DANGLING = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'nor', 'of', 'for', 'to', 'with', 'without', 'in', 'on', 'at', 'by', 'from', 'into', 'onto',
  'about', 'than', 'as', 'like', 'that', 'which', 'who', 'whose', 'whom', 'my', 'your', 'our', 'their', 'his', 'her', 'its',
  'this', 'these', 'those', 'is', 'are', 'was', 'were', 'be', 'been', 'very', 'more', 'most', 'less', 'providing', 'including',
  'such', 'plus', 'via', 'per', 'while', 'when', 'if', 'because', 'so', 'up', 'both', 'either', 'neither', 'between', 'among', '&',
]);

/** Words that legitimately repeat back to back ("that that" is rare in a shopper prompt, so none). */
const REPEATABLE = new Set<string>([]);

export type QualityIssue =
  | 'too few words'
  | 'too many words'
  | 'cut off'
  | 'doubled word'
  | 'repeated phrase'
  | 'unbalanced quotes or brackets'
  | 'placeholder'
  | 'not plain text';

function balanced(text: string): boolean {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{', '”': '“', '»': '«' };
  const stack: string[] = [];
  for (const ch of text) {
    if ('([{“«'.includes(ch)) stack.push(ch);
    else if (ch in pairs) { if (stack.pop() !== pairs[ch]) return false; }
  }
  if (stack.length) return false;
  // Straight double quotes come in pairs; a single quote is usually an apostrophe.
  return (text.match(/"/g) ?? []).length % 2 === 0;
}

/**
 * Null when the prompt is a whole, well-formed shopper query; else what is wrong with it.
 * Rules: 4-28 words; no ellipsis or trailing dash (cut text); the last word is not a
 * function word ("for", "the", "and", "of", "providing", ...); no word written twice in a
 * row ("for for") and no two-word phrase repeated back to back; quotes and brackets
 * balanced; no template placeholder or markup left in.
 */
export function validatePrompt(prompt: string): QualityIssue | null {
  const text = prompt.trim();
  if (/\{\{|\}\}|\$\{|\[[A-Z_]+\]|<[a-z/][^>]*>|\b(undefined|null|NaN)\b/.test(text)) return 'placeholder';
  if (/[*`|\\]|\]\(/.test(text)) return 'not plain text';
  if (/\.\.\.|…|[-–—,;:/]\s*[?.!]*$/.test(text)) return 'cut off';
  const words = text.replace(/[?.!]+$/, '').split(/\s+/).filter(Boolean);
  if (words.length < PROMPT_MIN_WORDS) return 'too few words';
  if (words.length > PROMPT_MAX_WORDS) return 'too many words';
  const bare = words.map((w) => w.toLowerCase().replace(/^[^\p{L}\p{N}$€£&]+|[^\p{L}\p{N}%]+$/gu, ''));
  const last = bare[bare.length - 1];
  if (!last || DANGLING.has(last)) return 'cut off';
  // A bare article or "the" right before a closing mark mid-sentence: "... the, and ..." is cut text too.
  for (let i = 1; i < bare.length; i++) {
    if (bare[i] && bare[i] === bare[i - 1] && !REPEATABLE.has(bare[i]) && !/^\d/.test(bare[i])) return 'doubled word';
  }
  for (let i = 3; i < bare.length; i++) {
    if (bare[i - 3] === bare[i - 1] && bare[i - 2] === bare[i] && bare[i]) return 'repeated phrase';
  }
  if (!balanced(text)) return 'unbalanced quotes or brackets';
  return null;
}

const UNIT = '(?:mm|cm|m|in|inch|inches|ft|feet|foot|oz|lb|lbs|kg|g|ml|l|%|"|′|″|x)';

/**
 * The numeric figures a prompt states, normalised ("6 mm" = "6mm", "$100" = "$100"): the
 * strategy caps how many prompts of one business may repeat the same figure.
 */
export function figuresOf(prompt: string): string[] {
  const out = new Set<string>();
  const re = new RegExp(`([$€£¥]\\s?)?(\\d+(?:[.,]\\d+)?)(?:\\s?(${UNIT})(?![\\p{L}]))?`, 'giu');
  for (const m of prompt.matchAll(re)) {
    const unit = (m[3] ?? '').toLowerCase().replace(/^(inch|inches|″|")$/, 'in').replace(/^(feet|foot|′)$/, 'ft').replace(/^lbs$/, 'lb');
    out.add(`${(m[1] ?? '').trim()}${m[2].replace(',', '.')}${unit}`);
  }
  return [...out];
}

/**
 * The buyer intent a prompt expresses, for prompts an engine did not tag (model output):
 * gift, price, comparison, use-case, else discovery. A heuristic on the wording.
 */
export function classifyIntent(prompt: string): PromptIntent {
  const p = prompt.toLowerCase();
  if (/\bgifts?\b|\bpresent for\b|\bgifting\b/.test(p)) return 'gift';
  if (/\bunder [$€£¥]?\d|\bbudget\b|\bcheap(est)?\b|\baffordable\b|\bworth (it|the (money|price))\b|\bprice[ds]?\b|\bcost\b|\bvalue\b|\bless than [$€£¥]?\d/.test(p)) return 'price';
  if (/\bvs\.?\b|\bversus\b|\bor\b.*\?$|\bcompare[ds]?\b|\bcomparison\b|\bdifference between\b|\bbetter than\b|\balternatives? to\b/.test(p)) return 'comparison';
  if (/\bfor (?!sale\b)[\p{L}-]+|\bwhen\b|\bhelp(s)? with\b|\bto (stop|prevent|keep|avoid|fix|reduce)\b|\bwon'?t\b|\bhow (do|can|should) i\b/u.test(p)) return 'use-case';
  return 'discovery';
}
