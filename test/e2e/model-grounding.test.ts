/**
 * Issue 20, "done when": a model that invents a claim about the store sees it dropped
 * everywhere it would have appeared. The whole local stack runs with `LLM_*` pointing at a
 * real OpenAI-compatible server on loopback that states an invented claim (a place, a
 * guarantee) in every answer: the narrative parts of onboarding (llms.txt summary, AI home,
 * key facts, Q&A, product summaries, data.json) and the daily run's articles. No published
 * file carries the claim; the articles the model wrote are published with its grounded
 * sentences, and 2a's result counts what the check dropped.
 */
import { getContainer } from '../../functions/container';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startFakeLlm, validContent, type FakeLlm, type RecordedRequest } from '../generate/fake-llm';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'inventing';
const CLAIM = '{{STORE}} roasts every bean on a solar-powered roaster in Reykjavik and offers a lifetime guarantee.';
const INVENTED = /reykjavik|solar-powered|lifetime guarantee/i;
const key = { apiKey: DEV_API_KEY };

let stack: TestStack;
let store: DemoStore;
let llm: FakeLlm;
/** The daily run's record for the business. */
let run: any;

/** Every answer the model gives holds the invented claim beside what the prompt's facts say. */
function inventing(req: RecordedRequest): string {
  const user = req.body.messages?.find((m) => m.role === 'user')?.content ?? '';
  if (user.startsWith('QUESTION:')) {
    const facts = [...user.matchAll(/^- (.+)$/gm)].map((m) => m[1]!).slice(0, 2);
    return JSON.stringify({ answer: [...facts.map((f) => (/[.!]$/.test(f) ? f : `${f}.`)), CLAIM] });
  }
  const valid = JSON.parse(validContent(req)) as Record<string, any>;
  if (req.kind === 'overview') return JSON.stringify({ ...valid, summary: CLAIM, keyFacts: [CLAIM] });
  if (req.kind === 'faqs') return JSON.stringify({ faqs: [{ question: 'Where does {{STORE}} roast?', answer: CLAIM }, ...valid.faqs] });
  if (req.kind === 'products') {
    const summaries = Object.fromEntries(Object.entries(valid.productSummaries as Record<string, string>).map(([id, s]) => [id, `${s} ${CLAIM}`]));
    return JSON.stringify({ productSummaries: summaries });
  }
  return JSON.stringify(valid);
}

beforeAll(async () => {
  llm = await startFakeLlm({ respond: (req) => ({ content: inventing(req) }) });
  store = await startDemoStore({ port: 0 });
  stack = await startTestStack(
    { LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'inventing-model' },
    { workflows: { retryWithoutDelay: true } },
  );
  const token = await stack.token(ORG);
  await stack.call('POST', '/api/business', { token, body: { name: 'Harbor & Pine Coffee Co.', url: store.origin } });
  const onboarding = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  await stack.workflows.finished(onboarding.body.execution_id);
  const daily = await stack.call('POST', '/api/cron/trigger-all', { ...key, body: { business_ids: [ORG] } });
  await stack.workflows.finished(daily.body.execution_id);
  run = (await stack.call('GET', daily.body.status_url, key)).body.businesses.runs[0];
}, 300_000);

afterAll(async () => {
  await stack?.close();
  await store?.close();
  await llm?.close();
});

test('the model was asked for the narrative and for articles', () => {
  expect(llm.countOf('overview')).toBeGreaterThan(0);
  expect(llm.requests.filter((r) => r.body.messages?.some((m) => m.content.startsWith('QUESTION:'))).length).toBeGreaterThan(0);
});

test('no published file states the invented claim: llms.txt, data.json, the AI home, Q&A, product pages, articles', async () => {
  const release = await getContainer().siteStore.readCurrent(ORG);
  expect(release!.files.length).toBeGreaterThan(50);
  const carrying = release!.files.filter((f) => INVENTED.test(f.content)).map((f) => f.path);
  expect(carrying).toEqual([]);
});

test('the model\'s articles are published with their grounded sentences, and 2a counts what was dropped', async () => {
  const articles = await getContainer().articles.list(ORG);
  const byModel = articles.filter((a) => a.engine === 'model');
  expect(byModel.length).toBeGreaterThan(0);
  expect(run.steps['2a'].result).toMatchObject({ written_by: { model: byModel.length }, cost_unit: 'tokens' });
  expect(run.steps['2a'].result.ungrounded_sentences_dropped).toBeGreaterThanOrEqual(byModel.length);
  const release = await getContainer().siteStore.readCurrent(ORG);
  const page = release!.files.find((f) => f.path === `${byModel[0]!.article_path}index.html`)!;
  expect(page.content).toMatch(/<h1>[^<]+\?<\/h1>/);
});
