/**
 * The model engine: an OpenAI-compatible chat-completions client that writes a narrative
 * with the spec's 3 parallel calls (daily schedule, batch 1a): (a) overview, (b) FAQs,
 * (c) product summaries (chunked for big catalogues, so (c) may be several calls).
 *
 * Each call is retried with exponential backoff and jitter on 429, 408, 5xx, network
 * errors, timeouts and invalid output; 401/403 (and other 4xx) are not retried. A part
 * that still fails falls back to the same part of the fallback (offline) engine, and
 * `engine.fallbackReason` says which part and why. The API key is sent only in the
 * Authorization header: it is never logged and never part of a reason.
 *
 * What the model wrote is then grounded (D36, core/generate/ground-narrative.ts): each
 * sentence not supported by the store's own content is dropped before anything is
 * published, and `engine.grounding` records how many.
 */
import type { CatalogProduct, FaqEntry, SiteNarrative, StoreSnapshot } from '../../../core/site/types';
import type { NarrativeOverview, SiteGenerator } from '../../../core/generate/types';
import {
  DEFAULT_PRODUCTS_PER_CALL,
  DEFAULT_PROMPT_BUDGET,
  faqMessages,
  overviewMessages,
  productChunks,
  productMessages,
} from '../../../core/generate/model-prompts';
import { storeName } from '../../../core/generate/evidence';
import { parseFaqs, parseOverview, parseProductSummaries } from '../../../core/generate/model-output';
import { groundNarrative } from '../../../core/generate/ground-narrative';
import { createChatClient, createGate, type ChatClientOptions, type FetchLike } from './chat-client';

export const DEFAULT_MODEL = 'gpt-4o-mini';

export type { FetchLike };

/** The chat client's options (base URL, key, model, timeouts, retries, jitter, temperature), plus: */
export interface ModelGeneratorOptions extends Omit<ChatClientOptions, 'maxConcurrency'> {
  fallback: SiteGenerator;
  /** Characters of store content per call. Default 12 000. */
  promptBudgetChars?: number;
  /** Products per product-summary call. Default 200. */
  productsPerCall?: number;
  /** Calls in flight at once for one narrative (at least 3, so (a), (b) and (c) run together). Default 4. */
  maxConcurrency?: number;
}

export interface ModelGeneratorStats {
  /** HTTP requests sent to the model API (attempts, retries included). */
  calls: number;
  /** Attempts that failed: HTTP error, network error, timeout or invalid output. */
  failures: number;
  /** Parts (or product chunks) that fell back to the offline engine. */
  fallbacks: number;
}

export interface ModelGenerator extends SiteGenerator {
  readonly name: 'model';
  readonly model: string;
  stats(): ModelGeneratorStats;
}

export function createModelGenerator(options: ModelGeneratorOptions): ModelGenerator {
  const {
    fallback,
    log,
    promptBudgetChars = DEFAULT_PROMPT_BUDGET,
    productsPerCall = DEFAULT_PRODUCTS_PER_CALL,
  } = options;
  const maxConcurrency = Math.max(3, options.maxConcurrency ?? 4);
  /** HTTP, retries, backoff and key scrubbing; its calls/failures are this engine's. */
  const client = createChatClient({ ...options, maxConcurrency });
  const { model, host } = client;
  let fallbacks = 0;

  async function generateNarrative(snapshot: StoreSnapshot): Promise<SiteNarrative> {
    const gate = createGate(maxConcurrency);
    const name = storeName(snapshot);
    const chunks = productChunks(snapshot.products, promptBudgetChars, productsPerCall);

    // (a), (b) and every (c) chunk start together; the gate (one per narrative) only bounds
    // very big catalogues.
    const overviewP = client.call('overview', overviewMessages(snapshot, promptBudgetChars), (c) => parseOverview(c, name), gate);
    const faqsP = client.call('faqs', faqMessages(snapshot, promptBudgetChars), (c) => parseFaqs(c, name), gate);
    const chunkPs = chunks.map((chunk, i) => {
      const ids = new Set(chunk.map((p) => p.productId));
      const label = chunks.length > 1 ? `productSummaries (chunk ${i + 1} of ${chunks.length})` : 'productSummaries';
      return client.call(label, productMessages(snapshot, chunk), (c) => parseProductSummaries(c, name, ids), gate).then((r) => ({ r, chunk, label }));
    });
    const [overview, faqs, chunkResults] = await Promise.all([overviewP, faqsP, Promise.all(chunkPs)]);

    let offline: Promise<SiteNarrative> | null = null;
    const offlineNarrative = () => (offline ??= fallback.generateNarrative(snapshot));
    const reasons: string[] = [];
    let modelParts = 0;
    const fellBack = (part: string, reason: string) => {
      fallbacks++;
      reasons.push(`${part}: ${reason}`);
      log.warn('model generation part fell back to the offline engine', { part, reason, model, host, orgSlug: snapshot.business.orgSlug });
    };

    let overviewValue: NarrativeOverview;
    if (overview.ok) {
      overviewValue = overview.value;
      modelParts++;
    } else {
      fellBack('overview', overview.error);
      const o = await offlineNarrative();
      overviewValue = { summary: o.summary, description: o.description, industry: o.industry, audience: o.audience, categories: o.categories, keyFacts: o.keyFacts };
    }

    let faqsValue: FaqEntry[];
    if (faqs.ok) {
      faqsValue = faqs.value;
      modelParts++;
    } else {
      fellBack('faqs', faqs.error);
      faqsValue = (await offlineNarrative()).faqs;
    }

    const productSummaries: Record<string, string> = {};
    let productsFromModel = false;
    const missing: CatalogProduct[] = [];
    for (const { r, chunk, label } of chunkResults) {
      if (!r.ok) {
        fellBack(label, r.error);
        missing.push(...chunk);
        continue;
      }
      productsFromModel = true;
      if (r.notes?.length) log.info('model product summaries adjusted', { part: label, notes: r.notes, model });
      Object.assign(productSummaries, r.value);
      const omitted = chunk.filter((p) => !(p.productId in r.value));
      if (omitted.length) {
        reasons.push(`${label}: model omitted ${omitted.length} of ${chunk.length} products; offline summaries used for them`);
        missing.push(...omitted);
      }
    }
    if (productsFromModel) modelParts++;
    if (missing.length) {
      const o = await offlineNarrative();
      for (const p of missing) {
        const summary = o.productSummaries[p.productId];
        if (summary !== undefined) productSummaries[p.productId] = summary;
      }
    }

    const fallbackReason = reasons.length ? reasons.join('; ') : undefined;
    const engine: SiteNarrative['engine'] = modelParts > 0
      ? { name: 'model', model, ...(fallbackReason ? { fallbackReason } : {}) }
      : { name: 'offline', ...(fallbackReason ? { fallbackReason } : {}) };
    const narrative: SiteNarrative = { ...overviewValue, faqs: faqsValue, productSummaries, engine };
    if (modelParts === 0) return narrative;
    // D36: model sentences the store's content does not support are dropped (offline parts are quotes, not re-checked).
    const grounded = groundNarrative(narrative, snapshot, offline ? await offline : undefined);
    const g = grounded.engine.grounding;
    if (g?.dropped) log.warn('model sentences not grounded in the store content were dropped', { ...g, model, host, orgSlug: snapshot.business.orgSlug });
    return grounded;
  }

  return {
    name: 'model',
    model,
    generateNarrative,
    stats: () => ({ ...client.stats(), fallbacks }),
  };
}
