/**
 * D36 end to end: a model (the real loopback fake) invents a claim about the store in every
 * part it writes; the claim is dropped from the narrative, so no published file carries it,
 * while the grounded sentences around it are published.
 */
import { createModelGenerator } from '../../functions/adapters/external/model/model-engine';
import { buildOfflineNarrative, createOfflineGenerator } from '../../functions/core/generate/offline-engine';
import { groundNarrative } from '../../functions/core/generate/ground-narrative';
import { buildSiteFiles, finalizeSite } from '../../functions/core/site/build';
import type { CatalogVariant, DeployMetadata, SiteFile, SiteNarrative } from '../../functions/core/site/types';
import type { Logger } from '../../functions/logger';
import { coffeeStore } from './fixtures';
import { productsInPrompt, startFakeLlm, validContent, type FakeLlm, type RecordedRequest } from './fake-llm';

const API_KEY = 'sk-test-secret-grounding-0987654321';
const CLAIM = '{{STORE}} roasts every bean on a solar-powered roaster in Reykjavik and offers a lifetime guarantee.';
/** Words of the invented claim: none may be published anywhere. */
const INVENTED = /reykjavik|solar-powered|lifetime guarantee|zephyrine|quillfeather/i;
const NOW = '2026-03-14T09:12:00.000Z';

interface Line { level: string; msg: string; fields?: Record<string, unknown> }
function captureLogger(lines: Line[] = []): Logger & { lines: Line[] } {
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => { lines.push({ level, msg, fields }); };
  const log: Logger & { lines: Line[] } = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return log;
}

/** A model that states the invented claim in the summary, the description, a key fact, FAQ answers and every product summary. */
function inventing(req: RecordedRequest): string {
  const user = req.body.messages?.find((m) => m.role === 'user')?.content ?? '';
  if (req.kind === 'overview') {
    return JSON.stringify({
      summary: CLAIM,
      description: `{{STORE}} is a small roastery and tea house.\n\n${CLAIM} It sells coffee, tea and brewing gear online.`,
      industry: 'specialty coffee and tea',
      // Fields are claims too (D37): an audience and a category the store never names.
      audience: 'home cooks who follow the Zephyrine Quillfeather method',
      categories: ['Coffee', 'Tea', 'Quillfeather Heirlooms'],
      keyFacts: [CLAIM, 'Free shipping on all US orders over $45.'],
    });
  }
  if (req.kind === 'faqs') {
    return JSON.stringify({
      faqs: [
        { question: 'How is {{STORE}} coffee roasted?', answer: `We roast every batch in Portland, Oregon and ship it within 48 hours of roasting. ${CLAIM}` },
        { question: 'Does {{STORE}} offer a lifetime guarantee?', answer: 'Yes, {{STORE}} offers a lifetime guarantee on every bag.' },
        { question: 'Does {{STORE}} roast in Reykjavik?', answer: 'Yes, it does.' },
        { question: 'Does {{STORE}} offer free shipping?', answer: 'Yes, on US orders over $45.' },
      ],
    });
  }
  if (req.kind === 'products') {
    const summaries: Record<string, string> = {};
    for (const p of productsInPrompt(user)) summaries[p.id] = `{{STORE}} sells ${p.name} (${p.type}). ${CLAIM}`;
    summaries['decaf-guatemala'] = CLAIM; // nothing grounded left: the offline summary takes its place
    return JSON.stringify({ productSummaries: summaries });
  }
  return validContent(req);
}

function metadata(): DeployMetadata {
  const s = coffeeStore();
  return { orgSlug: s.business.orgSlug, businessName: s.business.name, sourceUrl: s.business.url, publicOrigin: s.business.url, storeSitemapUrls: s.storeSitemapUrls, deployedAt: NOW };
}

let llm: FakeLlm | null = null;
afterEach(async () => {
  await llm?.close();
  llm = null;
});

describe('model text is grounded in the store before anything is published (D36)', () => {
  async function generate() {
    llm = await startFakeLlm({ respond: (r) => ({ content: inventing(r) }) });
    const log = captureLogger();
    const gen = createModelGenerator({ baseUrl: llm.baseUrl, apiKey: API_KEY, model: 'test-model', fallback: createOfflineGenerator(), log, retryBaseMs: 2, retryMaxMs: 10 });
    return { narrative: await gen.generateNarrative(coffeeStore()), log };
  }

  it('drops the invented claim from every part of the narrative and keeps the grounded sentences', async () => {
    const { narrative: n, log } = await generate();
    const offline = buildOfflineNarrative(coffeeStore());

    expect(JSON.stringify({ ...n, engine: null })).not.toMatch(INVENTED);
    // the summary said nothing else: the offline summary, never an empty blockquote
    expect(n.summary).toBe(offline.summary);
    expect(n.description).toBe('Ember & Leaf is a small roastery and tea house.\n\nIt sells coffee, tea and brewing gear online.');
    expect(n.keyFacts).toEqual(['Free shipping on all US orders over $45.']);
    // an answer left empty takes its question with it; a bare "yes" affirms its question, which is checked too
    expect(n.faqs).toEqual([
      { question: 'How is Ember & Leaf coffee roasted?', answer: 'We roast every batch in Portland, Oregon and ship it within 48 hours of roasting.' },
      { question: 'Does Ember & Leaf offer free shipping?', answer: 'Yes, on US orders over $45.' },
    ]);
    expect(n.productSummaries['colombia-huila']).toBe('Ember & Leaf sells Colombia Huila (Coffee).');
    expect(n.productSummaries['decaf-guatemala']).toBe(offline.productSummaries['decaf-guatemala']);
    // a field every word of which the store states is kept as the model wrote it; an invented one takes the offline value
    expect(n.industry).toBe('specialty coffee and tea');
    expect(n.audience).toBe(offline.audience);
    expect(n.categories).toEqual(['Coffee', 'Tea']);

    expect(n.engine.name).toBe('model');
    // summary, description, key fact, 3 answers, 8 product summaries, the audience and a category
    expect(n.engine.grounding).toMatchObject({ dropped: 16 });
    expect(n.engine.grounding!.checked).toBeGreaterThan(16);
    expect(n.engine.grounding!.examples).toHaveLength(5);
    expect(n.engine.grounding!.examples[0]).toContain('(missing: Reykjavik, lifetime guarantee');

    const warns = log.lines.filter((l) => l.level === 'warn');
    expect(warns).toHaveLength(1);
    expect(warns[0].fields).toMatchObject({ dropped: 16, model: 'test-model', orgSlug: 'ember-and-leaf' });
    expect(JSON.stringify(log.lines)).not.toContain(API_KEY);
  });

  it('publishes the claim on no surface: llms.txt, data.json, AI home, Q&A pages, product pages', async () => {
    const { narrative } = await generate();
    const files = finalizeSite(
      buildSiteFiles(coffeeStore(), narrative, { now: NOW, indexNowKey: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', trackingEndpoint: 'https://api.aivis.example/webhooks/ai' }),
      metadata(),
    );
    const file = (path: string) => files.find((f) => f.path === path) as SiteFile;
    const leaking = files.filter((f) => INVENTED.test(f.content)).map((f) => f.path);
    expect(leaking).toEqual([]);

    const llms = file('/llms.txt').content;
    expect(llms).toContain(`> ${buildOfflineNarrative(coffeeStore()).summary}`);
    expect(llms).toContain(buildOfflineNarrative(coffeeStore()).audience);
    expect(llms).toContain('Free shipping on all US orders over $45.');
    expect(file('/data.json').content).toContain('Ember & Leaf sells Colombia Huila (Coffee).');
    expect(file('/ai/index.html').content).toContain('<p>Small-batch specialty coffee and loose leaf tea, roasted and blended in Portland, Oregon.');
    const questions = files.filter((f) => /^\/ai\/[^/]+\/index\.html$/.test(f.path) && f.content.includes('How is Ember &amp; Leaf coffee roasted?'));
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.some((f) => f.content.includes('We roast every batch in Portland, Oregon and ship it within 48 hours of roasting.'))).toBe(true);
    expect(files.some((f) => f.content.includes('Does Ember &amp; Leaf offer a lifetime guarantee?'))).toBe(false);
    expect(file('/ai/products/colombia-huila/index.html').content).toContain('Ember &amp; Leaf sells Colombia Huila (Coffee).');
  });
});

describe('groundNarrative (pure)', () => {
  const variant = (options: string[], sku: string): CatalogVariant => ({ id: null, title: options.join(' / '), options, price: '17.00', compareAtPrice: null, available: true, sku, gtin: null });
  function storeWithVariants() {
    const s = coffeeStore();
    s.products = s.products.map((p) => (p.productId === 'colombia-huila'
      ? { ...p, optionNames: ['Size', 'Grind'], variants: [variant(['12 oz', 'Whole Bean'], 'EL-COL-12'), variant(['2 lb', 'Espresso'], 'EL-COL-32')] }
      : p));
    return s;
  }
  const modelNarrative = (over: Partial<SiteNarrative>): SiteNarrative => ({
    summary: 'Ember & Leaf roasts small-batch coffee in Portland.',
    description: 'Ember & Leaf is a small roastery and tea house.',
    industry: 'coffee', audience: 'home brewers', categories: ['Coffee'], keyFacts: [], faqs: [], productSummaries: {},
    engine: { name: 'model', model: 'm' },
    ...over,
  });

  it("checks a product summary against the product's own options and SKUs too", () => {
    const n = groundNarrative(modelNarrative({ productSummaries: {
      'colombia-huila': 'Colombia Huila comes in 12 oz and 2 lb bags, whole bean or ground for espresso (SKU EL-COL-12). It also comes in 5 lb bags.',
    } }), storeWithVariants());
    expect(n.productSummaries).toEqual({ 'colombia-huila': 'Colombia Huila comes in 12 oz and 2 lb bags, whole bean or ground for espresso (SKU EL-COL-12).' });
    expect(n.engine.grounding).toEqual({ checked: expect.any(Number), dropped: 1, examples: ['It also comes in 5 lb bags. (missing: 5 lb)'] });
  });

  it('does not re-check the parts that came from the offline engine', () => {
    const offline = buildOfflineNarrative(coffeeStore());
    const n = groundNarrative({ ...offline, engine: { name: 'model', model: 'm', fallbackReason: 'overview: timed out' } }, coffeeStore(), offline);
    expect(n).toEqual({ ...offline, engine: { name: 'model', model: 'm', fallbackReason: 'overview: timed out', grounding: { checked: 0, dropped: 0, examples: [] } } });
  });

  it('keeps a field the store states and replaces one it does not (industry, audience, categories)', () => {
    const offline = buildOfflineNarrative(coffeeStore());
    const n = groundNarrative(modelNarrative({ industry: 'Nordic coffee roasting', audience: 'home brewers', categories: ['Coffee', 'Sourdough starters'] }), coffeeStore(), offline);
    expect(n.industry).toBe(offline.industry);
    expect(n.audience).toBe('home brewers');
    expect(n.categories).toEqual(['Coffee']);
    expect(n.engine.grounding!.examples).toEqual(expect.arrayContaining([expect.stringContaining('Nordic coffee roasting (missing: Nordic'), expect.stringContaining('Sourdough starters (missing:')]));
  });

  it('falls back to the offline summary and description when nothing the model wrote is grounded', () => {
    const offline = buildOfflineNarrative(coffeeStore());
    const n = groundNarrative(modelNarrative({ summary: 'The finest coffee in Reykjavik.', description: 'Award-winning baristas since 1999.', keyFacts: ['Lifetime guarantee.'] }), coffeeStore());
    expect(n.summary).toBe(offline.summary);
    expect(n.description).toBe(offline.description);
    expect(n.keyFacts).toEqual([]);
  });
});
