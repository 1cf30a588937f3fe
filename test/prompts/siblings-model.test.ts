/**
 * Issue 22 point 2 with a MODEL prompt engine: numbered siblings ("Tidal Camp Mug 3", "… 4")
 * in the 75-product outdoor store. A real model often writes the same generic prompts for
 * every sibling (it sees "Camp Mug 3" and "Camp Mug 4" as one kind of thing), and the
 * business-wide identity dedupe (D33) keeps each of them once, for the first sibling. Every
 * product still gets its 5: the model generator tops the short ones up from the offline
 * engine, which writes from what tells siblings apart. Also when the model writes fewer than
 * asked or leaves a product out, and through onboarding 3a on the local stack.
 */
import { randomUUID } from 'node:crypto';
import { createModelPromptGenerator } from '../../functions/adapters/external/model/prompt-model';
import { generateOnboardingPrompts } from '../../functions/app/prompts/generate';
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { createOfflinePromptGenerator } from '../../functions/core/prompts/offline-prompts';
import { promptIdentity } from '../../functions/core/prompts/prompt-identity';
import { figuresOf, validatePrompt } from '../../functions/core/prompts/prompt-quality';
import { figureCap } from '../../functions/core/prompts/strategy';
import type { PromptGenerator, PromptSet } from '../../functions/core/prompts/types';
import type { CatalogProduct, StoreSnapshot } from '../../functions/core/site/types';
import { containsBusinessName } from '../../functions/core/text/name-match';
import type { Logger } from '../../functions/logger';
import { startTestStack, type TestStack } from '../support/stack';
import { startFakeChat, type ChatReply, type ChatRequest, type FakeChat } from './fake-chat';
import { outdoorStore, OUTDOOR_NAME } from './outdoor-store';

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, child: () => quiet };

function countsOf(user: string): Map<string, number> {
  return new Map([...user.matchAll(/^- id: ([^ |]+) \| count: (\d+)/gm)].map((m) => [m[1], Number(m[2])]));
}

/** What a model writes for a kind of product, whichever sibling it is asked about. */
function genericPrompts(kind: string, suffix = ''): string[] {
  const k = kind.toLowerCase();
  return [
    `What are the best ${k} for camping${suffix}?`,
    `Where can I buy good ${k} online${suffix}?`,
    `Which ${k} are worth the money${suffix}?`,
    `What ${k} do experienced hikers recommend${suffix}?`,
    `Which ${k} make a good gift for a hiker${suffix}?`,
    `How do I choose ${k} for a backpacking trip${suffix}?`,
    `Are expensive ${k} really worth it${suffix}?`,
    `Which ${k} last the longest on the trail${suffix}?`,
    `What should I look for when buying ${k}${suffix}?`,
    `Which ${k} are best for a first camping trip${suffix}?`,
  ];
}

const BUSINESS = ['tents', 'sleeping bags', 'headlamps', 'daypacks', 'rain jackets', 'trekking poles', 'camp stoves', 'water filters', 'hiking socks', 'camp chairs']
  .flatMap((k) => genericPrompts(`outdoor ${k}`).slice(0, 6));

/** A product's answer from the fake model; undefined leaves its id out. */
type Shape = (product: CatalogProduct, n: number, index: number) => string[] | undefined;

/** Realistic: the same generic prompts for every product of one type, siblings included. */
const generic: Shape = (p, n) => genericPrompts(p.productType).slice(0, n);
/** Generic, only 2 prompts for every third product, and every seventh left out. */
const stingy: Shape = (p, n, i) => (i % 7 === 3 ? undefined : genericPrompts(p.productType).slice(0, i % 3 === 0 ? 2 : n));
/** Generic, every prompt stating one price: the figure cap keeps most of them out. */
const onePrice: Shape = (p, n) => genericPrompts(p.productType, ' under $50').slice(0, n);

function fakeModel(snapshot: StoreSnapshot, shape: Shape): (req: ChatRequest) => ChatReply {
  const byId = new Map(snapshot.products.map((p, i) => [p.productId, { p, i }]));
  return (req) => {
    if (req.kind === 'business') return { content: JSON.stringify({ prompts: BUSINESS }) };
    const products: Record<string, string[]> = {};
    for (const [id, n] of countsOf(req.user)) {
      const { p, i } = byId.get(id)!;
      const list = shape(p, n, i);
      if (list) products[id] = list;
    }
    return { content: JSON.stringify({ products }) };
  };
}

/** The offline engine, recording how many prompts it was asked to top up per product. */
function recordingOffline(toppedUp: Record<string, number>): PromptGenerator {
  const offline = createOfflinePromptGenerator();
  return {
    name: 'offline',
    generate: (request) => {
      for (const r of request.products ?? []) toppedUp[r.product.productId] = r.count;
      return offline.generate(request);
    },
  };
}

let chat: FakeChat | null = null;
afterEach(async () => {
  await chat?.close();
  chat = null;
});

async function modelGenerator(snapshot: StoreSnapshot, shape: Shape, toppedUp: Record<string, number> = {}): Promise<PromptGenerator> {
  chat = await startFakeChat(fakeModel(snapshot, shape));
  return createModelPromptGenerator({ baseUrl: chat.baseUrl, apiKey: 'sk-test', model: 'test-model', log: quiet, retryBaseMs: 2, retryMaxMs: 10, timeoutMs: 5000, fallback: recordingOffline(toppedUp) });
}

/** Onboarding 3a's request: 50 business prompts, 5 per product. */
function onboardingRequest(snapshot: StoreSnapshot) {
  return { snapshot, business: { count: 50 }, products: snapshot.products.map((product) => ({ product, count: 5 })) };
}

function allPrompts(set: PromptSet): string[] {
  return [...set.business, ...Object.values(set.products).flat()];
}

function expectClean(prompts: string[]): void {
  expect(new Set(prompts.map(promptIdentity)).size).toBe(prompts.length);
  for (const p of prompts) {
    expect(validatePrompt(p)).toBeNull();
    expect(containsBusinessName(p, OUTDOOR_NAME)).toBe(false);
  }
}

const LATER_SIBLINGS = ['meadow-headlamp-3', 'meadow-headlamp-4', 'meadow-headlamp-5', 'tidal-camp-mug-3', 'tidal-camp-mug-4'];

describe('model engine, 75-product outdoor store with numbered siblings', () => {
  const snapshot = outdoorStore();

  for (const [label, shape, short] of [['generic prompts for siblings', generic, 46], ['generic, fewer than asked, some ids left out', stingy, 50]] as Array<[string, Shape, number]>) {
    test(`${label}: the model leaves ${short} products short, the offline top-up gives every product its 5`, async () => {
      const toppedUp: Record<string, number> = {};
      const set = await (await modelGenerator(snapshot, shape, toppedUp)).generate(onboardingRequest(snapshot));

      // The model's own prompts, deduped business-wide, leave later siblings short.
      expect(Object.keys(toppedUp)).toHaveLength(short);
      for (const id of LATER_SIBLINGS) expect(toppedUp[id]).toBeGreaterThanOrEqual(3);

      for (const p of snapshot.products) expect(set.products[p.productId]).toHaveLength(5);
      expect(set.shortfall.products).toEqual({});
      expect(set.business).toHaveLength(50);
      expect(set.engine).toMatchObject({ name: 'model', fallbackReason: expect.stringMatching(/model gave too few usable prompts/) });
      expectClean(allPrompts(set));
    });
  }

  // A product whose remaining candidates all state the capped figure may end short (today
  // meadow-headlamp-3, $49: its price prompts say "$50"); never silently.
  test('a model stating one price in every prompt: the figure cap holds, and any product left short is reported', async () => {
    const set = await (await modelGenerator(snapshot, onePrice)).generate(onboardingRequest(snapshot));
    const all = allPrompts(set);
    expect(all.filter((p) => figuresOf(p).includes('$50')).length).toBeLessThanOrEqual(figureCap(50 + 75 * 5));
    for (const p of snapshot.products) expect(set.products[p.productId].length + (set.shortfall.products[p.productId] ?? 0)).toBe(5);
    expectClean(all);
  });
});

describe('onboarding 3a on the local stack with the model engine', () => {
  let stack: TestStack;
  beforeAll(async () => { stack = await startTestStack({ LOG_LEVEL: 'warn' }); });
  afterAll(() => stack.close());

  test('generic sibling prompts from the model: 75 products × 5 saved, none short, all unique', async () => {
    const s = outdoorStore();
    const org = 'ridgeline-model-siblings';
    const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: OUTDOOR_NAME, url: 'ridgeline.example' } });
    expect(res.status).toBe(201);
    await getContainer().artifacts.put(artifactKeys.scrape(org), { mappedAt: new Date().toISOString(), urls: [], pages: s.pages, storeRobotsTxt: null });
    await getContainer().artifacts.put(artifactKeys.catalog(org), { products: s.products, collections: s.collections });
    const now = new Date().toISOString();
    await getContainer().products.addMissing(s.products.map((p) => ({ id: randomUUID(), orgSlug: org, productId: p.productId, name: p.name, url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now })));

    const result = await generateOnboardingPrompts(getContainer(), org, { generator: await modelGenerator(s, generic) });
    expect(result.engine.name).toBe('model');
    expect(result.products).toMatchObject({ count: 75, perProduct: 5, generated: 375, saved: 375, shortfall: {}, shortfallReasons: {} });

    const rows = await getContainer().prompts.list(org);
    expect(new Set(rows.map((r) => promptIdentity(r.prompt))).size).toBe(rows.length);
    const perProduct = new Map<string, number>();
    for (const r of rows) if (r.productId) perProduct.set(r.productId, (perProduct.get(r.productId) ?? 0) + 1);
    for (const p of s.products) expect(perProduct.get(p.productId)).toBe(5);
  });
});
