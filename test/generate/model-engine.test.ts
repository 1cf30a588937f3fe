import { createModelGenerator, type ModelGeneratorOptions } from '../../functions/adapters/external/model/model-engine';
import { createGenerator } from '../../functions/adapters/external/model';
import { buildOfflineNarrative, createOfflineGenerator } from '../../functions/core/generate/offline-engine';
import type { Logger } from '../../functions/logger';
import { coffeeStore, PRODUCTS } from './fixtures';
import { startFakeLlm, validContent, idsInPrompt, type FakeLlm, type RecordedRequest, type Reply } from './fake-llm';

const API_KEY = 'sk-test-secret-key-1234567890';

interface Captured { level: string; msg: string; fields?: Record<string, unknown> }
function captureLogger(lines: Captured[] = []): Logger & { lines: Captured[] } {
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => { lines.push({ level, msg, fields }); };
  const log: Logger & { lines: Captured[] } = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return log;
}

let llm: FakeLlm | null = null;
afterEach(async () => {
  await llm?.close();
  llm = null;
});

function generator(server: FakeLlm, log: Logger, extra: Partial<ModelGeneratorOptions> = {}) {
  return createModelGenerator({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    model: 'test-model',
    fallback: createOfflineGenerator(),
    log,
    retryBaseMs: 2,
    retryMaxMs: 10,
    timeoutMs: 5000,
    ...extra,
  });
}

const userMessage = (r: RecordedRequest) => r.body.messages?.find((m) => m.role === 'user')?.content ?? '';
/** The engine of a model narrative whose every sentence is grounded in the store (D36). */
const grounded = (model: string) => ({ name: 'model', model, grounding: { checked: expect.any(Number), dropped: 0, examples: [] } });

describe('model generator against a local OpenAI-compatible server', () => {
  it('makes the 3 calls in parallel and builds the narrative from valid outputs', async () => {
    llm = await startFakeLlm({ holdUntil: 3 });
    const log = captureLogger();
    const gen = generator(llm, log);
    expect(gen.name).toBe('model');
    const n = await gen.generateNarrative(coffeeStore());

    // all three requests were in flight before the first answer
    expect(llm.requests).toHaveLength(3);
    expect(llm.pendingAtFirstAnswer).toBe(3);
    expect(llm.requests.map((r) => r.kind).sort()).toEqual(['faqs', 'overview', 'products']);
    for (const r of llm.requests) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/v1/chat/completions');
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(r.body).toMatchObject({ model: 'test-model', temperature: 0.2, response_format: { type: 'json_object' } });
      expect(r.body.messages?.map((m) => m.role)).toEqual(['system', 'user']);
      // spec, prompt strategy: the business name never appears in a prompt
      expect(r.raw).not.toContain('Ember & Leaf');
      expect(r.raw).not.toContain('Ember &amp; Leaf');
      expect(userMessage(r).length).toBeLessThan(14_000);
    }
    // the prompt carries store content only
    const overview = llm.requests.find((r) => r.kind === 'overview')!;
    expect(userMessage(overview)).toContain('We buy green coffee directly from farms in Ethiopia, Colombia and Guatemala.');
    // No prices or stock in what the model is shown (they would go stale in its prose): the offers carry them.
    expect(userMessage(overview)).not.toMatch(/Price range|USD \d|currently unavailable/);
    expect(idsInPrompt(userMessage(llm.requests.find((r) => r.kind === 'products')!))).toEqual(PRODUCTS.map((p) => p.productId));

    expect(n.engine).toEqual(grounded('test-model'));
    expect(n.summary).toBe('Ember & Leaf roasts small-batch specialty coffee and blends loose leaf tea in Portland.');
    expect(n.categories).toEqual(['Coffee', 'Tea', 'Brewing Gear']); // de-duplicated
    expect(n.faqs).toEqual([
      { question: 'What does Ember & Leaf sell?', answer: 'Ember & Leaf sells specialty coffee, loose leaf tea and brewing gear.' },
      { question: 'Does Ember & Leaf offer free shipping?', answer: 'Yes, on US orders over $45.' },
    ]);
    expect(n.productSummaries['colombia-huila']).toBe('Ember & Leaf sells Colombia Huila (Coffee).');
    expect(gen.stats()).toEqual({ calls: 3, failures: 0, fallbacks: 0 });
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('falls back to the offline FAQs when the faqs call returns invalid JSON on every attempt', async () => {
    llm = await startFakeLlm({ respond: (r) => (r.kind === 'faqs' ? { content: 'Sure! Here are some FAQs: Q1...' } : { content: validContent(r) }) });
    const log = captureLogger();
    const gen = generator(llm, log, { maxRetries: 2 });
    const n = await gen.generateNarrative(coffeeStore());
    const offline = buildOfflineNarrative(coffeeStore());

    expect(llm.countOf('faqs')).toBe(3); // 1 + maxRetries
    expect(llm.countOf('overview')).toBe(1);
    expect(n.faqs).toEqual(offline.faqs);
    expect(n.summary).toBe('Ember & Leaf roasts small-batch specialty coffee and blends loose leaf tea in Portland.'); // overview still from the model
    expect(n.engine.name).toBe('model');
    expect(n.engine.model).toBe('test-model');
    expect(n.engine.fallbackReason).toBe('faqs: model output is not a JSON object (after 3 attempts)');
    expect(gen.stats()).toEqual({ calls: 5, failures: 3, fallbacks: 1 });
    const warns = log.lines.filter((l) => l.level === 'warn');
    expect(warns).toHaveLength(1);
    expect(warns[0].fields).toMatchObject({ part: 'faqs', model: 'test-model' });
    expect(JSON.stringify(log.lines)).not.toContain(API_KEY);
  });

  it('names the failed field when the output does not validate, and retries it', async () => {
    const long = 'x'.repeat(1300);
    llm = await startFakeLlm({
      respond: (r) => r.kind === 'faqs'
        ? { content: JSON.stringify({ faqs: [0, 1, 2, 3].map((i) => ({ question: `Question number ${i}?`, answer: i === 3 ? long : 'A short answer.' })) }) }
        : { content: validContent(r) },
    });
    const gen = generator(llm, captureLogger(), { maxRetries: 1 });
    const n = await gen.generateNarrative(coffeeStore());
    expect(llm.countOf('faqs')).toBe(2);
    expect(n.engine.fallbackReason).toBe('faqs: model output failed validation: faqs[3].answer too long (after 2 attempts)');
  });

  it('tolerates ```json fences around the output', async () => {
    llm = await startFakeLlm({ respond: (r) => ({ content: `Here you go:\n\`\`\`json\n${validContent(r)}\n\`\`\`` }) });
    const n = await generator(llm, captureLogger()).generateNarrative(coffeeStore());
    expect(n.engine).toEqual(grounded('test-model'));
    expect(n.faqs).toHaveLength(2);
  });

  it('retries a 500 and then succeeds', async () => {
    llm = await startFakeLlm({
      respond: (r): Reply => (r.kind === 'overview' && r.attempt === 1 ? { status: 500, body: '{"error":{"message":"boom"}}' } : { content: validContent(r) }),
    });
    const gen = generator(llm, captureLogger());
    const n = await gen.generateNarrative(coffeeStore());
    expect(llm.countOf('overview')).toBe(2);
    expect(n.engine).toEqual(grounded('test-model'));
    expect(n.industry).toBe('specialty coffee and tea');
    expect(gen.stats()).toEqual({ calls: 4, failures: 1, fallbacks: 0 });
  });

  it('retries 429 (honouring a capped Retry-After) and dropped connections', async () => {
    llm = await startFakeLlm({
      respond: (r): Reply => {
        if (r.kind === 'faqs' && r.attempt === 1) return { status: 429, body: '{}', headers: { 'retry-after': '1' } };
        if (r.kind === 'products' && r.attempt === 1) return { destroy: true };
        return { content: validContent(r) };
      },
    });
    const gen = generator(llm, captureLogger());
    const n = await gen.generateNarrative(coffeeStore());
    expect(llm.countOf('faqs')).toBe(2);
    expect(llm.countOf('products')).toBe(2);
    expect(n.engine).toEqual(grounded('test-model'));
  });

  it('gives up after a timeout on every attempt and says so', async () => {
    llm = await startFakeLlm({ respond: (r): Reply => (r.kind === 'overview' ? { delayMs: 400, then: { content: validContent(r) } } : { content: validContent(r) }) });
    const gen = generator(llm, captureLogger(), { timeoutMs: 100, maxRetries: 1 });
    const n = await gen.generateNarrative(coffeeStore());
    const offline = buildOfflineNarrative(coffeeStore());
    expect(llm.countOf('overview')).toBe(2);
    expect(n.summary).toBe(offline.summary);
    expect(n.keyFacts).toEqual(offline.keyFacts);
    expect(n.engine.fallbackReason).toBe('overview: timed out after 100 ms (after 2 attempts)');
    expect(n.engine.name).toBe('model');
  });

  it('does not retry a 401: every part falls back to the offline engine with the reason', async () => {
    llm = await startFakeLlm({ respond: () => ({ status: 401, body: `{"error":{"message":"Incorrect API key provided: ${API_KEY}"}}` }) });
    const log = captureLogger();
    const gen = generator(llm, log, { maxRetries: 3 });
    const n = await gen.generateNarrative(coffeeStore());
    const offline = buildOfflineNarrative(coffeeStore());

    expect(llm.requests).toHaveLength(3); // one per part, no retries
    expect(gen.stats()).toEqual({ calls: 3, failures: 3, fallbacks: 3 });
    const { engine, ...rest } = n;
    const { engine: _offlineEngine, ...offlineRest } = offline;
    expect(rest).toEqual(offlineRest);
    expect(engine.name).toBe('offline');
    expect(engine.model).toBeUndefined();
    for (const part of ['overview', 'faqs', 'productSummaries']) {
      expect(engine.fallbackReason).toContain(`${part}: HTTP 401 from the model API (credentials rejected; not retried)`);
    }
    expect(engine.fallbackReason).not.toContain(API_KEY);
    expect(log.lines.filter((l) => l.level === 'warn')).toHaveLength(3);
    expect(JSON.stringify(log.lines)).not.toContain(API_KEY);
  });

  it('drops unknown product ids and fills omitted products from the offline engine', async () => {
    const ids = PRODUCTS.map((p) => p.productId);
    llm = await startFakeLlm({
      respond: (r): Reply => {
        if (r.kind !== 'products') return { content: validContent(r) };
        const summaries: Record<string, string> = { 'not-a-product': 'Invented product that does not exist.', '../../etc': 'Path-looking key, dropped.' };
        for (const p of PRODUCTS.slice(1)) summaries[p.productId] = `${p.name} is sold by {{STORE}}.`;
        return { content: JSON.stringify({ productSummaries: summaries }) };
      },
    });
    const log = captureLogger();
    const n = await generator(llm, log).generateNarrative(coffeeStore());
    const offline = buildOfflineNarrative(coffeeStore());
    expect(Object.keys(n.productSummaries).sort()).toEqual([...ids].sort());
    expect(n.productSummaries['not-a-product']).toBeUndefined();
    expect(n.productSummaries[ids[0]]).toBe(offline.productSummaries[ids[0]]);
    expect(n.productSummaries[ids[1]]).toBe(`${PRODUCTS[1].name} is sold by Ember & Leaf.`);
    expect(n.engine.name).toBe('model');
    expect(n.engine.fallbackReason).toBe('productSummaries: model omitted 1 of 8 products; offline summaries used for them');
    expect(log.lines.some((l) => l.msg === 'model product summaries adjusted')).toBe(true);
  });

  it('chunks big catalogues: (a) and (b) stay one call each, (c) is split', async () => {
    const products = Array.from({ length: 25 }, (_, i) => ({ ...PRODUCTS[i % 8], productId: `p-${i}`, name: `Product ${i}` }));
    llm = await startFakeLlm();
    const gen = generator(llm, captureLogger(), { productsPerCall: 10, maxConcurrency: 8 });
    const n = await gen.generateNarrative(coffeeStore({ products }));
    expect(llm.countOf('overview')).toBe(1);
    expect(llm.countOf('faqs')).toBe(1);
    const chunks = llm.requests.filter((r) => r.kind === 'products').map((r) => idsInPrompt(userMessage(r)).length);
    expect(chunks.sort()).toEqual([10, 10, 5]);
    expect(Object.keys(n.productSummaries)).toHaveLength(25);
    expect(n.engine).toEqual(grounded('test-model'));
  });

  it('a failed product chunk falls back alone and is named in the reason', async () => {
    const products = Array.from({ length: 6 }, (_, i) => ({ ...PRODUCTS[i], productId: `p-${i}` }));
    llm = await startFakeLlm({
      respond: (r): Reply => (r.kind === 'products' && idsInPrompt(userMessage(r)).includes('p-0') ? { status: 503, body: '{}' } : { content: validContent(r) }),
    });
    const n = await generator(llm, captureLogger(), { productsPerCall: 3, maxRetries: 1 }).generateNarrative(coffeeStore({ products }));
    expect(n.productSummaries['p-0']).toMatch(/^Ethiopia Yirgacheffe is a coffee/);
    expect(n.productSummaries['p-4']).toBe('Ember & Leaf sells Organic Sencha (Tea).');
    expect(n.engine.fallbackReason).toBe('productSummaries (chunk 1 of 2): HTTP 503 from the model API (after 2 attempts)');
  });

  it('makes no product call for an empty catalogue', async () => {
    llm = await startFakeLlm();
    const n = await generator(llm, captureLogger()).generateNarrative(coffeeStore({ products: [] }));
    expect(llm.requests.map((r) => r.kind).sort()).toEqual(['faqs', 'overview']);
    expect(n.productSummaries).toEqual({});
  });

  it('sends no Authorization header without an API key (local servers)', async () => {
    llm = await startFakeLlm();
    await generator(llm, captureLogger(), { apiKey: undefined }).generateNarrative(coffeeStore());
    expect(llm.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});

describe('createGenerator', () => {
  it('uses the offline engine when no model API is configured', () => {
    expect(createGenerator({}, { log: captureLogger() }).name).toBe('offline');
    expect(createGenerator({ llmBaseUrl: '  ' }, { log: captureLogger() }).name).toBe('offline');
  });

  it('uses the model engine (default model gpt-4o-mini) when LLM_BASE_URL is set', async () => {
    llm = await startFakeLlm();
    const gen = createGenerator({ llmBaseUrl: llm.baseUrl }, { log: captureLogger() });
    expect(gen.name).toBe('model');
    const n = await gen.generateNarrative(coffeeStore());
    expect(n.engine).toEqual(grounded('gpt-4o-mini'));
    expect(llm.requests.every((r) => r.body.model === 'gpt-4o-mini')).toBe(true);
  });

  it('falls back to the offline engine when the model API is unreachable', async () => {
    const gen = createGenerator(
      { llmBaseUrl: 'http://127.0.0.1:9/v1', llmApiKey: API_KEY, llmModel: 'm' },
      { log: captureLogger(), modelOptions: { maxRetries: 0 } },
    );
    const n = await gen.generateNarrative(coffeeStore());
    expect(n.engine.name).toBe('offline');
    expect(n.engine.fallbackReason).toMatch(/^overview: network error: /);
    expect(n.faqs).toEqual(buildOfflineNarrative(coffeeStore()).faqs);
  });
});
