/**
 * Issue item 3: prompts unique within a business, grammatical, product-specific, spread over
 * intents, never naming the brand or its product lines — with and without the model — on a
 * real-shaped 51-product yoga store and on the bundled 24-product demo store.
 */
import { createModelPromptGenerator } from '../../functions/adapters/external/model/prompt-model';
import { toCatalogProduct, type StorefrontProduct } from '../../functions/core/products/catalog';
import { buildOfflinePrompts } from '../../functions/core/prompts/offline-prompts';
import { detectProductLines, vendorIsBrand } from '../../functions/core/prompts/product-lines';
import { promptIdentity } from '../../functions/core/prompts/prompt-identity';
import { classifyIntent, figuresOf, validatePrompt, PROMPT_INTENTS } from '../../functions/core/prompts/prompt-quality';
import { filterPromptsDetailed, onboardingProductPromptCounts } from '../../functions/core/prompts/strategy';
import type { PromptSet } from '../../functions/core/prompts/types';
import type { StoreSnapshot } from '../../functions/core/site/types';
import { startDemoStore } from '../../functions/local/demo-store';
import type { Logger } from '../../functions/logger';
import { startFakeChat, type ChatRequest, type FakeChat } from './fake-chat';
import { harborStore } from './fixtures';
import { measurePrompts } from './prompt-metrics';
import { yogaStore, YOGA_NAME } from './yoga-store';

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, child: () => quiet };

function onboardingRequest(snapshot: StoreSnapshot) {
  const each = onboardingProductPromptCounts(snapshot.products.length);
  return { snapshot, business: { count: 50 }, products: snapshot.products.map((product) => ({ product, count: each })) };
}

function allPrompts(set: PromptSet): string[] {
  return [...set.business, ...Object.values(set.products).flat()];
}

/** The rules every onboarding set must meet. */
function expectClean(set: PromptSet, snapshot: StoreSnapshot, lines: string[], requireAllIntents = true): void {
  const all = allPrompts(set);
  const m = measurePrompts(all, snapshot.business.name, lines, set.intents ?? {}, snapshot.products.map((x) => x.name));
  expect(m.duplicates).toBe(0);
  expect(m.malformed).toEqual([]);
  expect(m.namingBrandOrLine).toEqual([]);
  expect(m.topFigure?.share ?? 0).toBeLessThanOrEqual(0.2);
  if (requireAllIntents) for (const intent of PROMPT_INTENTS) expect(m.intents[intent]).toBeGreaterThan(0);
}

describe('quality rules (pure)', () => {
  test('the validator rejects fragments, stutters, unbalanced marks and bad lengths', () => {
    expect(validatePrompt('What is the best yoga mat for hot yoga?')).toBeNull();
    expect(validatePrompt('Which yoga mat is best for … providing the sup?')).toBe('cut off');
    expect(validatePrompt('What is the best yoga mat for for added grip?')).toBe('doubled word');
    expect(validatePrompt('What is the best yoga mat for?')).toBe('cut off');
    expect(validatePrompt('Which mat is made of natural rubber and?')).toBe('cut off');
    expect(validatePrompt('Best mat (non-slip for hot yoga?')).toBe('unbalanced quotes or brackets');
    expect(validatePrompt('Which "eco mat is best?')).toBe('unbalanced quotes or brackets');
    expect(validatePrompt('Yoga mats?')).toBe('too few words');
    expect(validatePrompt(`What is ${'a very '.repeat(15)}good mat?`)).not.toBeNull();
    expect(validatePrompt('What are the best yoga mats yoga mats for beginners?')).toBe('repeated phrase');
    expect(validatePrompt('Where can I buy {{STORE}} mats?')).toBe('placeholder');
  });

  test('identity: case, punctuation, spacing, articles and plurals fold; figures stay distinct', () => {
    expect(promptIdentity('What are the best yoga mats?')).toBe(promptIdentity('what is the best yoga mat'));
    expect(promptIdentity('Where can I buy a non-slip mat online?')).toBe(promptIdentity('Where can I buy non slip mats, online!'));
    expect(promptIdentity('Best 1.5mm travel mat?')).not.toBe(promptIdentity('Best 15mm travel mat?'));
    expect(promptIdentity('Best mat under $50?')).not.toBe(promptIdentity('Best mat under $60?'));
  });

  test('figures and intents', () => {
    expect(figuresOf('Is a 6 mm mat better than a 4mm one under $100?').sort()).toEqual(['$100', '4mm', '6mm']);
    expect(classifyIntent('Is a cork yoga mat a good gift for a yogi?')).toBe('gift');
    expect(classifyIntent('What is the best yoga mat under $100?')).toBe('price');
    expect(classifyIntent('Is a cork yoga mat better than a rubber one?')).toBe('comparison');
    expect(classifyIntent('What is the best yoga mat for hot yoga?')).toBe('use-case');
    expect(classifyIntent('Where can I buy a cork yoga mat online?')).toBe('discovery');
  });

  test('the gate drops copies across calls and caps a repeated figure', () => {
    const res = filterPromptsDetailed(
      ['Best 6mm yoga mat for hot yoga?', 'Best 6mm yoga mat for beginners?', 'Best 6mm yoga mat for travel?', 'What are the best yoga mats?', 'What is the best yoga mat'],
      { businessName: YOGA_NAME, limit: 10, maxPerFigure: 2 },
    );
    expect(res.accepted).toEqual(['Best 6mm yoga mat for hot yoga?', 'Best 6mm yoga mat for beginners?', 'What are the best yoga mats?']);
    expect(res.rejected.map((r) => r.reason)).toEqual(['repeats a figure', 'duplicate']);
  });
});

describe('product lines from the catalogue', () => {
  test('the yoga store: its lines and its brand-like vendor, never category words', () => {
    const lines = detectProductLines(yogaStore().products, YOGA_NAME);
    expect(lines).toEqual(expect.arrayContaining(['SukhaGrip', 'Sukha PRO', 'PRO', 'Terra', 'Align', 'Sukha Yoga']));
    for (const generic of ['Yoga', 'Mat', 'Cork', 'Travel', 'Hot', 'Organic', 'Block', 'Midnight']) expect(lines.map((l) => l.toLowerCase())).not.toContain(generic.toLowerCase());
  });

  test('a Manduka-like catalogue: "PRO" and "eKO" lines, a brand-close line, vendor equal to the brand', () => {
    const p = (name: string, description: string, vendor = 'Manduka') => ({
      productId: name.toLowerCase().replace(/\W+/g, '-'), name, url: '', description, productType: 'Yoga Mats', vendor, tags: [],
      price: '100.00', compareAtPrice: null, currency: 'USD', available: true, imageUrls: [], updatedAt: null,
    });
    const products = [
      p('PRO Yoga Mat 6mm', 'The PRO is a dense mat for daily practice.'),
      p('PRO Travel Yoga Mat 2.5mm', 'A thin PRO for travel.'),
      p('PROlite Yoga Mat 4.7mm', 'The lighter PRO.'),
      p('PRO Squared Yoga Mat 6mm', 'A wider PRO.'),
      p('eKO Yoga Mat 5mm', 'Natural rubber. The eKO is biodegradable.'),
      p('eKO Lite Yoga Mat 4mm', 'A lighter eKO for travel.'),
      p('eKO SuperLite Travel Mat', 'The lightest eKO.'),
      p('GRP Adapt Hot Yoga Mat 5mm', 'For hot yoga.'),
      p('Mandukaflow Cork Block', 'A cork block.', 'Mandukaflow'),
      p('Cork Yoga Block', 'A cork block for support.', 'Other Brand'),
    ];
    const lines = detectProductLines(products, 'Manduka');
    expect(lines).toEqual(expect.arrayContaining(['PRO', 'eKO', 'Mandukaflow', 'Manduka']));
    expect(lines.map((l) => l.toLowerCase())).not.toEqual(expect.arrayContaining(['cork']));
    expect(vendorIsBrand('Manduka', 'Manduka')).toBe(true);
    expect(vendorIsBrand('Hario', 'Harbor & Pine')).toBe(false);
  });

  test('the coffee fixture has no false lines among its coffees and gear', () => {
    const lines = detectProductLines(harborStore().products, 'Harbor & Pine');
    for (const word of ['coffee', 'espresso', 'cold brew', 'grinder', 'pour over']) expect(lines.map((l) => l.toLowerCase())).not.toContain(word);
  });
});

describe('the yoga store (51 products, a line close to the brand, thickness in many titles)', () => {
  const snapshot = yogaStore();
  const lines = detectProductLines(snapshot.products, YOGA_NAME);

  test('offline onboarding: 0 copies, 0 malformed, no brand or line, all five intents, no figure over 20%, counts met', () => {
    const set = buildOfflinePrompts(onboardingRequest(snapshot));
    expectClean(set, snapshot, lines);
    expect(set.business).toHaveLength(50);
    expect(set.shortfall).toEqual({ business: 0, products: {} });
    const all = allPrompts(set);
    expect(all).toHaveLength(50 + 51 * 5);
    // Tagged by the engine, and spread: no intent under 10% of the set.
    expect(Object.keys(set.intents ?? {})).toHaveLength(all.length);
    const m = measurePrompts(all, YOGA_NAME, lines, set.intents);
    for (const intent of PROMPT_INTENTS) expect(m.intents[intent] / all.length).toBeGreaterThan(0.1);
    // Product-specific: the products' own selling points and materials appear.
    const text = all.join('\n').toLowerCase();
    for (const point of ['non-slip', 'sweat-wicking', 'cork', 'jute', 'latex-free', 'lightweight', 'hot yoga', 'buckwheat']) expect(text).toContain(point);
    // No template floods the set: the most common opening (first 5 words) stays under 12%.
    const openings = new Map<string, number>();
    for (const p of all) openings.set(p.split(' ').slice(0, 5).join(' '), (openings.get(p.split(' ').slice(0, 5).join(' ')) ?? 0) + 1);
    expect(Math.max(...openings.values()) / all.length).toBeLessThan(0.12);
  });

  test('regeneration against everything tracked gives only new prompts', () => {
    const first = buildOfflinePrompts(onboardingRequest(snapshot));
    const tracked = allPrompts(first);
    const again = buildOfflinePrompts({ ...onboardingRequest(snapshot), tracked });
    const seen = new Set(tracked.map(promptIdentity));
    for (const p of allPrompts(again)) expect(seen.has(promptIdentity(p))).toBe(false);
    expectClean(again, snapshot, lines, false);
  });

  describe('with the model (a fake OpenAI-compatible server writing the defects of the issue)', () => {
    let chat: FakeChat | null = null;
    afterEach(async () => { await chat?.close(); chat = null; });

    /** What a careless model writes: the same prompts for every product, "6mm" everywhere, fragments, line names. */
    function sloppy(req: ChatRequest) {
      if (req.kind === 'business') {
        const prompts = [
          ...Array.from({ length: 20 }, (_, i) => `What is the best 6mm yoga mat for practice number ${i + 1}?`),
          'Where can I buy SukhaGrip mats online?', 'Is the Sukha PRO worth it?', 'Best yoga mat for for added grip?',
          'Which yoga mat is designed for yogis providing the sup', 'What is the best cork yoga mat?', 'What is the best cork yoga mat?',
          'Is a jute yoga mat better than a PVC one?', 'What is a good gift for a yoga teacher?', 'What is the best yoga mat under $100?',
        ];
        return { content: JSON.stringify({ prompts }) };
      }
      const products: Record<string, string[]> = {};
      for (const m of req.user.matchAll(/^- id: ([^ |]+) \| count: (\d+)/gm)) {
        products[m[1]] = ['Where can I buy a 6mm yoga mat online?', 'What is the best 6mm yoga mat?', 'Is the SukhaGrip 6mm good?', 'What is the best yoga mat for hot yoga and?', `Which 6mm mat is best for ${m[1].replace(/-/g, ' ')}?`];
      }
      return { content: JSON.stringify({ products }) };
    }

    test('the same gate cleans the model output; the offline engine tops up to the counts', async () => {
      chat = await startFakeChat(sloppy);
      const gen = createModelPromptGenerator({ baseUrl: chat.baseUrl, apiKey: 'sk-test', model: 'test-model', log: quiet, retryBaseMs: 2, retryMaxMs: 10, timeoutMs: 5000, productsPerCall: 20 });
      const set = await gen.generate(onboardingRequest(snapshot));
      expectClean(set, snapshot, lines);
      expect(set.business).toHaveLength(50);
      expect(set.shortfall.business).toBe(0);
      const short = Object.values(set.shortfall.products).reduce((a, b) => a + b, 0);
      expect(short).toBeLessThanOrEqual(Math.ceil(51 * 5 * 0.05)); // reported honestly, and small
      for (const [id, n] of Object.entries(set.shortfall.products)) expect(set.products[id].length + n).toBe(5);
      // Nothing the model sent carries a product-line name or the brand.
      for (const r of chat.requests) expect(r.user).not.toMatch(/SukhaGrip|Sukha PRO|\bTerra\b|\bAlign\b/);
      expect(set.intents).toBeDefined();
      // Every product call was understood (ids intact), so the products part is the model's, topped up.
      expect(set.engine.name).toBe('model');
      expect(set.engine.fallbackReason ?? '').not.toMatch(/failed validation/);
    });
  });
});

describe('the shared Shopify fixture (test/fixtures/yoga-store-products.json, near-identical variants as products)', () => {
  test('offline onboarding: clean, and any shortfall reported per product', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const body = require('../fixtures/yoga-store-products.json') as { products: StorefrontProduct[] };
    const origin = 'https://lotusandstone.example';
    const products = body.products.map((p) => toCatalogProduct(p, origin, 'USD'));
    const snapshot: StoreSnapshot = { business: { name: 'Lotus & Stone', orgSlug: 'lotus-stone', url: origin, domain: 'lotusandstone.example' }, pages: [], collections: [], storeSitemapUrls: [], products };
    const lines = detectProductLines(products, 'Lotus & Stone');
    expect(lines.map((l) => l.toLowerCase())).not.toEqual(expect.arrayContaining(['canvas']));
    const request = onboardingRequest(snapshot);
    const set = buildOfflinePrompts(request);
    expectClean(set, snapshot, lines);
    for (const r of request.products) expect(set.products[r.product.productId].length + (set.shortfall.products[r.product.productId] ?? 0)).toBe(r.count);
    const all = allPrompts(set);
    expect(all.length).toBeGreaterThanOrEqual(0.97 * (50 + 5 * products.length));
    // Spread: comparison and gift hold a real share; use-case is as large as the descriptions'
    // stated uses allow (these near-identical mats state few), and nothing dominates.
    const m = measurePrompts(all, 'Lotus & Stone', lines, set.intents);
    expect(m.intents.comparison / all.length).toBeGreaterThanOrEqual(0.1);
    expect(m.intents.gift / all.length).toBeGreaterThanOrEqual(0.1);
    expect(m.intents['use-case'] / all.length).toBeGreaterThanOrEqual(0.05);
    for (const intent of PROMPT_INTENTS) expect(m.intents[intent] / all.length).toBeLessThanOrEqual(0.4);
  });
});

describe('the bundled demo store (24 products) stays green', () => {
  test('offline onboarding over its /products.json: clean, counts met', async () => {
    const store = await startDemoStore();
    try {
      const body = (await (await fetch(`${store.origin}/products.json?limit=250`)).json()) as { products: StorefrontProduct[] };
      const products = body.products.map((p) => toCatalogProduct(p, store.origin, 'USD'));
      expect(products).toHaveLength(24);
      const snapshot: StoreSnapshot = {
        business: { name: 'Harbor & Pine Coffee Co.', orgSlug: 'demo', url: store.origin, domain: '127.0.0.1' },
        pages: [], collections: [], storeSitemapUrls: [], products,
      };
      const lines = detectProductLines(products, snapshot.business.name);
      const set = buildOfflinePrompts(onboardingRequest(snapshot));
      expectClean(set, snapshot, lines);
      expect(set.business.length).toBeGreaterThanOrEqual(40);
      const short = Object.values(set.shortfall.products).reduce((a, b) => a + b, 0);
      expect(short).toBeLessThanOrEqual(2);
      // Spread over the intents: comparison, use-case and gift each hold a real share, none dominates.
      const all = allPrompts(set);
      const m = measurePrompts(all, snapshot.business.name, lines, set.intents, snapshot.products.map((x) => x.name));
      for (const intent of PROMPT_INTENTS) {
        expect(m.intents[intent] / all.length).toBeGreaterThanOrEqual(0.1);
        expect(m.intents[intent] / all.length).toBeLessThanOrEqual(0.4);
      }
    } finally {
      await store.close();
    }
  });
});
