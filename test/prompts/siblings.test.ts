/**
 * Issue 22 point 2: similar products get their full prompt count. Numbered siblings
 * ("Meadow Headlamp" … "5", "Tidal Camp Mug" … "4"), colourways and cuts sold as separate
 * products each get their prompts, unique within the business (D33) and never naming the
 * brand, from what tells them apart (title words, option values, price); where nothing does,
 * the shortfall is reported per product with its reason. The product-line detector no longer
 * flags a product's own kind word ("Microlot", "Reserve", "Half-Caf").
 */
import { randomUUID } from 'node:crypto';
import { generateOnboardingPrompts, generateProductPrompts } from '../../functions/app/prompts/generate';
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { toCatalogProduct } from '../../functions/core/products/catalog';
import { buildOfflinePrompts, siblingTraits, promptEvidence } from '../../functions/core/prompts/offline-prompts';
import { detectProductLines } from '../../functions/core/prompts/product-lines';
import { promptIdentity } from '../../functions/core/prompts/prompt-identity';
import { validatePrompt } from '../../functions/core/prompts/prompt-quality';
import { onboardingProductPromptCounts } from '../../functions/core/prompts/strategy';
import type { PromptSet } from '../../functions/core/prompts/types';
import type { CatalogProduct, StoreSnapshot } from '../../functions/core/site/types';
import { containsBusinessName } from '../../functions/core/text/name-match';
import { buildCatalogue } from '../../functions/local/demo-store/catalogue';
import { productJson } from '../../functions/local/demo-store/shopify-json';
import { startTestStack, type TestStack } from '../support/stack';
import { outdoorStore, OUTDOOR_NAME } from './outdoor-store';
import { siblingStoreSnapshot } from '../../bench/sibling-store';

function onboardingRequest(snapshot: StoreSnapshot, products: CatalogProduct[] = snapshot.products) {
  const each = onboardingProductPromptCounts(snapshot.products.length);
  return { snapshot, business: { count: 50 }, products: products.map((product) => ({ product, count: each })) };
}

function allPrompts(set: PromptSet): string[] {
  return [...set.business, ...Object.values(set.products).flat()];
}

/** Unique by identity, well formed, no brand, no product line but inside a product's own full name (D213). */
function expectClean(prompts: string[], snapshot: StoreSnapshot): void {
  const lines = detectProductLines(snapshot.products, snapshot.business.name);
  const names = snapshot.products.map((p) => new RegExp(p.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'));
  expect(new Set(prompts.map(promptIdentity)).size).toBe(prompts.length);
  for (const p of prompts) {
    expect(validatePrompt(p)).toBeNull();
    expect(containsBusinessName(p, snapshot.business.name)).toBe(false);
    const outsideNames = names.reduce((text, name) => text.replace(name, ' '), p);
    for (const l of lines) expect([p, containsBusinessName(outsideNames, l)]).toEqual([p, false]);
  }
}

const SIBLINGS = ['meadow-headlamp', 'meadow-headlamp-2', 'meadow-headlamp-3', 'meadow-headlamp-4', 'meadow-headlamp-5', 'tidal-camp-mug', 'tidal-camp-mug-2', 'tidal-camp-mug-3', 'tidal-camp-mug-4'];

describe('the 75-product outdoor store with numbered siblings', () => {
  const snapshot = outdoorStore();

  test('the fixture is what the issue describes', () => {
    expect(snapshot.products).toHaveLength(75);
    const ids = snapshot.products.map((p) => p.productId);
    for (const id of SIBLINGS) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(75);
  });

  for (const [label, s] of [['with its pages', snapshot], ['without pages (no audience, no services)', { ...snapshot, pages: [] }]] as Array<[string, StoreSnapshot]>) {
    test(`onboarding ${label}: every product has its 5, all unique within the business, none naming the brand`, () => {
      const set = buildOfflinePrompts(onboardingRequest(s));
      expect(set.shortfall.products).toEqual({});
      for (const p of s.products) expect(set.products[p.productId]).toHaveLength(5);
      expect(set.business).toHaveLength(50);
      expectClean(allPrompts(set), s);
    });
  }

  test('later siblings say what tells them apart: their colour, size, price', () => {
    const set = buildOfflinePrompts(onboardingRequest(snapshot));
    const text = (id: string) => set.products[id].join('\n').toLowerCase();
    expect(text('meadow-headlamp-5')).toMatch(/grey|\$75|\$70|premium/);
    expect(text('tidal-camp-mug-4')).toMatch(/10 oz|\$35|\$40|premium/);
  });

  test('daily: new siblings get 10 each against everything tracked', () => {
    const late = new Set(['meadow-headlamp-5', 'tidal-camp-mug-4', 'trail-tee-sand', 'canyon-daypack-30l', 'fuel-canister-450g']);
    const first = buildOfflinePrompts(onboardingRequest(snapshot, snapshot.products.filter((p) => !late.has(p.productId))));
    const tracked = allPrompts(first);
    const daily = buildOfflinePrompts({ snapshot, tracked, products: snapshot.products.filter((p) => late.has(p.productId)).map((product) => ({ product, count: 10 })) });
    expect(daily.shortfall.products).toEqual({});
    for (const id of late) expect(daily.products[id]).toHaveLength(10);
    expectClean([...tracked, ...allPrompts(daily)], snapshot);
  });

  test('sibling traits: title words, option values and price against the group', () => {
    const ev = promptEvidence(snapshot);
    const byId = (id: string) => snapshot.products.find((p) => p.productId === id)!;
    const headlamp = siblingTraits(snapshot, ev, byId('meadow-headlamp-3'));
    expect(headlamp.siblings).toHaveLength(4);
    expect(headlamp.distinct).toEqual(['green']);
    expect(headlamp.price).toBe(49);
    expect(siblingTraits(snapshot, ev, byId('meadow-headlamp-5')).rank).toBe('highest');
    expect(siblingTraits(snapshot, ev, byId('canyon-daypack-18l')).distinct).toContain('18L');
    expect(siblingTraits(snapshot, ev, byId('basin-1p-tent')).distinct).toContain('1-person');
    expect(siblingTraits(snapshot, ev, byId('trail-tee-red')).distinct).toEqual(['red']);
    expect(siblingTraits(snapshot, ev, byId('trail-tee-red')).price).toBeNull(); // all tees cost the same
  });
});

/** Listings nothing tells apart: same title words, description, options and price. */
function twins(): StoreSnapshot {
  const base = outdoorStore();
  const item = (handle: string) => toCatalogProduct({
    handle, title: 'Pack Towel', body_html: '<p>A quick-drying microfiber towel. Great for camping.</p>', product_type: 'Towels', vendor: 'Ridgeline',
    tags: '', variants: [{ id: 1, title: 'Default Title', option1: 'Default Title', price: '15.00', available: true }], options: [{ name: 'Title' }],
  }, 'https://ridgeline.example', 'USD');
  return { ...base, products: [...base.products, item('pack-towel'), item('pack-towel-1'), item('pack-towel-2')] };
}

describe('a shortfall is reported per product, with its reason, only when nothing tells products apart', () => {
  test('the offline engine names the siblings it cannot tell apart', () => {
    const s = twins();
    const towels = s.products.filter((p) => p.name === 'Pack Towel');
    const set = buildOfflinePrompts({ snapshot: s, products: towels.map((product) => ({ product, count: 30 })) });
    const short = Object.keys(set.shortfall.products);
    expect(short.length).toBeGreaterThan(0);
    for (const id of short) {
      expect(set.products[id].length + set.shortfall.products[id]).toBe(30);
      expect(set.shortfall.reasons?.[id]).toMatch(/nothing in the catalogue tells it apart from "Pack Towel"/);
    }
    expectClean(allPrompts(set), s);
  });

  describe('onboarding and daily results on the local stack', () => {
    let stack: TestStack;
    beforeAll(async () => { stack = await startTestStack(); });
    afterAll(() => stack.close());

    test('3a and 1b report each short product with its reason; the outdoor store has none', async () => {
      const s = twins();
      const org = 'ridgeline-siblings';
      const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: OUTDOOR_NAME, url: 'ridgeline.example' } });
      expect(res.status).toBe(201);
      await getContainer().artifacts.put(artifactKeys.scrape(org), { mappedAt: new Date().toISOString(), urls: [], pages: s.pages, storeRobotsTxt: null });
      await getContainer().artifacts.put(artifactKeys.catalog(org), { products: s.products, collections: s.collections });
      const now = new Date().toISOString();
      const entity = (p: CatalogProduct) => ({ id: randomUUID(), orgSlug: org, productId: p.productId, name: p.name, url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now });
      const outdoor = s.products.filter((p) => p.name !== 'Pack Towel');
      await getContainer().products.addMissing(outdoor.map(entity));

      const onboarding = await generateOnboardingPrompts(getContainer(), org);
      expect(onboarding.products).toMatchObject({ count: 75, perProduct: 5, generated: 375, saved: 375, shortfall: {}, shortfallReasons: {} });

      // Daily: the three identical listings arrive as new products.
      const towels = s.products.filter((p) => p.name === 'Pack Towel');
      await getContainer().products.addMissing(towels.map(entity));
      const daily = await generateProductPrompts(getContainer(), org, towels.map((p) => p.productId), 30);
      expect(Object.keys(daily.shortfall).length).toBeGreaterThan(0);
      expect(Object.keys(daily.shortfallReasons).sort()).toEqual(Object.keys(daily.shortfall).sort());
      for (const reason of Object.values(daily.shortfallReasons)) expect(reason).toMatch(/of 30 prompts: nothing in the catalogue tells it apart/);
      const rows = await getContainer().prompts.list(org);
      expect(new Set(rows.map((r) => promptIdentity(r.prompt))).size).toBe(rows.length);
    });

    test('issue 46: 3a gives each of the sibling-heavy store\'s 75 products its 5 (375), numbered names included', async () => {
      const s = siblingStoreSnapshot(75, 3);
      const org = 'harborline-siblings';
      expect((await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: s.business.name, url: 'harborline.example' } })).status).toBe(201);
      await getContainer().artifacts.put(artifactKeys.scrape(org), { mappedAt: new Date().toISOString(), urls: [], pages: [], storeRobotsTxt: null });
      await getContainer().artifacts.put(artifactKeys.catalog(org), { products: s.products, collections: [] });
      const now = new Date().toISOString();
      await getContainer().products.addMissing(s.products.map((p) => ({ id: randomUUID(), orgSlug: org, productId: p.productId, name: p.name, url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now })));
      const onboarding = await generateOnboardingPrompts(getContainer(), org);
      expect(onboarding.products).toMatchObject({ count: 75, perProduct: 5, generated: 375, saved: 375, shortfall: {} });
    });
  });
});

describe('product-line detection: a product kind is not a line', () => {
  test("the demo store's generated kinds (Microlot, Reserve, Half-Caf, Blend, Cascara, Wholesale) are not lines; its brand still is", () => {
    const catalogue = buildCatalogue({ products: 600 });
    const products = catalogue.products.map((p) => toCatalogProduct(productJson(p, 'http://x') as never, 'http://x', 'USD'));
    const lines = detectProductLines(products, catalogue.storeName).map((l) => l.toLowerCase());
    for (const kind of ['microlot', 'reserve', 'half-caf', 'blend', 'cascara', 'wholesale']) expect(lines).not.toContain(kind);
    expect(lines).toContain('harbor');
  });

  test('a line leading its titles is still found, after the brand too', () => {
    const lines = detectProductLines(outdoorStore().products, OUTDOOR_NAME);
    expect(lines).toEqual(expect.arrayContaining(['Meadow', 'Tidal']));
    for (const generic of ['headlamp', 'camp', 'mug', 'tee', 'trail', 'red', 'daypack']) expect(lines.map((l) => l.toLowerCase())).not.toContain(generic);
  });
});

describe('issue 46: a sibling-heavy store (15 line words x 15 kinds, one description template)', () => {
  test('all 75 products get their 5 (375), each naming the product where nothing else tells it apart', () => {
    // The acceptance store's draw (seed 3: five kinds), in the order the service lists products (by id):
    // the numbered names come last, so a figure cap counting "4" of "Tidal Camp Mug 4" starved them.
    const drawn = siblingStoreSnapshot(75, 3);
    const snapshot = { ...drawn, products: [...drawn.products].sort((a, b) => a.productId.localeCompare(b.productId)) };
    const set = buildOfflinePrompts({ snapshot, business: { count: 50 }, products: snapshot.products.map((product) => ({ product, count: 5 })) });
    expect(set.shortfall.products).toEqual({});
    expect(Object.values(set.products).flat()).toHaveLength(375);
    expectClean(allPrompts(set), snapshot);
    // "Boreal Hiking Sock 2" is asked about by name: its reviews, its price, a sibling.
    const boreal = snapshot.products.find((p) => p.name === 'Boreal Hiking Sock 2') ?? snapshot.products.find((p) => /^Boreal /.test(p.name) && / \d$/.test(p.name))!;
    expect(set.products[boreal.productId]!.join('\n')).toContain(boreal.name);
    // The brand is never said, even inside a name.
    for (const p of allPrompts(set)) expect(p).not.toMatch(/Harborline/i);
  });
});
