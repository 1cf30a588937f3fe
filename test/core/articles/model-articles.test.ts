/**
 * Articles written by a model (issue 20 item 2, D36), through a real OpenAI-compatible server
 * on loopback: the model sees only the question's fact sheet, and every sentence it returns is
 * checked against that sheet. An invented claim (a place, a guarantee, a figure) is dropped; a
 * sentence borrowed from another product is dropped; an answer left empty is not published.
 */
import { articleCatalogue, entityQuestions, reviewQuestion } from '../../../functions/core/articles/compose';
import { answerText } from '../../../functions/core/articles/answers';
import { readArticleSources, siteContentOf } from '../../../functions/core/articles/site-sources';
import { createModelArticleWriter } from '../../../functions/adapters/external/model/article-writer';
import { buildOfflineNarrative } from '../../../functions/core/generate';
import { buildSiteFiles } from '../../../functions/core/site/build';
import type { CatalogProduct, StoreSnapshot } from '../../../functions/core/site/types';
import { createLogger } from '../../../functions/logger';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '../../generate/fake-llm';

const ORIGIN = 'https://brenner-kitchen.example';
const product = (handle: string, name: string, description: string): CatalogProduct => ({
  productId: handle, name, url: `${ORIGIN}/products/${handle}`, description, productType: 'Kettle', vendor: 'Brenner', tags: [],
  price: '49.00', compareAtPrice: null, currency: 'EUR', available: true, imageUrls: [], updatedAt: null,
});
const snapshot: StoreSnapshot = {
  business: { name: 'Brenner Kitchen Co.', orgSlug: 'brenner', url: ORIGIN, domain: 'brenner-kitchen.example' },
  pages: [],
  products: [
    // Its name does not say its material: "What is the Copper Kettle made of?" would restate it, and is not asked (issue 45).
    product('copper-kettle', 'Whistling Kettle', 'Hand-hammered from solid copper in Solingen. Note that it does not work on induction. Wipe with a soft cloth and dry after each use.'),
    product('steel-kettle', 'Steel Stovetop Kettle', 'Made of brushed stainless steel. It works on gas, electric and induction hobs. Ideal for busy kitchens that boil water all day.'),
  ],
  collections: [],
  storeSitemapUrls: [],
};

const INVENTED = 'It comes with a lifetime guarantee and is assembled in Reykjavik by 40 artisans.';
const BORROWED = 'The Steel Stovetop Kettle works on gas, electric and induction hobs.';
const GROUNDED = 'The kettle is hand-hammered from solid copper in Solingen.';

let llm: FakeLlm;
let reply: (req: RecordedRequest) => string[];

beforeAll(async () => {
  // As the OpenAI API answers: the message, and the tokens the call cost.
  llm = await startFakeLlm({ respond: (req) => ({ status: 200, body: JSON.stringify({
    choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ answer: reply(req) }) }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 23, total_tokens: 123 },
  }) }) });
});
afterAll(() => llm.close());

function setup(limiter?: Parameters<typeof createModelArticleWriter>[0]['limiter']) {
  const narrative = buildOfflineNarrative(snapshot);
  const files = buildSiteFiles(snapshot, narrative, { now: '2026-03-14T09:12:00.000Z', indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const sources = readArticleSources(siteContentOf(files));
  const catalogue = articleCatalogue(snapshot.products, sources, snapshot.business.name);
  const writer = createModelArticleWriter({ baseUrl: llm.baseUrl, model: 'fake', log: createLogger({ component: 'test' }), maxRetries: 0, retryBaseMs: 1, ...(limiter ? { limiter } : {}) });
  const questions = entityQuestions(catalogue, 'copper-kettle', { businessName: snapshot.business.name, industry: narrative.industry, sources });
  const batch = writer.forBusiness(snapshot.business.name, catalogue);
  return { write: batch.write, usage: batch.usage, questions };
}

test('the model gets only the question\'s facts; an invented claim and another product\'s sentence are dropped, the grounded one is published', async () => {
  reply = () => [GROUNDED, INVENTED, BORROWED];
  const { write, usage, questions } = setup();
  const materials = questions.find((q) => q.intent === 'materials')!;
  const reviewed = await reviewQuestion(materials, write, []);
  expect(reviewed.ok).toBe(true);
  const text = reviewed.ok ? answerText(reviewed.answer) : '';
  // The lead (the verdict and its fact: leads.ts) opens every answer, whichever engine wrote the rest.
  expect(text).toBe(`The Whistling Kettle is made of copper.\n${GROUNDED}`);
  expect(text).not.toMatch(/Reykjavik|lifetime|induction/);
  expect(usage()).toMatchObject({ calls: 1, cost_units: 123, cost_unit: 'tokens', dropped_sentences: 2, fallbacks: 0 });
  // The fact sheet sent names no other product: the model could not borrow from it.
  const sent = llm.requests.at(-1)!.body.messages!.map((m) => m.content).join('\n');
  expect(sent).toContain('Hand-hammered from solid copper');
  expect(sent).not.toContain('Steel Stovetop');
});

test('an answer made only of invented claims is not published, and the reason says so', async () => {
  reply = () => [INVENTED, 'Professional chefs in Paris rate it the best kettle of 2026.'];
  const { write, questions } = setup();
  const reviewed = await reviewQuestion(questions.find((q) => q.intent === 'care')!, write, []);
  expect(reviewed).toMatchObject({ ok: false, reason: expect.stringMatching(/not supported by the store's facts/) });
});

test('no slot in the fleet limits: the extractive engine answers, and the usage says why', async () => {
  const before = llm.requests.length;
  const { write, usage, questions } = setup({ acquire: async () => ({ ok: false, reason: 'daily budget of 0 checks on article_model is spent' }) });
  const reviewed = await reviewQuestion(questions.find((q) => q.intent === 'care')!, write, []);
  expect(reviewed).toMatchObject({ ok: true, answer: { engine: 'extractive' } });
  expect(llm.requests.length).toBe(before);
  expect(usage()).toMatchObject({ calls: 0, fallbacks: 1, fallback_reasons: ['daily budget of 0 checks on article_model is spent'] });
});
