/**
 * Reading what the model answered: the JSON object inside the message content (```json
 * fences tolerated), validated with bounded schemas. Model output is untrusted: lengths
 * and counts are capped, product summaries are kept only for product ids that were asked
 * for, and the store-name placeholder is replaced by the name. Sentences that state a price
 * are dropped whatever the model was told (`withoutPrices`): prices go stale in prose, and
 * the structured offers carry them.
 */
import * as z from 'zod/mini';
import type { FaqEntry } from '../site/types';
import { restoreName } from './model-prompts';
import type { NarrativeOverview } from './types';
import { dedupeKey, statesPrice, withoutPrices } from './text';

export type Parsed<T> = { ok: true; value: T; notes?: string[] } | { ok: false; error: string };

const text = (min: number, max: number) =>
  z.string().check(z.trim(), z.minLength(min, 'too short'), z.maxLength(max, 'too long'));
const list = (item: ReturnType<typeof text>, max: number) => z.array(item).check(z.maxLength(max, 'has too many items'));

export const LIMITS = {
  summary: 600,
  description: 4000,
  industry: 80,
  audience: 300,
  category: 80,
  categories: 30,
  keyFact: 400,
  keyFacts: 20,
  question: 250,
  answer: 1200,
  faqs: 25,
  productSummary: 600,
} as const;

export const overviewSchema = z.object({
  summary: text(10, LIMITS.summary),
  description: text(20, LIMITS.description),
  industry: text(2, LIMITS.industry),
  audience: text(2, LIMITS.audience),
  categories: list(text(1, LIMITS.category), LIMITS.categories),
  keyFacts: list(text(3, LIMITS.keyFact), LIMITS.keyFacts),
});

export const faqsSchema = z.object({
  faqs: z.array(z.object({ question: text(5, LIMITS.question), answer: text(2, LIMITS.answer) })).check(z.minLength(1, 'is empty'), z.maxLength(LIMITS.faqs, 'has too many items')),
});

const productEnvelope = z.object({ productSummaries: z.record(z.string(), z.unknown()) });
const productValues = z.record(z.string(), text(10, LIMITS.productSummary));

/** "faqs[3].answer" from a zod issue path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || '(root)';
}

function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string; expected?: unknown }>, prefix = ''): string {
  const first = issues.slice(0, 3).map((i) => {
    const message = i.code === 'invalid_type' ? `expected ${String(i.expected)}` : i.message;
    return `${formatPath(prefix ? [prefix, ...i.path] : i.path)} ${message}`;
  });
  return first.join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : '');
}

/** The JSON object in a chat message: plain, in a ``` fence, or surrounded by prose. */
export function extractJson(content: string): Parsed<unknown> {
  const trimmed = content.trim();
  const fenced = /```(?:json|JSON)?\s*([\s\S]*?)\s*```/.exec(trimmed);
  const candidates = [trimmed, fenced?.[1] ?? ''];
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const value: unknown = JSON.parse(candidate);
      if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value };
    } catch {
      /* try the next candidate */
    }
  }
  return { ok: false, error: 'model output is not a JSON object' };
}

function uniqueStrings(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = dedupeKey(v);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function parseOverview(content: string, storeName: string): Parsed<NarrativeOverview> {
  const json = extractJson(content);
  if (!json.ok) return json;
  const r = overviewSchema.safeParse(json.value);
  if (!r.success) return { ok: false, error: `model output failed validation: ${describeIssues(r.error.issues)}` };
  const fix = (s: string) => restoreName(s, storeName);
  const summary = withoutPrices(fix(r.data.summary));
  const description = withoutPrices(fix(r.data.description));
  if (summary.length < 10 || description.length < 20) return { ok: false, error: 'model output failed validation: summary or description states little but prices' };
  return {
    ok: true,
    value: {
      summary,
      description,
      industry: fix(r.data.industry),
      audience: fix(r.data.audience),
      categories: uniqueStrings(r.data.categories.map(fix)).slice(0, 20),
      keyFacts: uniqueStrings(r.data.keyFacts.map(fix).filter((f) => !statesPrice(f))).slice(0, 12),
    },
  };
}

export function parseFaqs(content: string, storeName: string, max = 20): Parsed<FaqEntry[]> {
  const json = extractJson(content);
  if (!json.ok) return json;
  const r = faqsSchema.safeParse(json.value);
  if (!r.success) return { ok: false, error: `model output failed validation: ${describeIssues(r.error.issues)}` };
  const seen = new Set<string>();
  const faqs: FaqEntry[] = [];
  for (const f of r.data.faqs) {
    const question = restoreName(f.question, storeName);
    const key = dedupeKey(question);
    const answer = withoutPrices(restoreName(f.answer, storeName));
    // An answer that was only a price ("It costs $18.") is no answer once the price is gone.
    if (!key || seen.has(key) || answer.split(/\s+/).filter(Boolean).length < 2) continue;
    seen.add(key);
    faqs.push({ question, answer });
  }
  if (!faqs.length) return { ok: false, error: 'model output failed validation: every answer stated only prices' };
  return { ok: true, value: faqs.slice(0, max) };
}

/**
 * Product summaries for the ids asked for. Unknown keys are dropped (and reported in
 * `notes`); an answer with none of the ids is invalid.
 */
export function parseProductSummaries(content: string, storeName: string, knownIds: ReadonlySet<string>): Parsed<Record<string, string>> {
  const json = extractJson(content);
  if (!json.ok) return json;
  const envelope = productEnvelope.safeParse(json.value);
  if (!envelope.success) return { ok: false, error: `model output failed validation: ${describeIssues(envelope.error.issues)}` };
  const known: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [rawKey, value] of Object.entries(envelope.data.productSummaries)) {
    const key = knownIds.has(rawKey) ? rawKey : restoreName(rawKey, storeName);
    if (knownIds.has(key)) known[key] = value;
    else dropped.push(rawKey);
  }
  if (knownIds.size && !Object.keys(known).length) return { ok: false, error: 'model output failed validation: productSummaries has none of the requested product ids' };
  const r = productValues.safeParse(known);
  if (!r.success) return { ok: false, error: `model output failed validation: ${describeIssues(r.error.issues, 'productSummaries')}` };
  const value: Record<string, string> = {};
  for (const [id, summary] of Object.entries(r.data)) {
    // A summary left with nothing but its price is omitted: the engine writes that product's offline.
    const clean = withoutPrices(restoreName(summary, storeName));
    if (clean.length >= 10) value[id] = clean;
  }
  const notes = dropped.length ? [`dropped ${dropped.length} unknown product id(s): ${dropped.slice(0, 5).join(', ')}`] : undefined;
  return { ok: true, value, notes };
}
