/**
 * D36 on a whole narrative: every sentence a model wrote as a fact about the store (summary,
 * description, key facts, FAQ answers, product summaries) is checked against the store's own
 * content (core/generate/grounding.ts) and dropped when unsupported, before any file is
 * rendered from it, so no surface (llms.txt, data.json, AI home, Q&A, product pages) can
 * publish it. The fields a model fills (industry, audience, categories: D37) are checked too,
 * stricter than sentences since a label is short: every name, figure and material in it must
 * occur in the sources and so must every content word ("home cooks who follow the Zephyrine
 * Quillfeather method" fails on its names, "sourdough bakers" on "sourdough" where the store
 * never says it). A field that fails takes the offline engine's value; a category that fails
 * is dropped (the offline categories when none is left).
 *
 * - Text equal to the offline engine's (a part that fell back) is a quote of the store and is
 *   not re-checked.
 * - What is emptied falls back to the offline engine: the summary (the llms.txt blockquote is
 *   never empty), the description, a product's summary. An emptied key fact is removed; an
 *   FAQ whose answer is emptied is removed with its question.
 * - An answer sentence that only affirms ("Yes, on US orders over $45.") asserts its question
 *   too, so it is checked together with the question.
 *
 * Pure: the snapshot is the only source. The counts land in `engine.grounding`.
 */
import type { CatalogProduct, FaqEntry, SiteNarrative, StoreSnapshot } from '../site/types';
import { orderedPages, storeName } from './evidence';
import { checkSentence, groundingIndex, groundText, type GroundingIndex, type SentenceVerdict } from './grounding';
import { offlineOverview, productSummary } from './offline-engine';
import { markdownToText, splitSentences, truncateText } from './text';
import { productTypeCounts } from './catalog';

const MAX_EXAMPLES = 5;
/** An answer sentence that opens like this affirms its question. */
const AFFIRMS = /^(?:yes|yep|yeah|absolutely|certainly|of course|sure|indeed|definitely|correct|that's right)\b/i;

/** The store's own content, as plain texts: pages, products (every field a shopper sees), collections. */
function groundingSources(snapshot: StoreSnapshot): string[] {
  const out: string[] = [snapshot.business.domain];
  for (const page of orderedPages(snapshot)) out.push(page.title, page.description, markdownToText(page.markdown));
  for (const p of snapshot.products) out.push(...productSources(p));
  for (const c of snapshot.collections) out.push(c.title, markdownToText(c.description));
  // The catalogue in figures, as the model was shown it ("8 products", "4 Coffee").
  out.push(`${snapshot.products.length} products`, ...productTypeCounts(snapshot.products).map((t) => `${t.count} ${t.type}`));
  return out.filter((s) => s && s.trim());
}

function productSources(p: CatalogProduct): string[] {
  return [
    p.name, p.productType, p.vendor, ...p.tags, markdownToText(p.description), ...(p.optionNames ?? []),
    ...(p.variants ?? []).flatMap((v) => [...v.options, v.sku ?? '']),
  ];
}

export function groundNarrative(narrative: SiteNarrative, snapshot: StoreSnapshot, offline?: SiteNarrative): SiteNarrative {
  const index = groundingIndex(groundingSources(snapshot), { names: [storeName(snapshot)] });
  let checked = 0;
  const dropped: SentenceVerdict[] = [];
  const ground = (text: string): string => {
    const r = groundText(text, index);
    checked += r.kept.length + r.dropped.length;
    dropped.push(...r.dropped);
    return r.text;
  };
  let overview: ReturnType<typeof offlineOverview> | null = null;
  const offlineText = () => offline ?? (overview ??= offlineOverview(snapshot));

  let summary = narrative.summary;
  if (summary !== offline?.summary) summary = ground(summary) || offlineText().summary;

  let description = narrative.description;
  if (description !== offline?.description) {
    description = description.split(/\n{2,}/).map(ground).filter(Boolean).join('\n\n') || offlineText().description;
  }

  const offlineFacts = new Set(offline?.keyFacts ?? []);
  const keyFacts = narrative.keyFacts.map((f) => (offlineFacts.has(f) ? f : ground(f))).filter(Boolean);

  const offlineFaqs = new Set((offline?.faqs ?? []).map((f) => `${f.question}\n${f.answer}`));
  const faqs: FaqEntry[] = [];
  for (const f of narrative.faqs) {
    if (offlineFaqs.has(`${f.question}\n${f.answer}`)) { faqs.push(f); continue; }
    const answer = groundAnswer(f, index, (v) => { checked++; if (!v.supported) dropped.push(v); });
    if (answer) faqs.push({ question: f.question, answer });
  }

  const products = new Map(snapshot.products.map((p) => [p.productId, p]));
  const productSummaries: Record<string, string> = {};
  for (const [id, text] of Object.entries(narrative.productSummaries)) {
    const fromOffline = offline?.productSummaries[id];
    if (text === fromOffline) { productSummaries[id] = text; continue; }
    const product = products.get(id);
    const value = ground(text) || fromOffline || (product ? productSummary(product) : '');
    if (value) productSummaries[id] = value;
  }

  /** A field the model filled: every content word must be in the sources (D37); the offline engine's own value is not re-checked. */
  const supportedLabel = (value: string, offlineValues: readonly string[]): boolean => {
    if (!value.trim() || offlineValues.includes(value)) return true;
    const verdict = checkSentence(value, index, 1);
    checked++;
    if (!verdict.supported) dropped.push(verdict);
    return verdict.supported;
  };
  const { industry: offlineIndustry, audience: offlineAudience, categories: offlineCategories } = offlineText();
  const industry = supportedLabel(narrative.industry, [offlineIndustry]) ? narrative.industry : offlineIndustry;
  const audience = supportedLabel(narrative.audience, [offlineAudience]) ? narrative.audience : offlineAudience;
  const categories = narrative.categories.filter((c) => supportedLabel(c, offlineCategories));

  const examples = dropped.slice(0, MAX_EXAMPLES).map((v) => `${truncateText(v.sentence, 160)} (missing: ${v.missing.slice(0, 5).join(', ')})`);
  return {
    ...narrative,
    summary,
    description,
    industry,
    audience,
    categories: categories.length ? categories : offlineCategories,
    keyFacts,
    faqs,
    productSummaries,
    engine: { ...narrative.engine, grounding: { checked, dropped: dropped.length, examples } },
  };
}

/** The supported sentences of an answer; an affirming sentence is checked with its question. */
function groundAnswer(f: FaqEntry, index: GroundingIndex, record: (v: SentenceVerdict) => void): string {
  const kept: string[] = [];
  for (const sentence of splitSentences(f.answer)) {
    const verdict = AFFIRMS.test(sentence) ? { ...checkSentence(`${f.question} ${sentence}`, index), sentence } : checkSentence(sentence, index);
    record(verdict);
    if (verdict.supported) kept.push(sentence);
  }
  return kept.join(' ');
}
