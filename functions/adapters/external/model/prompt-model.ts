/**
 * The model prompt generator: an OpenAI-compatible chat model writes the shopper prompts,
 * one call for the business prompts and one per chunk of products, in parallel.
 *
 * - Only store content is sent, with the business name replaced by a placeholder the
 *   model is told never to write; product names that carry the brand are left out. The
 *   name is never something to include.
 * - Answers are JSON objects validated with zod/mini; calls are retried (chat-client).
 * - Every model prompt goes through the same run-wide `PromptGate` as the offline engine's:
 *   the quality validator, no business name or product line in any variant, unique within
 *   the business by `promptIdentity` (a prompt fitting several products is kept once), no
 *   figure repeated across more than `figureCap` prompts. Product lines are also kept out
 *   of what is sent.
 * - Per part: invalid output (after retries) falls back to the offline generator; a valid
 *   answer with too few usable prompts is topped up from it. `engine.fallbackReason`
 *   says which part and why.
 */
import * as z from 'zod/mini';
import type { Logger } from '../../../logger';
import type { CatalogProduct, StoreSnapshot } from '../../../core/site/types';
import { formatPath, extractJson, type Parsed } from '../../../core/generate/model-output';
import { fitToBudget, hideName, STORE_PLACEHOLDER, type ChatMessage } from '../../../core/generate/model-prompts';
import { orderedPages, pageRole } from '../../../core/generate/evidence';
import { formatPriceRange, parsePrice, priceRange, productTypeCounts, formatMoney } from '../../../core/generate/catalog';
import { markdownToText, truncateText } from '../../../core/generate/text';
import { createOfflinePromptGenerator, nameIsNeutral, productExcludedNames, promptEvidence, type PromptEvidence } from '../../../core/prompts/offline-prompts';
import { classifyIntent, type PromptIntent } from '../../../core/prompts/prompt-quality';
import { figureCap, PromptGate } from '../../../core/prompts/strategy';
import { replaceBusinessName } from '../../../core/text/name-match';
import type { ProductPromptRequest, PromptEngineInfo, PromptGenerator, PromptRequest, PromptSet } from '../../../core/prompts/types';
import { createChatClient, type ChatClientOptions, type ChatClientStats } from './chat-client';
import { DEFAULT_MODEL, type FetchLike } from './model-engine';
import { chunkByBudget } from '../../../core/util/collections';

export interface ModelPromptGeneratorOptions extends Omit<ChatClientOptions, 'log'> {
  log: Logger;
  /** Per-part fallback and top-up. Default: the offline prompt generator. */
  fallback?: PromptGenerator;
  /** Products per call. Default 20. */
  productsPerCall?: number;
  /** Characters of store content per call. Default 8 000. */
  promptBudgetChars?: number;
}

export interface ModelPromptGenerator extends PromptGenerator {
  readonly name: 'model';
  readonly model: string;
  stats(): ChatClientStats & { fallbacks: number };
}

/** Model answers are capped before filtering: generous, but bounded. */
const MAX_ITEMS = 200;
const MAX_ITEM_CHARS = 500;

const promptList = z.array(z.string().check(z.maxLength(MAX_ITEM_CHARS, 'too long'))).check(z.maxLength(MAX_ITEMS, 'has too many items'));
export const businessOutputSchema = z.object({ prompts: promptList });
export const productOutputSchema = z.object({ products: z.record(z.string(), promptList) });

const SYSTEM_PROMPT = [
  'You write the questions shoppers type into AI assistants (chat assistants, AI search) when they look for products like the ones described.',
  `Each prompt is a natural question or search query a real shopper would ask WITHOUT knowing this store. Never name the store, its brand or its own branded products, and never write ${STORE_PLACEHOLDER}.`,
  'Base every prompt on the STORE CONTENT: its categories, product types, audience, prices and stated features. Never invent features the content does not state.',
  'Plain text only: no numbering, no markdown, no quotes, no URLs.',
  'Answer with exactly one JSON object in the requested shape and nothing else.',
].join('\n');

function issueText(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string; expected?: unknown }>): string {
  return issues.slice(0, 3).map((i) => `${formatPath(i.path)} ${i.code === 'invalid_type' ? `expected ${String(i.expected)}` : i.message}`).join('; ');
}

/** The JSON in a message: an object, or (tolerated) a bare array of prompts. */
function readJson(content: string): Parsed<unknown> {
  const object = extractJson(content);
  if (object.ok) return object;
  const trimmed = content.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  try {
    const value: unknown = JSON.parse(trimmed);
    if (Array.isArray(value)) return { ok: true, value: { prompts: value } };
  } catch { /* not JSON */ }
  return { ok: false, error: 'model output is not a JSON object' };
}

export function parseBusinessOutput(content: string): Parsed<string[]> {
  const json = readJson(content);
  if (!json.ok) return json;
  const r = businessOutputSchema.safeParse(json.value);
  if (!r.success) return { ok: false, error: `model output failed validation: ${issueText(r.error.issues)}` };
  if (!r.data.prompts.length) return { ok: false, error: 'model output failed validation: prompts is empty' };
  return { ok: true, value: r.data.prompts };
}

export function parseProductOutput(content: string, ids: ReadonlySet<string>): Parsed<Record<string, string[]>> {
  const json = readJson(content);
  if (!json.ok) return json;
  const r = productOutputSchema.safeParse(json.value);
  if (!r.success) return { ok: false, error: `model output failed validation: ${issueText(r.error.issues)}` };
  const value: Record<string, string[]> = {};
  for (const [id, list] of Object.entries(r.data.products)) if (ids.has(id)) value[id] = list;
  if (ids.size && !Object.keys(value).length) return { ok: false, error: 'model output failed validation: products has none of the requested product ids' };
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------

function evidenceBlock(snapshot: StoreSnapshot, ev: PromptEvidence, summary: string | null): string {
  const lines: string[] = [`Website: ${snapshot.business.url}`];
  if (summary) lines.push(`Summary: ${summary}`);
  if (ev.industry) lines.push(`Industry: ${ev.industry}`);
  if (ev.audiences.length) lines.push(`Audience: ${ev.audiences.join(', ')}`);
  if (ev.categories.length) lines.push(`Categories: ${ev.categories.map((c) => c.phrase).join(', ')}`);
  const types = productTypeCounts(snapshot.products);
  if (types.length) lines.push(`Product types: ${types.slice(0, 30).map((t) => `${t.type} (${t.count})`).join(', ')}`);
  const range = priceRange(snapshot.products);
  if (range) lines.push(`Price range: ${formatPriceRange(range)}`);
  if (ev.vendors.length) lines.push(`Other brands carried: ${ev.vendors.join(', ')}`);
  if (ev.services.length) lines.push(`Services: ${ev.services.join('; ')}`);
  if (ev.qualities.length) lines.push(`Stated qualities: ${ev.qualities.map((q) => (q.categories.length ? `${q.quality} (${q.categories.join(', ')})` : q.quality)).join('; ')}`);
  if (ev.places.length) lines.push(`Based in: ${ev.places.join(', ')}`);
  if (ev.shipsTo.length) lines.push(`Ships to: ${ev.shipsTo.join(', ')}`);
  if (ev.subscriptions) lines.push('Offers subscriptions');
  return lines.join('\n');
}

function pagesBlock(snapshot: StoreSnapshot, budget: number): string {
  const pages = orderedPages(snapshot).filter((p) => ['home', 'about', 'collection', 'page'].includes(pageRole(p))).slice(0, 12);
  const fitted = fitToBudget(pages.map((p) => markdownToText(p.markdown)), budget);
  return pages.map((p, i) => (fitted[i] ? `### ${p.title || p.url}\n${fitted[i]}` : '')).filter(Boolean).join('\n\n');
}

function finish(task: string, content: string, businessName: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    // Exact forms first (hideName), then every spacing/punctuation variant ("Harbor&Pine", "HarborPine").
    { role: 'user', content: replaceBusinessName(hideName(`${task}\n\nSTORE CONTENT:\n${content}`, businessName), businessName, STORE_PLACEHOLDER) },
  ];
}

/** Asked for a few more than needed: some are dropped by the filter. */
export function askFor(count: number): number {
  return Math.min(MAX_ITEMS, count + Math.max(3, Math.ceil(count * 0.2)));
}

export function businessMessages(snapshot: StoreSnapshot, ev: PromptEvidence, count: number, existing: string[], summary: string | null, budget: number): ChatMessage[] {
  const avoid = existing.slice(0, 60);
  const task = [
    `Task: write ${askFor(count)} distinct prompts shoppers would ask an AI assistant when looking for what this store sells.`,
    'Return JSON: {"prompts": string[]}',
    '- Each prompt 15 to 150 characters, a question ending with "?" (or a short search query).',
    '- Spread them over five intents: discovery (best-of, where to buy), comparison (X vs Y, which is better), use-case or problem ("for hot yoga", "for sensitive knees"), price ("under $30", worth it), gift.',
    '- Whole, grammatical questions: never cut a phrase short, never repeat a word, never repeat the same size or price figure in most prompts.',
    '- Spread the prompts over all the categories and product types.',
    avoid.length ? `- Do not repeat any of these existing prompts:\n${avoid.map((p) => `  * ${p}`).join('\n')}` : '',
  ].filter(Boolean).join('\n');
  const head = evidenceBlock(snapshot, ev, summary);
  const content = withoutLines(`${head}\n\n## Pages\n${pagesBlock(snapshot, Math.max(0, budget - head.length))}`, ev);
  return finish(task, content, ev.businessName);
}

/** The text with the store's product-line names left out (the model must not learn them). */
function withoutLines(text: string, ev: PromptEvidence): string {
  let out = text;
  for (const l of ev.productLines) out = replaceBusinessName(out, l, '');
  return out.replace(/\s{2,}/g, ' ').trim();
}

function productLine(p: CatalogProduct, count: number, businessName: string, ev: PromptEvidence): string {
  const price = parsePrice(p.price);
  const name = withoutLines(p.name, ev);
  const parts = [
    `id: ${p.productId}`,
    `count: ${askFor(count)}`,
    name && nameIsNeutral(p.name, businessName, ev.brandWords) ? `name: ${name}` : '',
    p.productType ? `type: ${p.productType}` : '',
    ev.vendors.includes(p.vendor.trim()) ? `brand: ${p.vendor.trim()}` : '',
    price !== null ? `price: ${formatMoney(price, p.currency)}` : '',
    p.tags.length ? `tags: ${p.tags.slice(0, 8).join(', ')}` : '',
    p.description.trim() ? `description: ${truncateText(withoutLines(p.description, ev), 240)}` : '',
  ];
  return `- ${parts.filter(Boolean).join(' | ')}`;
}

export function productMessages(snapshot: StoreSnapshot, ev: PromptEvidence, chunk: ProductPromptRequest[]): ChatMessage[] {
  const task = [
    'Task: write shopper prompts for each product below: questions a shopper would ask an AI assistant when looking for a product like it.',
    'Return JSON: {"products": {"<id>": string[]}} with exactly the ids listed, and for each id as many prompts as its "count".',
    '- Each prompt 15 to 150 characters, a question ending with "?" (or a short search query).',
    '- Use the product\'s own type, material, features and uses from its description; a size only when it sets the product apart; a product name only when it is listed. Never name a product line.',
    '- Every prompt must fit THIS product better than the others: no generic prompt that every product in the list would share.',
    '- Vary the intents: discovery, comparison, use-case/problem, price, gift.',
  ].join('\n');
  const head = evidenceBlock(snapshot, ev, null);
  const lines = chunk.map((r) => productLine(r.product, r.count, ev.businessName, ev));
  const avoid = chunk.flatMap((r) => (r.existing ?? []).slice(0, 10).map((e) => `  * ${r.product.productId}: ${e}`));
  return finish(`${task}${avoid.length ? `\n- Do not repeat these existing prompts:\n${avoid.join('\n')}` : ''}`, `${withoutLines(head, ev)}\n\n## Products\n${lines.join('\n')}`, ev.businessName);
}

export function productRequestChunks(requests: ProductPromptRequest[], perCall: number, budget: number): ProductPromptRequest[][] {
  return chunkByBudget(requests, (r) => 300 + Math.min(240, r.product.description.length), perCall, budget);
}

// ---------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------

export function createModelPromptGenerator(options: ModelPromptGeneratorOptions): ModelPromptGenerator {
  const { log, productsPerCall = 20, promptBudgetChars = 8000 } = options;
  const fallback = options.fallback ?? createOfflinePromptGenerator();
  const client = createChatClient(options);
  let fallbacks = 0;

  async function generate(request: PromptRequest): Promise<PromptSet> {
    const { snapshot, narrative } = request;
    const ev = promptEvidence(snapshot, narrative);
    const name = ev.businessName;
    const reasons: string[] = [];
    let modelParts = 0;
    const note = (part: string, reason: string, fellBack: boolean) => {
      reasons.push(`${part}: ${reason}`);
      if (fellBack) fallbacks++;
      log.warn('prompt generation part used the offline generator', { part, reason, model: client.model, host: client.host, orgSlug: snapshot.business.orgSlug });
    };

    const businessCount = request.business?.count ?? 0;
    const businessExisting = request.business?.existing ?? [];
    // One gate for the whole run (business and every product): the same rules as offline.
    const total = businessCount + (request.products ?? []).reduce((n, r) => n + Math.max(0, r.count), 0);
    const gate = new PromptGate({
      businessName: name,
      existing: [...(request.tracked ?? []), ...businessExisting, ...(request.products ?? []).flatMap((r) => r.existing ?? [])],
      excludeNames: ev.productLines,
      maxPerFigure: figureCap(total),
    });
    const intents: Record<string, PromptIntent> = {};
    const tag = (list: string[]) => { for (const p of list) intents[p] ??= classifyIntent(p); return list; };
    const productRequests = (request.products ?? []).filter((r) => r.count > 0);
    const chunks = productRequestChunks(productRequests, productsPerCall, promptBudgetChars);

    const businessP = businessCount > 0
      ? client.call('business', businessMessages(snapshot, ev, businessCount, businessExisting, narrative?.summary ?? null, promptBudgetChars), parseBusinessOutput)
      : Promise.resolve(null);
    const chunkPs = chunks.map((chunk, i) => {
      const ids = new Set(chunk.map((r) => r.product.productId));
      const label = chunks.length > 1 ? `products (chunk ${i + 1} of ${chunks.length})` : 'products';
      return client.call(label, productMessages(snapshot, ev, chunk), (c) => parseProductOutput(c, ids)).then((r) => ({ r, chunk, label }));
    });
    const [businessResult, chunkResults] = await Promise.all([businessP, Promise.all(chunkPs)]);

    // Business prompts: the model's, filtered; the fallback's when invalid or too few.
    let business: string[] = [];
    if (businessResult) {
      if (businessResult.ok) {
        const filtered = gate.take(businessResult.value, businessCount);
        business = tag(filtered.accepted);
        const named = filtered.rejected.filter((x) => x.reason === 'names the business').length;
        if (named) log.info('model prompts naming the business were dropped', { part: 'business', dropped: named });
        if (business.length) modelParts++;
      } else {
        note('business', businessResult.error, true);
      }
      if (business.length < businessCount) {
        const moreSet = await fallback.generate({ snapshot, narrative, tracked: request.tracked, business: { count: businessCount - business.length, existing: [...businessExisting, ...business] } });
        const more = gate.take(moreSet.business, businessCount - business.length).accepted;
        for (const p of more) intents[p] = moreSet.intents?.[p] ?? classifyIntent(p);
        if (businessResult.ok) note('business', `model gave ${business.length} usable prompts of ${businessCount}; ${more.length} added by the offline generator`, business.length === 0);
        business = [...business, ...more];
      }
    }

    // Product prompts, per chunk: the model's, filtered per product; the fallback tops up.
    const products: Record<string, string[]> = {};
    const topUps: ProductPromptRequest[] = [];
    for (const { r, chunk, label } of chunkResults) {
      if (r.ok) modelParts++;
      else note(label, r.error, true);
      let short = 0;
      for (const req of chunk) {
        const id = req.product.productId;
        const list = r.ok
          ? tag(gate.take(r.value[id] ?? [], req.count, productExcludedNames(req.product, name, ev.brandWords), sayableName(req.product, name, ev)).accepted)
          : [];
        products[id] = list;
        if (list.length < req.count) {
          short++;
          topUps.push({ ...req, count: req.count - list.length, existing: [...(req.existing ?? []), ...list] });
        }
      }
      if (r.ok && short) note(label, `model gave too few usable prompts for ${short} of ${chunk.length} products; the offline generator added the rest`, false);
    }
    if (topUps.length) {
      // The fallback sees everything accepted so far as tracked, so it writes other prompts.
      const accepted = [...business, ...Object.values(products).flat()];
      const more = await fallback.generate({ snapshot, narrative, tracked: [...(request.tracked ?? []), ...accepted], products: topUps });
      for (const req of topUps) {
        // A prompt may say the product's own full name (D213), as the offline engine's do.
        const extra = gate.take(more.products[req.product.productId] ?? [], req.count, productExcludedNames(req.product, name, ev.brandWords), sayableName(req.product, name, ev)).accepted;
        for (const p of extra) intents[p] = more.intents?.[p] ?? classifyIntent(p);
        products[req.product.productId] = [...products[req.product.productId], ...extra];
      }
    }
    for (const req of request.products ?? []) products[req.product.productId] ??= [];

    const shortfallProducts: Record<string, number> = {};
    for (const req of request.products ?? []) {
      const got = products[req.product.productId].length;
      if (got < req.count) shortfallProducts[req.product.productId] = req.count - got;
    }
    const fallbackReason = reasons.length ? reasons.join('; ') : undefined;
    const engine: PromptEngineInfo = modelParts > 0
      ? { name: 'model', model: client.model, ...(fallbackReason ? { fallbackReason } : {}) }
      : { name: 'offline', ...(fallbackReason ? { fallbackReason } : {}) };
    return {
      business,
      products,
      shortfall: { business: Math.max(0, businessCount - business.length), products: shortfallProducts },
      engine,
      intents,
    };
  }

  return {
    name: 'model',
    model: client.model,
    generate,
    stats: () => ({ ...client.stats(), fallbacks }),
  };
}

export interface PromptGeneratorSettings {
  llmBaseUrl?: string;
  llmApiKey?: string;
  llmModel?: string;
}

export interface PromptGeneratorDeps {
  log: Logger;
  fetchImpl?: FetchLike;
  modelOptions?: Partial<Omit<ModelPromptGeneratorOptions, 'baseUrl' | 'apiKey' | 'model' | 'log' | 'fetchImpl'>>;
}

/** The product's full name when a prompt may say it (D213): never a name that carries the brand. */
function sayableName(product: ProductPromptRequest['product'], businessName: string, ev: PromptEvidence): string[] {
  return nameIsNeutral(product.name, businessName, ev.brandWords) ? [product.name] : [];
}

/** The model generator when a model API is configured (LLM_BASE_URL), else the offline one. */
export function createPromptGenerator(settings: PromptGeneratorSettings, deps: PromptGeneratorDeps): PromptGenerator {
  const baseUrl = settings.llmBaseUrl?.trim();
  if (!baseUrl) return createOfflinePromptGenerator();
  return createModelPromptGenerator({
    ...deps.modelOptions,
    baseUrl,
    apiKey: settings.llmApiKey?.trim() || undefined,
    model: settings.llmModel?.trim() || DEFAULT_MODEL,
    log: deps.log,
    fetchImpl: deps.fetchImpl,
  });
}
