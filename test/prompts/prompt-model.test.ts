import { createModelPromptGenerator, createPromptGenerator, type ModelPromptGeneratorOptions } from '../../functions/adapters/external/model/prompt-model';
import { buildOfflinePrompts } from '../../functions/core/prompts/offline-prompts';
import { containsBusinessName } from '../../functions/core/text/name-match';
import type { Logger } from '../../functions/logger';
import { harborStore, NAME } from './fixtures';
import { startFakeChat, type ChatReply, type ChatRequest, type FakeChat } from './fake-chat';

const API_KEY = 'sk-test-prompt-key-0987654321';

function quietLogger(lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = []): Logger {
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => { lines.push({ level, msg, fields }); };
  const log: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return log;
}

const CATEGORIES = ['single origin coffee', 'espresso beans', 'cold brew', 'pour-over kettles', 'burr grinders', 'decaf coffee', 'coffee gift sets', 'French presses', 'travel tumblers', 'paper filters', 'coffee scales'];
const FORMS = [(c: string) => `What are the best ${c} for beginners?`, (c: string) => `Where can I buy ${c} online?`, (c: string) => `Which ${c} are worth the money?`, (c: string) => `What ${c} do baristas recommend?`, (c: string) => `Which online shop has good ${c} under $50?`];
/** 55 distinct, valid shopper prompts. */
const MODEL_BUSINESS = CATEGORIES.flatMap((c) => FORMS.map((f) => f(c)));

function productPrompts(id: string, n: number): string[] {
  const words = id.replace(/-/g, ' ');
  return Array.from({ length: n }, (_, i) => `Which shop sells the best ${words} option number ${i + 1}?`);
}

function countsOf(user: string): Map<string, number> {
  return new Map([...user.matchAll(/^- id: ([^ |]+) \| count: (\d+)/gm)].map((m) => [m[1], Number(m[2])]));
}

function valid(req: ChatRequest): ChatReply {
  if (req.kind === 'business') return { content: JSON.stringify({ prompts: MODEL_BUSINESS }) };
  const products: Record<string, string[]> = {};
  for (const [id, n] of countsOf(req.user)) products[id] = productPrompts(id, n);
  return { content: JSON.stringify({ products }) };
}

let chat: FakeChat | null = null;
afterEach(async () => {
  await chat?.close();
  chat = null;
});

function generator(server: FakeChat, extra: Partial<ModelPromptGeneratorOptions> = {}, log = quietLogger()) {
  return createModelPromptGenerator({ baseUrl: server.baseUrl, apiKey: API_KEY, model: 'test-model', log, retryBaseMs: 2, retryMaxMs: 10, timeoutMs: 5000, ...extra });
}

const snapshot = harborStore();
const someProducts = snapshot.products.slice(0, 6).map((product) => ({ product, count: 9 }));

describe('model prompt generator against a local OpenAI-compatible server', () => {
  test('valid output is used: one business call, product calls in chunks, name never sent', async () => {
    chat = await startFakeChat(valid);
    const gen = generator(chat, { productsPerCall: 4 });
    const set = await gen.generate({ snapshot, business: { count: 50 }, products: someProducts });

    expect(set.engine).toEqual({ name: 'model', model: 'test-model' });
    expect(set.business).toEqual(MODEL_BUSINESS.slice(0, 50));
    expect(set.shortfall).toEqual({ business: 0, products: {} });
    for (const { product } of someProducts) expect(set.products[product.productId]).toEqual(productPrompts(product.productId, 9));

    expect(chat.requests.map((r) => r.kind).sort()).toEqual(['business', 'products', 'products']); // 6 products, 4 per call
    expect(chat.requests.flatMap((r) => r.ids).sort()).toEqual(someProducts.map((p) => p.product.productId).sort());
    for (const r of chat.requests) {
      expect(r.path).toBe('/v1/chat/completions');
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
      // The business name is never sent, in no variant ("Harbor&Pine" on the about page, "HarborPine Espresso").
      expect(containsBusinessName(r.user, NAME)).toBe(false);
      expect(r.raw).not.toMatch(/harbor|HarborPine/i);
      expect(JSON.parse(r.raw)).toMatchObject({ model: 'test-model', response_format: { type: 'json_object' } });
    }
    // Asked for a few more than needed, so filtering still leaves enough.
    expect(chat.requests.find((r) => r.kind === 'business')!.user).toMatch(/write 60 distinct prompts/);
    expect(gen.stats()).toMatchObject({ calls: 3, failures: 0, fallbacks: 0 });
  });

  test('output naming the business is filtered out; the offline generator tops up and says so', async () => {
    const naming = ['Is Harbor & Pine coffee any good?', 'harborpine espresso review?', 'Where can I buy Harbor and Pine beans?', 'What does Harbor&Pine Coffee sell?', 'Is harbor-pine legit?'];
    const good = MODEL_BUSINESS.slice(0, 20);
    chat = await startFakeChat((req) => {
      if (req.kind === 'business') return { content: JSON.stringify({ prompts: [...naming, ...good] }) };
      const products: Record<string, string[]> = {};
      for (const [id, n] of countsOf(req.user)) products[id] = ['Where can I buy HarborPine Espresso online?', 'Is Harbor & Pine House Blend good?', ...productPrompts(id, n)];
      return { content: JSON.stringify({ products }) };
    });
    const lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
    const set = await generator(chat, {}, quietLogger(lines)).generate({ snapshot, business: { count: 50 }, products: someProducts });

    for (const p of [...set.business, ...Object.values(set.products).flat()]) expect(containsBusinessName(p, NAME)).toBe(false);
    expect(set.business.slice(0, 20)).toEqual(good);
    expect(set.business).toHaveLength(50);
    expect(set.engine.name).toBe('model');
    expect(set.engine.fallbackReason).toMatch(/business: model gave 20 usable prompts of 50; 30 added by the offline generator/);
    for (const { product } of someProducts) expect(set.products[product.productId]).toEqual(productPrompts(product.productId, 9));
    expect(lines.some((l) => l.msg === 'model prompts naming the business were dropped' && l.fields?.dropped === 5)).toBe(true);
  });

  test('invalid output → retried, then the offline generator per part, with the reason', async () => {
    chat = await startFakeChat((req) => (req.kind === 'business' ? { content: 'Sure! Here are some prompts: ...' } : valid(req)));
    const gen = generator(chat);
    const set = await gen.generate({ snapshot, business: { count: 50 }, products: someProducts });
    const offline = buildOfflinePrompts({ snapshot, business: { count: 50 } });

    expect(chat.requests.filter((r) => r.kind === 'business')).toHaveLength(3); // 1 + 2 retries
    expect(set.business).toEqual(offline.business);
    expect(set.engine.name).toBe('model'); // the product part came from the model
    expect(set.engine.fallbackReason).toBe('business: model output is not a JSON object (after 3 attempts)');
    expect(gen.stats()).toMatchObject({ fallbacks: 1 });
  });

  test('everything invalid → engine offline, every part with its reason; schema errors name the field', async () => {
    chat = await startFakeChat((req) => ({ content: req.kind === 'business' ? JSON.stringify({ prompts: 'one long string' }) : JSON.stringify({ items: [] }) }));
    const set = await generator(chat, { maxRetries: 0 }).generate({ snapshot, business: { count: 10 }, products: someProducts.slice(0, 2) });
    expect(set.engine.name).toBe('offline');
    expect(set.engine.fallbackReason).toBe('business: model output failed validation: prompts expected array (after 1 attempt); products: model output failed validation: products expected record (after 1 attempt)');
    expect(set.business).toHaveLength(10);
    expect(set.products[someProducts[0].product.productId]).toHaveLength(9);
  });

  test('a transient 500 is retried and the valid answer used; 401 is not retried', async () => {
    let n = 0;
    chat = await startFakeChat((req) => (req.kind === 'business' && n++ === 0 ? { status: 500, body: '{"error":"busy"}' } : valid(req)));
    const ok = await generator(chat).generate({ snapshot, business: { count: 50 } });
    expect(ok.engine).toEqual({ name: 'model', model: 'test-model' });
    expect(chat.requests).toHaveLength(2);
    await chat.close();

    chat = await startFakeChat(() => ({ status: 401, body: `{"error":"bad key ${API_KEY}"}` }));
    const denied = await generator(chat).generate({ snapshot, business: { count: 5 } });
    expect(chat.requests).toHaveLength(1);
    expect(denied.engine.name).toBe('offline');
    expect(denied.engine.fallbackReason).toBe('business: HTTP 401 from the model API (credentials rejected; not retried)');
    expect(JSON.stringify(denied)).not.toContain(API_KEY);
  });

  test('a bare JSON array is tolerated; too-long and oversized lists are rejected', async () => {
    chat = await startFakeChat((req) => ({ content: req.kind === 'business' ? JSON.stringify(MODEL_BUSINESS.slice(0, 12)) : '{}' }));
    const set = await generator(chat).generate({ snapshot, business: { count: 10 } });
    expect(set.business).toEqual(MODEL_BUSINESS.slice(0, 10));
    await chat.close();

    chat = await startFakeChat(() => ({ content: JSON.stringify({ prompts: Array.from({ length: 201 }, (_, i) => `Which coffee is best number ${i}?`) }) }));
    const big = await generator(chat, { maxRetries: 0 }).generate({ snapshot, business: { count: 5 } });
    expect(big.engine.fallbackReason).toMatch(/prompts has too many items/);
  });

  test('createPromptGenerator: offline without LLM_BASE_URL, model with it', () => {
    expect(createPromptGenerator({}, { log: quietLogger() }).name).toBe('offline');
    expect(createPromptGenerator({ llmBaseUrl: '  ' }, { log: quietLogger() }).name).toBe('offline');
    expect(createPromptGenerator({ llmBaseUrl: 'http://127.0.0.1:1/v1' }, { log: quietLogger() }).name).toBe('model');
  });
});
