/**
 * Articles a shopper would read on catalogues shaped like real ones (issue 33, D37): a yoga store
 * that sells one printed mat as six products (colourways with marketing copy: "soothing coastal
 * hues", "Wipe down with ease after each practice"), and a kitchen store whose knives carry the
 * facts a buyer compares (hardness, steel, weight, care, origin) next to a bread and a paring
 * knife. Product names from the real catalogues in ../shared/catalogues test the family rule.
 */
import { join } from 'node:path';
import { answerText, writeExtractiveAnswer } from '../../../functions/core/articles/answers';
import { attributesOf } from '../../../functions/core/products/attributes';
import { buildArticleFiles } from '../../../functions/core/articles/article-page';
import { articleCatalogue, entityQuestions, extractiveWriter, reviewQuestion } from '../../../functions/core/articles/compose';
import { jobOf, productFamilies } from '../../../functions/core/articles/families';
import { needOfPhrase, SHOPPER_NEEDS, statesNeed } from '../../../functions/core/articles/needs';
import { readArticleSources, siteContentOf } from '../../../functions/core/articles/site-sources';
import { buildOfflineNarrative } from '../../../functions/core/generate';
import { buildSiteFiles } from '../../../functions/core/site/build';
import { contentHash } from '../../../functions/core/site/dates';
import { refreshOfferSlots, withoutOffers } from '../../../functions/core/site/offer-slots';
import type { CatalogProduct, StoreSnapshot } from '../../../functions/core/site/types';
import { productsJsonSnapshot, storeArticles } from '../../../bench/articles';
import { ROOT } from '../../../bench/lib';

const NOW = '2026-03-14T09:12:00.000Z';
const yoga = () => productsJsonSnapshot(join(ROOT, 'test/fixtures/colourway-yoga-products.json'), 'Sukha Mats');
const kitchen = () => productsJsonSnapshot(join(ROOT, 'test/fixtures/kitchen-store-products.json'), 'Fernwood Kitchen Supply');

function siteOf(store: StoreSnapshot) {
  const narrative = buildOfflineNarrative(store);
  const files = buildSiteFiles(store, narrative, { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const sources = readArticleSources(siteContentOf(files));
  const catalogue = articleCatalogue(store.products, sources, store.business.name);
  const context = { businessName: store.business.name, industry: narrative.industry, sources };
  return { catalogue, context, questions: (id: string) => entityQuestions(catalogue, id, context) };
}

function named(names: string[], vendor = 'V'): CatalogProduct[] {
  return names.map((name, i) => ({
    productId: `p${i}`, name, url: `https://s.example/products/p${i}`, description: '', productType: '', vendor, tags: [],
    price: '10.00', compareAtPrice: null, currency: 'USD', available: true, imageUrls: [], updatedAt: null,
  }));
}

describe('product families (D37)', () => {
  test('colourways, prints, sizes and a repeated title are families; a brand\'s two models are not', () => {
    const families = (names: string[]) => productFamilies(named(names)).families.map((f) => [f.name, f.differs, f.members.map((m) => m.name)]);
    expect(families(['Combo Yoga Mat - Aegean Green', 'Combo Yoga Mat - Earth Green', 'Travel Combo Yoga Mat - Mandala Turquoise']))
      .toEqual([['Combo Yoga Mat', 'designs', ['Combo Yoga Mat - Aegean Green', 'Combo Yoga Mat - Earth Green']]]);
    // No dash: the colour is the name's last words ("Dark Forest"), and a model code's colour letter goes with it.
    expect(families(['Sony WHCH720NB Wireless Noise Cancelling Headphones Black', 'Sony WHCH720NW Wireless Noise Cancelling Headphones White', 'Bowers & Wilkins PX8 Noise Cancelling Headphones Dark Forest']))
      .toEqual([['Sony WHCH720 Wireless Noise Cancelling Headphones', 'colors', ['Sony WHCH720NB Wireless Noise Cancelling Headphones Black', 'Sony WHCH720NW Wireless Noise Cancelling Headphones White']]]);
    expect(families(['10 x 8 Woodsman Shiplap Apex Wooden Shed', '8 x 6 Woodsman Shiplap Apex Wooden Shed', '8 x 6 Woodsman Shiplap Pent Wooden Shed'])[0])
      .toEqual(['Woodsman Shiplap Apex Wooden Shed', 'sizes', ['10 x 8 Woodsman Shiplap Apex Wooden Shed', '8 x 6 Woodsman Shiplap Apex Wooden Shed']]);
    expect(families(['The IceFlow™ Flip Straw Tumbler | 20 OZ', 'The IceFlow™ Flip Straw Tumbler | 40 OZ'])[0]?.[1]).toBe('sizes');
    // Colour words that name scents make versions: "Which colors does the Mat Refresh Spray come in?" would be wrong.
    expect(families(['Mat Refresh Spray Lavender', 'Mat Refresh Spray Eucalyptus'])).toEqual([['Mat Refresh Spray', 'versions', ['Mat Refresh Spray Lavender', 'Mat Refresh Spray Eucalyptus']]]);
    expect(families(['Gal XC 29 jacket', 'Gal XC 29 jacket'])).toEqual([['Gal XC 29 jacket', 'versions', ['Gal XC 29 jacket', 'Gal XC 29 jacket']]]);
    expect(families(['Alfresco Chef Vita Wood Fired Outdoor Pizza Oven', 'Alfresco Chef Milano Wood Fired Outdoor Pizza Oven'])).toEqual([]);
    expect(families(['Kiso 210 mm Gyuto', 'Kiso 150 mm Petty'])).toEqual([]);
    // "Light" qualifies a colour only before one: "Outlet with Light" keeps its word.
    expect(families(['V16B: Black Pop Up Outlet with Light & 65w USB-C', 'V16S: Silver Pop Up Outlet with Light & 65w USB-C'])[0]?.[0]).toBe('Pop Up Outlet with Light & 65w USB-C');
  });

  test('different vendors are never one family; "Stanley" and "Stanley 1913" are one vendor', () => {
    const products = [...named(['Trail Bottle - Red'], 'Acme'), ...named(['Trail Bottle - Blue'], 'Other Co')].map((p, i) => ({ ...p, productId: `q${i}` }));
    expect(productFamilies(products).families).toEqual([]);
    const same = [...named(['Quencher | 40 OZ'], 'Stanley'), ...named(['Quencher | 20 OZ'], 'Stanley 1913')].map((p, i) => ({ ...p, productId: `q${i}` }));
    expect(productFamilies(same).families).toHaveLength(1);
  });

  test('a colourway store gets one family page per family, none comparing two of its members', async () => {
    const { questions } = siteOf(yoga());
    const all = yoga().products.flatMap((p) => questions(p.productId));
    expect(all.filter((q) => q.intent === 'family').map((q) => q.title)).toEqual([
      'Which designs does the Combo Yoga Mat come in?',
      'Which designs does the Travel Combo Yoga Mat come in?',
    ]);
    const families = productFamilies(yoga().products);
    for (const q of all.filter((x) => x.intent === 'comparison')) {
      const [a, b] = q.subjects.map((s) => s.product.productId);
      expect([q.title, families.of.get(a!) !== undefined && families.of.get(a!) === families.of.get(b!)]).toEqual([q.title, false]);
    }
    const report = await storeArticles('colourway yoga', yoga());
    expect(report.realism).toMatchObject({ familyPages: 2, comparisonsInFamily: 0 });
  });

  test('the family page lists every member with its link, price and stock, and what they share', () => {
    const { questions } = siteOf(yoga());
    const page = questions('combo-yoga-mat-aegean-green').find((q) => q.intent === 'family')!;
    const answer = { ...writeExtractiveAnswer(page), lead: page.lead };
    const members = answer.blocks[0]!.members!;
    expect(members.map((m) => m.label)).toEqual(['Aegean Green', 'Earth Green', 'Mandala Turquoise', 'Ocean Blue', 'Lotus Pink', 'Sunset Orange'].map((c) => `Combo Yoga Mat - ${c}`));
    expect(members[2]).toMatchObject({ path: '/ai/products/combo-yoga-mat-mandala-turquoise/index.html', offer: 'USD 98.00, out of stock' });
    expect(answerText(answer)).toContain('The Combo Yoga Mat comes in six designs');
    expect(answerText(answer)).toContain('Each is 3.5 mm thick.');
    const html = buildArticleFiles({ title: page.title, slug: 'combo-designs', business: { name: 'Sukha Mats', url: 'https://sukha-mats.example' }, answer, publishedDate: NOW, relatedPosts: [] }).files[0]!.content;
    expect(html).toContain('<a href="/ai/products/combo-yoga-mat-earth-green/">Combo Yoga Mat - Earth Green</a> (<span data-offer="combo-yoga-mat-earth-green">USD 98.00, in stock</span>)');
    // The lead says which members are sold out, in a slot every publish rewrites (issue 45).
    expect(html).toMatch(/<p class="answer-lead"><strong>The Combo Yoga Mat comes in six designs: Aegean Green, Earth Green, Mandala Turquoise, Ocean Blue, Lotus Pink and Sunset Orange; <span data-offer="stock:[^"]+">sold out now: Combo Yoga Mat - Mandala Turquoise<\/span>\.<\/strong><\/p>/);
    const restocked = yoga().products.map((p) => (p.productId === 'combo-yoga-mat-mandala-turquoise'
      ? { ...p, available: true, variants: (p.variants ?? []).map((v) => ({ ...v, available: true })) }
      : p.productId === 'combo-yoga-mat-ocean-blue' ? { ...p, available: false, variants: (p.variants ?? []).map((v) => ({ ...v, available: false })) } : p));
    const [republished] = refreshOfferSlots([{ path: 'a.html', content: html, contentType: 'text/html' }], restocked);
    expect(republished!.content).toContain('sold out now: Combo Yoga Mat - Ocean Blue</span>.</strong>');
  });
});

describe('live offers on a family page (D36)', () => {
  const html = '<li><a href="/ai/products/a/">A</a> (<span data-offer="a">USD 98.00, in stock</span>)</li><li>(<span data-offer="gone">USD 5.00, in stock</span>)</li>';
  const file = { path: '/combo/index.html', content: html, contentType: 'text/html' };

  test('every publish rewrites each slot from the current catalogue; a product no longer sold says so', () => {
    const [p] = named(['A']);
    const current = { ...p!, productId: 'a', price: '88.00', available: false };
    const [out] = refreshOfferSlots([file], [current]);
    expect(out!.content).toBe('<li><a href="/ai/products/a/">A</a> (<span data-offer="a">USD 88.00, out of stock</span>)</li><li>(<span data-offer="gone">no longer listed</span>)</li>');
  });

  test('a price change is not a change of the page\'s words: the content hash ignores the slots', () => {
    const [p] = named(['A']);
    const [out] = refreshOfferSlots([file], [{ ...p!, productId: 'a', price: '88.00' }]);
    expect(contentHash(withoutOffers(out!.content))).toBe(contentHash(withoutOffers(html)));
  });
});

describe('comparisons that compare (D37)', () => {
  test('the gyuto and the chef\'s knife: each difference in a sentence naming both with both values, then what they share', async () => {
    const { questions } = siteOf(kitchen());
    const comparisons = questions('kiso-210-gyuto').filter((q) => q.intent === 'comparison');
    // One counterpart per family: the 6-inch and the 8-inch Brenner are one knife in two sizes.
    expect(comparisons).toHaveLength(1);
    const brenner = comparisons[0]!.subjects[1]!.product.name;
    expect(brenner).toMatch(/^Brenner [68]-inch Chef's Knife$/);
    const text = answerText(writeExtractiveAnswer(comparisons[0]!));
    for (const sentence of [
      `The Kiso 210 mm Gyuto is hardened to 60 HRC, while the ${brenner} is hardened to 56 HRC.`,
      `The Kiso 210 mm Gyuto is made of VG-10 stainless steel, while the ${brenner} is made of X50CrMoV15 stainless steel.`,
      `The Kiso 210 mm Gyuto weighs 180 g, while the ${brenner} weighs ${brenner.includes('8') ? 240 : 170} g.`,
      `The Kiso 210 mm Gyuto is hand wash only, while the ${brenner} is dishwasher-safe.`,
      `The Kiso 210 mm Gyuto is forged in Seki, Japan, while the ${brenner} is made in Germany.`,
    ]) expect(text).toContain(sentence);
    expect(await reviewQuestion(comparisons[0]!, extractiveWriter, [])).toMatchObject({ ok: true });
    // Both prices and both stocks (issue 45), as live offers every publish refreshes (D36).
    const offers = writeExtractiveAnswer(comparisons[0]!).blocks.find((b) => b.heading === 'Price and stock')?.members ?? [];
    expect(offers.map((m) => m.label)).toEqual(['Kiso 210 mm Gyuto', brenner]);
    for (const m of offers) expect(m.offer).toMatch(/^USD \d+\.\d{2}.*, (in stock|out of stock)/);
  });

  test('a chef\'s knife is never compared with a bread knife or a paring knife (made for other jobs)', () => {
    const { questions } = siteOf(kitchen());
    const pairs = kitchen().products.flatMap((p) => questions(p.productId)).filter((q) => q.intent === 'comparison').map((q) => q.subjects.map((s) => s.product.productId).sort().join(' + '));
    expect(pairs.filter((p) => /bread|paring/.test(p))).toEqual([]);
    expect(jobOf("Brenner 8-inch Chef's Knife")).toBe('chefs knife');
    expect(jobOf('Brenner 9-inch Bread Knife')).toBe('bread knife');
    expect(jobOf('Kiso 210 mm Gyuto')).toBe('gyuto');
  });

  test('two prints of one mat differ in nothing the store states: no comparison; every published one states two differences', async () => {
    const report = await storeArticles('kitchen', kitchen());
    expect(report.realism.comparisons).toBeGreaterThan(0);
    expect(report.realism.comparisonsWithTwoDifferences).toBe(report.realism.comparisons);
    expect(report.realism.comparisonsInFamily).toBe(0);
  });

  test('attributes are read from the store\'s own words; a value nobody states is absent', () => {
    const of = (description: string, name = 'Thing') => Object.fromEntries([...attributesOf(description, name)].map(([k, a]) => [k, a.value]));
    expect(of('Blade: 210 mm VG-10 stainless steel core, hardened to 60 HRC\n\nWeight: 180 g\n\nMade in Japan. Hand wash only; never put it in the dishwasher.', 'Kiso 210 mm Gyuto'))
      .toEqual({ hardness: '60 HRC', material: 'VG-10 stainless steel', weight: '180 g', length: '210 mm', care: 'hand wash only', origin: 'made in Japan' });
    // A shed's name says its material ("Plastic"), its size ("10x8ft"); a figure in mm is no length of a cabin with a width.
    expect(of('Strong steel frame. Steel roof.', 'Lifetime 10x8ft Heavy Duty Plastic Shed')).toMatchObject({ material: 'plastic', dimensions: '10 x 8 ft' });
    expect(of('It is not dishwasher-safe.')).toEqual({});
    // "Nexus 2G" is a two-gang socket, not two grams.
    expect(of('Outdoor socket.', 'Nexus 2G Outdoor Socket IP66')).toEqual({ rating: 'IP66' });
  });
});

describe('questions shoppers ask (D37)', () => {
  test('no need question is cut from marketing copy: "with ease", "soothing coastal hues", "juggling mats"', () => {
    const { questions } = siteOf(yoga());
    const titles = yoga().products.flatMap((p) => questions(p.productId)).map((q) => q.title);
    expect(titles.filter((t) => /ease|easing|sooth|hues|juggling|coastal/i.test(t))).toEqual([]);
    const needs = titles.map((t) => /good for (.+)\?$/.exec(t)?.[1]).filter((n): n is string => n !== undefined);
    expect(needs.length).toBeGreaterThan(0);
    for (const need of needs) expect([need, needOfPhrase(need) !== null]).toEqual([need, true]);
    expect(titles).toContain('Is the Combo Yoga Mat - Aegean Green good for heavy sweating?');
  });

  test('a need is stated by a sentence that says it, never denied', () => {
    const stated = (sentence: string) => SHOPPER_NEEDS.filter((n) => statesNeed(sentence, n)).map((n) => n.id);
    expect(stated('Wipe down with ease after each practice.')).toEqual([]);
    expect(stated('The Aegean Green print brings soothing coastal hues to your practice.')).toEqual([]);
    expect(stated('Non-slip even when wet: the more you sweat, the better it grips.')).toEqual(['slipping', 'sweat']);
    expect(stated('This mat is not waterproof.')).toEqual([]);
    expect(stated('Keeps drinks ice-cold for 24 hours.')).toEqual(['cold-drinks']);
    expect(stated('Our sweatshirt is cosy.')).toEqual([]);
  });

  test('every catalogue measured: need questions all from the vocabulary', async () => {
    for (const store of [yoga(), kitchen()]) {
      const report = await storeArticles(store.business.name, store);
      expect([store.business.name, report.realism.needQuestionsInVocabulary]).toEqual([store.business.name, report.realism.needQuestions]);
      expect(report.quality.answering).toBe(1);
      expect(report.quality.nearCopyPairs).toBe(0);
    }
  });
});
