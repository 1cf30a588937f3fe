/**
 * Issue 45: every article opens with its verdict and the catalogue fact behind it, a question
 * without such a fact is not asked, needs are asked in their sense, and a product's facts are
 * about that product only (no free gift, brochure or warranty sentence). A small store shaped
 * like the real ones the issue read: a decking light whose IP67 answers "wet weather", a
 * pizza oven with a free cutter, a teether, a romper sized in months, a food jar, a yoga mat.
 */
import { answerText } from '../../../functions/core/articles/answers';
import { buildArticleFiles } from '../../../functions/core/articles/article-page';
import { articleCatalogue, entityQuestions, extractiveWriter, reviewQuestion } from '../../../functions/core/articles/compose';
import { readArticleSources, siteContentOf } from '../../../functions/core/articles/site-sources';
import { buildOfflineNarrative } from '../../../functions/core/generate';
import { buildSiteFiles } from '../../../functions/core/site/build';
import type { CatalogProduct, StoreSnapshot } from '../../../functions/core/site/types';

const ORIGIN = 'https://harbour-home.example';
const NOW = '2026-03-14T09:12:00.000Z';

function product(handle: string, name: string, type: string, description: string, extra: Partial<CatalogProduct> = {}): CatalogProduct {
  return {
    productId: handle, name, url: `${ORIGIN}/products/${handle}`, description, productType: type, vendor: 'Harbour', tags: [],
    price: '49.00', compareAtPrice: null, currency: 'GBP', available: true, imageUrls: [], updatedAt: null, ...extra,
  };
}

const sized = (values: string[], soldOut: string[] = []) => ({
  optionNames: ['Size'],
  variants: values.map((v, i) => ({ id: String(i), title: v, options: [v], price: '20.00', compareAtPrice: null, available: !soldOut.includes(v), sku: null, gtin: null })),
});

const snapshot: StoreSnapshot = {
  business: { name: 'Harbour Home', orgSlug: 'harbour', url: ORIGIN, domain: 'harbour-home.example' },
  pages: [],
  products: [
    product('decking-light', 'Lightpro Decking Light', 'Decking Light',
      'Gives a warm, white light for your decking. Rated IP67, it is waterproof and made for the garden. Power: 0.5 W. Here\'s your Lightpro Brochure - Follow pages 7 & 8.'),
    product('pizza-oven', 'Ember Pizza Oven', 'Pizza Oven',
      'The Ember Pizza Oven reaches 500°C in 15 minutes. Comes with a FREE pizza cutter worth £15. Perfect for outdoor cooking at home. Made of stainless steel.'),
    product('teether', 'Bunny Silicone Teether', 'Teether',
      'An entertaining companion for your baby. Made of food-grade silicone. Dishwasher safe.'),
    product('romper', 'Organic Cotton Romper', 'Romper',
      'Soft organic cotton romper, perfect for active toddlers on the move. Made of organic cotton. Machine washable.', sized(['0-3 Months', '3-6 Months'], ['3-6 Months'])),
    product('food-jar', 'Thermal Food Jar 24 OZ', 'Food Jar',
      'Keeps food hot for 12 hours or cold for 12 hours. Made of 18/8 stainless steel.'),
    product('yoga-mat', 'Grip Yoga Mat', 'Yoga Mat',
      'A non-slip yoga mat for yogis of every level. Made of natural rubber. Weighs 2.5 kg.'),
  ],
  collections: [],
  storeSitemapUrls: [],
};

const narrative = buildOfflineNarrative(snapshot);
const files = buildSiteFiles(snapshot, narrative, { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
const sources = readArticleSources(siteContentOf(files));
const catalogue = articleCatalogue(snapshot.products, sources, snapshot.business.name);
const questionsOf = (id: string) => entityQuestions(catalogue, id, { businessName: snapshot.business.name, industry: narrative.industry, sources });

async function published(id: string) {
  const out = [];
  for (const question of questionsOf(id)) {
    const reviewed = await reviewQuestion(question, extractiveWriter, []);
    if (reviewed.ok) out.push({ question, answer: reviewed.answer, text: answerText(reviewed.answer) });
  }
  return out;
}

describe('a verdict and its fact first', () => {
  test('"good for wet weather?" opens with the IP67 rating that answers it, not with "warm, white light"', async () => {
    const wet = (await published('decking-light')).find((a) => a.question.key === 'need:wet-weather')!;
    expect(wet.text.split('\n')[0]).toBe('Yes: the Lightpro Decking Light is rated IP67 (protected against temporary immersion).');
    const html = buildArticleFiles({ title: wet.question.title, slug: 'wet', business: snapshot.business, product: snapshot.products[0], answer: wet.answer, publishedDate: NOW, relatedPosts: [] }).files[0]!.content;
    expect(html).toContain('<p class="answer-lead"><strong>Yes: the Lightpro Decking Light is rated IP67 (protected against temporary immersion).</strong></p>');
  });

  test('no page says only that the store does not say: every published answer opens with a lead', async () => {
    for (const product of snapshot.products) {
      for (const { question, text, answer } of await published(product.productId)) {
        expect([question.title, answer.lead?.text]).toEqual([question.title, expect.any(String)]);
        expect(text).not.toMatch(/does not say more/);
      }
    }
  });

  test('a need the text states but no fact answers is not asked: a food jar is not "good for keeping drinks cold"', () => {
    expect(questionsOf('food-jar').map((q) => q.key)).not.toContain('need:cold-drinks');
  });

  test('the options answer says which sizes are sold out, live', async () => {
    const options = (await published('romper')).find((a) => a.question.intent === 'options')!;
    const html = buildArticleFiles({ title: options.question.title, slug: 'sizes', business: snapshot.business, product: snapshot.products[3], answer: options.answer, publishedDate: NOW, relatedPosts: [] }).files[0]!.content;
    expect(html).toContain('The Organic Cotton Romper comes in two sizes (0-3 Months and 3-6 Months); <span data-offer="stock:romper">sold out now: 3-6 Months</span>.');
  });
});

describe('needs and audiences in their sense', () => {
  test('an "entertaining companion for your baby" makes no teether good for entertaining guests', () => {
    expect(questionsOf('teether').map((q) => q.title).join('\n')).not.toMatch(/entertaining guests/);
  });

  test('a romper sized 0-6 months is not asked about toddlers; a yoga mat is not asked about yogis', () => {
    expect(questionsOf('romper').map((q) => q.title).join('\n')).not.toMatch(/toddlers/);
    expect(questionsOf('yoga-mat').map((q) => q.title).join('\n')).not.toMatch(/yogis/);
  });
});

describe('sentences about this product only', () => {
  test('the free cutter and the brochure are no facts of the oven or the light', async () => {
    for (const id of ['pizza-oven', 'decking-light']) {
      for (const { text } of await published(id)) expect(text).not.toMatch(/FREE pizza cutter|Brochure/);
    }
    const sheets = ['pizza-oven', 'decking-light'].map((id) => catalogue.byId.get(id)!);
    expect(sheets.flatMap((s) => s.facts.map((f) => f.text)).join(' ')).not.toMatch(/pizza cutter|Brochure/);
  });
});
