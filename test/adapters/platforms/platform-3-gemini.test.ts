/** platform_3 on the wire: Gemini generateContent + google_search against its fake. */
import { createPlatform3Client } from '../../../functions/adapters/external/platforms';
import { generateContentPath, vertexLocationOf } from '../../../functions/adapters/external/platforms/platform-3-gemini';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { cannedFetch, expectFailure, expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_3', {
    answerFor: (prompt) => ({ text: `Top picks for ${prompt}: Harbor & Pine Coffee Co. and Rival Roasters.`, citations: ['https://harborpine.example/', 'https://rival.example/shop'] }),
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });

test('POST {url}/v1beta/models/{model}:generateContent with x-goog-api-key and the google_search tool', async () => {
  const t = testDeps();
  const client = createPlatform3Client(settings(), t.deps);
  expect(client.kind).toBe('assistant of a large search company');
  const answer = expectOk(await client.ask('decaf coffee'));

  const req = fake.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/v1beta/models/gemini-3.5-flash-lite:generateContent');
  expect(req.headers['x-goog-api-key']).toBe(fake.key);
  expect(req.query).toEqual({}); // the key is never in the URL
  expect(req.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'decaf coffee' }] }], tools: [{ google_search: {} }] });

  expect(answer.text).toBe('Top picks for decaf coffee: Harbor & Pine Coffee Co. and Rival Roasters.');
  expect(answer.citations).toEqual(['https://harborpine.example/', 'https://rival.example/shop']);
  expect(answer.retrieved).toEqual([]);
  // the chunk titles name the links' own hosts: nothing to record
  expect(answer.sourceHosts).toBeUndefined();
  expect(answer.model).toBe('gemini-3.5-flash-lite');
  expect(answer.costUnits).toBe(Math.ceil('decaf coffee'.length / 4) + Math.ceil(answer.text.length / 4));
  expect(answer.costUnit).toBe('tokens');
  expect(answer.obtainedVia).toBe('generateContent + google_search grounding');
});

test('grounding chunks no support ties to the text are retrieved, not cited', async () => {
  fake.setAnswerFor(() => ({ text: 'Rival Roasters is popular.', citations: ['https://rival.example/'], searchResults: ['https://harborpine.example/'] }));
  try {
    const answer = expectOk(await createPlatform3Client(settings(), testDeps().deps).ask('x'));
    expect(answer.citations).toEqual(['https://rival.example/']);
    expect(answer.retrieved).toEqual(['https://harborpine.example/']);
  } finally {
    fake.setAnswerFor((prompt) => ({ text: `Top picks for ${prompt}: Harbor & Pine Coffee Co. and Rival Roasters.`, citations: ['https://harborpine.example/', 'https://rival.example/shop'] }));
  }
});

test('PLATFORM_3_MODEL goes into the path', async () => {
  const t = testDeps();
  const answer = expectOk(await createPlatform3Client({ ...settings(), model: 'gemini-2.5-pro' }, t.deps).ask('x'));
  expect(fake.requests[0].path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
  expect(answer.model).toBe('gemini-2.5-pro');
});

test('thought parts are skipped, text parts joined, redirect-style grounding URIs kept as given', async () => {
  const t = testDeps({
    fetchImpl: cannedFetch(200, {
      candidates: [{
        content: { parts: [{ text: 'thinking...', thought: true }, { text: 'Part one, ' }, { text: 'part two.' }] },
        finishReason: 'STOP',
        groundingMetadata: { groundingChunks: [{ web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC', title: 'harborpine.example' } }, { retrievedContext: {} }] },
      }],
      usageMetadata: { totalTokenCount: 42 },
      modelVersion: 'gemini-2.5-flash-001',
    }),
  });
  const answer = expectOk(await createPlatform3Client(settings(), t.deps).ask('x'));
  expect(answer).toMatchObject({
    text: 'Part one, part two.',
    citations: ['https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC'],
    model: 'gemini-2.5-flash-001',
    costUnits: 42,
  });
});

test('redirect links keep their URL and get the chunk title (the source domain) as their host; chunks no support cites are retrieved', async () => {
  const redirect = (id: string) => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${id}`;
  const t = testDeps({
    fetchImpl: cannedFetch(200, {
      candidates: [{
        content: { parts: [{ text: 'Harbor & Pine Coffee Co. roasts to order.' }] },
        finishReason: 'STOP',
        groundingMetadata: {
          groundingChunks: [
            { web: { uri: redirect('store'), title: 'harborpine.example' } },
            { web: { uri: redirect('rival'), title: 'www.Rival.example' } },
            { web: { uri: redirect('page'), title: 'Best coffee roasters of 2026' } },
          ],
          groundingSupports: [{ segment: { startIndex: 0, endIndex: 41 }, groundingChunkIndices: [0, 2] }],
        },
      }],
      usageMetadata: { totalTokenCount: 42 },
    }),
  });
  const answer = expectOk(await createPlatform3Client(settings(), t.deps).ask('x'));
  expect(answer.citations).toEqual([redirect('store'), redirect('page')]);
  expect(answer.retrieved).toEqual([redirect('rival')]);
  // a title that is not a domain (a page title) gives no host
  expect(answer.sourceHosts).toEqual({ [redirect('store')]: 'harborpine.example', [redirect('rival')]: 'www.rival.example' });
});

test('a blocked prompt (no candidates) and a SAFETY stop without text are failed, not retried', async () => {
  const calls: string[] = [];
  let t = testDeps({ fetchImpl: cannedFetch(200, { promptFeedback: { blockReason: 'SAFETY' } }, calls) });
  expect(expectFailure(await createPlatform3Client(settings(), t.deps).ask('x'), 'failed').reason).toBe('platform_3: no candidate in the answer (prompt blocked: SAFETY)');
  t = testDeps({ fetchImpl: cannedFetch(200, { candidates: [{ content: { parts: [] }, finishReason: 'SAFETY' }] }, calls) });
  expect(expectFailure(await createPlatform3Client(settings(), t.deps).ask('x'), 'failed').reason).toBe('platform_3: the answer has no text (finishReason SAFETY)');
  expect(calls).toHaveLength(2);
});

describe('Gemini on Vertex AI (PLATFORM_3_VERTEX_PROJECT, D239)', () => {
  const vertexProject = 'shop-visibility-7';

  test('the same generateContent request goes to the project\'s publisher model, the API key in x-goog-api-key', async () => {
    const answer = expectOk(await createPlatform3Client({ ...settings(), vertexProject }, testDeps().deps).ask('decaf coffee'));
    const req = fake.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/projects/shop-visibility-7/locations/global/publishers/google/models/gemini-3.5-flash-lite:generateContent');
    expect(req.headers['x-goog-api-key']).toBe(fake.key);
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'decaf coffee' }] }], tools: [{ google_search: {} }] });
    expect(answer.citations).toEqual(['https://harborpine.example/', 'https://rival.example/shop']);
    expect(answer.obtainedVia).toBe('generateContent (Vertex AI) + google_search grounding');
  });

  test('the location is the one the endpoint serves: a regional host names it, the global host and any other are global', () => {
    expect(vertexLocationOf('https://us-central1-aiplatform.googleapis.com')).toBe('us-central1');
    expect(vertexLocationOf('https://europe-west4-aiplatform.googleapis.com/')).toBe('europe-west4');
    expect(vertexLocationOf('https://aiplatform.googleapis.com')).toBe('global');
    expect(vertexLocationOf('http://127.0.0.1:4010')).toBe('global');
    expect(vertexLocationOf('not a url')).toBe('global');
    expect(generateContentPath('gemini-2.5-pro', { project: vertexProject, location: 'europe-west4' }))
      .toBe('/v1/projects/shop-visibility-7/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent');
    expect(generateContentPath('gemini-2.5-pro', null)).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
  });

  test('a wrong key is the vendor\'s 401, not an answer; a project id that is not one leaves platform_3 not configured, sending nothing', async () => {
    expect((await createPlatform3Client({ ...settings(), apiKey: 'not-the-key', vertexProject }, testDeps().deps).ask('x')).ok).toBe(false);
    fake.reset();
    const bad = await createPlatform3Client({ ...settings(), vertexProject: 'Shop_Visibility' }, testDeps().deps).ask('x');
    expect(expectFailure(bad, 'unconfigured').reason).toMatch(/^PLATFORM_3_VERTEX_PROJECT is not a Google Cloud project id/);
    expect(fake.requests).toEqual([]);
  });
});
