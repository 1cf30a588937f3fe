import { normalizePrompt } from '../../functions/core/prompts/prompt-identity';
import { kindFromName, pluralPhrase } from '../../functions/core/prompts/product-words';
import { buildOfflinePrompts, priceBand, promptEvidence, useCases, tastingNotes, audiencePhrases } from '../../functions/core/prompts/offline-prompts';
import { onboardingProductPromptCounts } from '../../functions/core/prompts/strategy';
import { containsBusinessName } from '../../functions/core/text/name-match';
import type { StoreSnapshot } from '../../functions/core/site/types';
import { coffeeStore } from '../generate/fixtures';
import { harborStore, NAME, PRODUCTS, smallHarborStore } from './fixtures';

/** Every way the fixture's name could leak, checked independently of containsBusinessName. */
const NAME_LEAK = /harbor|(?<![a-z])pine(?![a-z])/i;

function unique(list: string[]): boolean {
  return new Set(list.map(normalizePrompt)).size === list.length;
}

function wellFormed(p: string): void {
  expect(p.length).toBeGreaterThanOrEqual(12);
  expect(p.length).toBeLessThanOrEqual(200);
  expect(p).toMatch(/\?$/);
  expect(p).not.toMatch(/undefined|null|NaN|\s{2}|\{\{/);
}

describe('offline business prompts', () => {
  const snapshot = harborStore();
  const set = buildOfflinePrompts({ snapshot, business: { count: 50 } });

  test('50 unique, well-formed prompts, none naming the business in any variant', () => {
    expect(set.business).toHaveLength(50);
    expect(set.shortfall.business).toBe(0);
    expect(unique(set.business)).toBe(true);
    for (const p of set.business) {
      wellFormed(p);
      expect(containsBusinessName(p, NAME)).toBe(false);
      expect(p).not.toMatch(NAME_LEAK);
    }
    expect(set.engine).toEqual({ name: 'offline' });
  });

  test('built from the store\'s own categories, tags, audience, facts and brands', () => {
    const text = set.business.join('\n').toLowerCase();
    for (const category of ['coffee', 'espresso', 'cold brew']) expect(text).toContain(category);
    expect(text).toContain('single origin coffee'); // tags
    expect(text).toContain('home baristas'); // audience from the home page
    expect(text).toContain('free shipping on orders over $40'); // a stated fact
    expect(text).toContain('specialty coffee'); // inferred industry
    expect(text).toMatch(/under \$\d+/); // price bands from the catalogue
    expect(text).not.toMatch(/\btea\b|wine|jewelry/); // nothing the store does not sell
    // Round-robin: the first ten already cover several kinds of prompt.
    const firstTen = set.business.slice(0, 10).join('\n');
    expect(firstTen).toMatch(/for home baristas/);
    expect(firstTen).toMatch(/Where can I buy/);
    expect(firstTen).toMatch(/under \$/);
  });

  test('not a fixed list: another store gets its own prompts', () => {
    const other = buildOfflinePrompts({ snapshot: coffeeStore(), business: { count: 50 } });
    expect(other.business).toHaveLength(50);
    const text = other.business.join('\n').toLowerCase();
    expect(text).toMatch(/\bteas?\b/);
    expect(text).toContain('home brewers');
    expect(text).toContain('free shipping on orders over $45');
    for (const p of other.business) expect(containsBusinessName(p, 'Ember & Leaf')).toBe(false);
    const shared = other.business.filter((p) => set.business.includes(p));
    expect(shared.length).toBeLessThan(25); // both sell coffee: some overlap is natural, most is not
  });

  test('deterministic', () => {
    expect(buildOfflinePrompts({ snapshot: harborStore(), business: { count: 50 } }).business).toEqual(set.business);
  });

  test('existing prompts are skipped: regeneration gets new ones', () => {
    const more = buildOfflinePrompts({ snapshot, business: { count: 20, existing: set.business } });
    expect(more.business.length).toBeGreaterThan(0);
    const seen = new Set(set.business.map(normalizePrompt));
    for (const p of more.business) expect(seen.has(normalizePrompt(p))).toBe(false);
  });
});

describe('offline product prompts', () => {
  test('24 products: 5 each (onboarding), unique per product, no business or branded product name', () => {
    const snapshot = harborStore();
    const each = onboardingProductPromptCounts(snapshot.products.length);
    expect(each).toBe(5);
    const set = buildOfflinePrompts({ snapshot, products: snapshot.products.map((product) => ({ product, count: each })) });
    expect(set.shortfall.products).toEqual({});
    let total = 0;
    for (const p of PRODUCTS) {
      const list = set.products[p.productId];
      expect(list).toHaveLength(5);
      expect(unique(list)).toBe(true);
      total += list.length;
      for (const prompt of list) {
        wellFormed(prompt);
        expect(containsBusinessName(prompt, NAME)).toBe(false);
        expect(prompt).not.toMatch(NAME_LEAK);
      }
    }
    expect(total).toBe(120);
    // Branded product names never appear; neutral ones may.
    const all = Object.values(set.products).flat().join('\n');
    expect(all).not.toMatch(/House Blend|HarborPine|Logo Mug/);
    expect(set.products['ethiopia-guji'].join('\n')).toMatch(/single origin coffee/);
    expect(set.products['burr-grinder'].join('\n')).toMatch(/burr grinders?/);
    expect(set.products['hario-v60'].join('\n')).toMatch(/Hario|pour over/);
  });

  test('a store with 6 products gets 9 per product = 54 ≥ 50', () => {
    const snapshot = smallHarborStore(6);
    const each = onboardingProductPromptCounts(6);
    expect(each).toBe(9);
    const set = buildOfflinePrompts({ snapshot, products: snapshot.products.map((product) => ({ product, count: each })) });
    const counts = Object.values(set.products).map((l) => l.length);
    expect(counts).toEqual([9, 9, 9, 9, 9, 9]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(54);
    for (const list of Object.values(set.products)) {
      expect(unique(list)).toBe(true);
      for (const p of list) expect(containsBusinessName(p, NAME)).toBe(false);
    }
  });

  test('10 per product (schedule, D9) for a realistic product, from its type, tags, notes, uses, price and vendor', () => {
    const snapshot = harborStore();
    const guji = snapshot.products.find((p) => p.productId === 'ethiopia-guji')!;
    const v60 = snapshot.products.find((p) => p.productId === 'hario-v60')!;
    const set = buildOfflinePrompts({ snapshot, products: [{ product: guji, count: 10 }, { product: v60, count: 10 }] });
    expect(set.products['ethiopia-guji']).toHaveLength(10);
    expect(set.products['hario-v60']).toHaveLength(10);
    const guijText = set.products['ethiopia-guji'].join('\n');
    expect(guijText).toContain('under $20'); // 19.00 → the next round budget
    expect(guijText).toContain('notes of blueberry and jasmine');
    expect(guijText).toContain('for pour-over');
    expect(guijText).toContain('Ethiopia Guji coffee');
    expect(set.products['hario-v60'].join('\n')).toMatch(/Hario/); // its third-party brand or name: product-specific evidence
  });

  test('thin evidence: fewer prompts, never filler, and the shortfall is reported', () => {
    const snapshot: StoreSnapshot = {
      business: { name: 'Blue Door', orgSlug: 'blue-door', url: 'https://bluedoor.example', domain: 'bluedoor.example' },
      pages: [],
      collections: [],
      storeSitemapUrls: [],
      products: [{
        productId: 'item-7', name: 'Item 7', url: '', description: '', productType: '', vendor: '', tags: [], price: null,
        compareAtPrice: null, currency: null, available: true, imageUrls: [], updatedAt: null,
      }, {
        productId: 'blue-door-tote', name: 'Blue Door Tote', url: '', description: '', productType: '', vendor: '', tags: [], price: null,
        compareAtPrice: null, currency: null, available: true, imageUrls: [], updatedAt: null,
      }],
    };
    const set = buildOfflinePrompts({ snapshot, business: { count: 50 }, products: snapshot.products.map((product) => ({ product, count: 25 })) });
    expect(set.business.length).toBeLessThan(50);
    expect(set.shortfall.business).toBe(50 - set.business.length);
    expect(set.products['item-7'].length).toBeLessThan(25);
    expect(set.products['item-7'].length).toBeGreaterThan(0);
    for (const p of set.products['item-7']) expect(p).toContain('Item 7');
    // The branded product: never its name, only the kind its name says ("tote").
    const tote = set.products['blue-door-tote'];
    expect(tote.length).toBeGreaterThan(0);
    expect(tote.length).toBeLessThan(25);
    for (const p of tote) {
      expect(p).toMatch(/\btotes?\b/);
      expect(p).not.toMatch(/blue door/i);
    }
    expect(set.shortfall.products).toEqual({ 'item-7': 25 - set.products['item-7'].length, 'blue-door-tote': 25 - tote.length });
  });
});

describe('evidence helpers', () => {
  test('plural phrases', () => {
    expect(pluralPhrase('mug')).toBe('mugs');
    expect(pluralPhrase('accessory')).toBe('accessories');
    expect(pluralPhrase('coffee')).toBe('coffee');
    expect(pluralPhrase('brewing gear')).toBe('brewing gear');
    expect(pluralPhrase('grinders')).toBe('grinders');
    expect(pluralPhrase('glass')).toBe('glasses');
    expect(pluralPhrase('drinkware')).toBe('drinkware');
  });

  test('the kind a product name says, for products without a type', () => {
    expect(kindFromName('Yirgacheffe Coffee Beans')).toBe('coffee beans');
    expect(kindFromName('Swiss Water Decaf Coffee')).toBe('coffee');
    expect(kindFromName('Item 7')).toBeNull();
  });

  test('price bands round up to the next budget a shopper would type', () => {
    expect(priceBand(19)).toBe(20);
    expect(priceBand(20)).toBe(25);
    expect(priceBand(39.95)).toBe(40);
    expect(priceBand(149)).toBe(150);
    expect(priceBand(6000)).toBe(7000);
  });

  test('uses, tasting notes and audiences from the store\'s own words', () => {
    expect(useCases('Built for milk drinks and straight shots alike.')).toEqual(['milk drinks', 'straight shots']);
    expect(useCases('Made for clean, bright cups.')).toEqual(['clean, bright cups']);
    expect(useCases('Perfect for you.')).toEqual([]);
    expect(tastingNotes('Notes of blueberry, jasmine and dark chocolate.')).toEqual(['blueberry', 'jasmine']);
    expect(audiencePhrases('home brewers and curious coffee drinkers who want to taste')).toEqual(['home brewers', 'curious coffee drinkers']);
    expect(audiencePhrases('Online shoppers')).toEqual([]);
  });

  test('store evidence: currency from the pages when products carry none; facts as phrases', () => {
    const ev = promptEvidence(harborStore());
    expect(ev.currency).toBe('$');
    expect(ev.services).toContain('free shipping on orders over $40');
    expect(ev.shipsTo).toEqual(['the United States', 'Canada']);
    expect(ev.places).toEqual(['Seattle']); // the mug's "made in Portland" is not where the store is
    expect(ev.vendors).not.toContain(NAME);
    expect(ev.categories.map((c) => c.phrase)).not.toContain('sale');
  });
});
