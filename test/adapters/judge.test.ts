/**
 * The judge against a local OpenAI-compatible fake server (node:http on 127.0.0.1, port 0):
 * the request it sends, the verdicts it reads back for the fixed answer set, how model
 * output is reconciled with the answer (citations, competitor names), retries of invalid
 * output, and failure after retries (evaluateAnswer then falls back to the matcher).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../functions/logger';
import { createJudge, JUDGE_SYSTEM_PROMPT, type JudgeOptions } from '../../functions/adapters/external/model/judge';
import { evaluateAnswer } from '../../functions/core/visibility/evaluate';
import { matchAnswer } from '../../functions/core/visibility/mention-matcher';
import type { PlatformAnswer } from '../../functions/core/visibility/platform-answer';
import { answerOf, CASES, ENTITY, type AnswerCase } from '../fixtures/visibility-answers';

interface Received {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format: { type: string };
    temperature: number;
  };
}

type Reply = { status: number; content?: string; raw?: string };

let server: Server;
let baseUrl: string;
let received: Received[] = [];
/** What the fake answers; per test. */
let respond: (req: Received, index: number) => Reply = () => ({ status: 500 });

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      received.push(r);
      const reply = respond(r, received.length - 1);
      const payload = reply.raw ?? JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: r.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' }],
      });
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
});

const judgeOf = (extra: Partial<JudgeOptions> = {}) =>
  createJudge({ baseUrl, apiKey: 'sk-judge-test-key', model: 'judge-model-1', log: quiet, retryBaseMs: 1, retryMaxMs: 5, ...extra });

/** The fake judge's output for a case: its expected verdict, in the wire schema. */
function cannedOutput(c: AnswerCase): string {
  const citations = c.citations ?? [];
  return JSON.stringify({
    mentioned: c.expected.mentioned,
    recommended: c.expected.recommended,
    competitors_mentioned: c.expected.competitors,
    citations: citations.map((url, i) => ({ url, kind: c.expected.citations[i] })),
  });
}

/** The case whose answer text is in the request. */
function caseOf(r: Received): AnswerCase {
  const user = r.body.messages.find((m) => m.role === 'user')?.content ?? '';
  const found = CASES.find((c) => user.includes(`<<<ANSWER\n${c.text}\nANSWER>>>`));
  if (!found) throw new Error('unknown answer in the request');
  return found;
}

describe('the request', () => {
  test('model, messages with the entity, competitors, answer text and citations, json_object, the key only in the header', async () => {
    respond = (r) => ({ status: 200, content: cannedOutput(caseOf(r)) });
    const c = CASES.find((x) => x.id === 'ai-site-cited')!;
    const out = await judgeOf().evaluate(answerOf(c), ENTITY);
    expect(out.ok).toBe(true);
    expect(received).toHaveLength(1);
    const { headers, body } = received[0];
    expect(headers.authorization).toBe('Bearer sk-judge-test-key');
    expect(body.model).toBe('judge-model-1');
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.temperature).toBe(0);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0].content).toBe(JUDGE_SYSTEM_PROMPT);
    for (const key of ['"mentioned"', '"recommended"', '"competitors_mentioned"', '"citations"', '"ai_site"', '"competitor"']) {
      expect(body.messages[0].content).toContain(key);
    }
    const user = body.messages[1].content;
    expect(user).toContain('name: Sukha & Stone');
    expect(user).toContain('aliases: Sukha, PRO');
    expect(user).toContain('AI-site hosts: ai.sukhastone.com');
    expect(user).toContain('Cloud Nine Yoga Mat');
    expect(user).toContain('- Manduka (manduka.com)');
    expect(user).toContain('- Liforme\n');
    expect(user).toContain(c.text);
    expect(user).toContain('1. https://ai.sukhastone.com/faq\n2. https://www.manduka.com/pro\n3. https://example.org/guide');
    expect(JSON.stringify(body)).not.toContain('sk-judge-test-key');
  });

  test('a long answer is cut to maxAnswerChars, citations to maxCitations (the rest classified by the matcher)', async () => {
    respond = () => ({ status: 200, content: JSON.stringify({ mentioned: true, recommended: false, competitors_mentioned: [], citations: [{ url: 'https://a.example/1', kind: 'other' }] }) });
    const answer: PlatformAnswer = { ...answerOf(CASES[0]), text: `${'x'.repeat(500)} Sukha & Stone`, citations: ['https://a.example/1', 'https://sukhastone.com/x'] };
    const out = await judgeOf({ maxAnswerChars: 100, maxCitations: 1 }).evaluate(answer, ENTITY);
    const user = received[0].body.messages[1].content;
    expect(user).toContain('[... answer cut ...]');
    expect(user).not.toContain('Sukha & Stone\nANSWER>>>');
    expect(user).not.toContain('sukhastone.com/x');
    expect(out).toEqual({ ok: true, verdict: expect.objectContaining({ citations: [{ url: 'https://a.example/1', kind: 'other' }, { url: 'https://sukhastone.com/x', kind: 'store' }] }) });
  });
});

describe('verdicts on the fixed answer set', () => {
  test.each(CASES.map((c) => [c.id, c] as const))('%s: the judge\'s verdict, agreeing with the matcher', async (_id, c) => {
    respond = (r) => ({ status: 200, content: cannedOutput(caseOf(r)) });
    const judge = judgeOf();
    const out = await judge.evaluate(answerOf(c), ENTITY);
    expect(out).toEqual({
      ok: true,
      verdict: {
        mentioned: c.expected.mentioned,
        recommended: c.expected.recommended,
        competitorsMentioned: c.expected.competitors,
        citations: (c.citations ?? []).map((url, i) => ({ url, kind: c.expected.citations[i] })),
        by: 'judge',
      },
    });
    const e = await evaluateAnswer(answerOf(c), ENTITY, judge);
    expect(e.verdict.by).toBe('judge');
    expect(e.disagreement).toBe(false);
    expect(e.judgeError).toBeUndefined();
  });
});

describe('reading the output', () => {
  const c = CASES.find((x) => x.id === 'ai-site-cited')!;

  test('citations come back for exactly the answer\'s URLs: unknown ones dropped, missing ones classified by the matcher, loose URL forms accepted', async () => {
    respond = () => ({
      status: 200,
      content: JSON.stringify({
        mentioned: true,
        recommended: false,
        competitors_mentioned: [],
        citations: [
          { url: 'https://evil.example/injected', kind: 'store' },
          { url: 'https://manduka.com/pro/', kind: 'competitor' }, // www and trailing slash differ
          { url: 'https://ai.sukhastone.com/faq', kind: 'ai_site' },
        ],
      }),
    });
    const out = await judgeOf().evaluate(answerOf(c), ENTITY);
    if (!out.ok) throw new Error(out.reason);
    expect(out.verdict.citations).toEqual([
      { url: 'https://ai.sukhastone.com/faq', kind: 'ai_site' },
      { url: 'https://www.manduka.com/pro', kind: 'competitor' },
      { url: 'https://example.org/guide', kind: 'other' }, // missing: the matcher's kind
    ]);
  });

  test('competitor names map to the known ones, once each, never the entity; unknown brands kept as written; recommended implies mentioned', async () => {
    respond = () => ({
      status: 200,
      content: '```json\n' + JSON.stringify({
        mentioned: false,
        recommended: true,
        competitors_mentioned: ['harbor and pine', 'Sukha & Stone', 'MANDUKA', 'Manduka PRO', 'Acme Mats', 'gaiam.com', ' '],
      }) + '\n```',
    });
    const out = await judgeOf().evaluate(answerOf(CASES[0]), ENTITY);
    if (!out.ok) throw new Error(out.reason);
    expect(out.verdict.competitorsMentioned).toEqual(['Harbor & Pine', 'Manduka', 'Acme Mats', 'Gaiam']);
    expect(out.verdict.mentioned).toBe(true);
    expect(out.verdict.recommended).toBe(true);
    expect(out.verdict.citations).toEqual([]);
  });

  test('invalid JSON, then a valid answer: retried', async () => {
    respond = (r, i) => (i === 0 ? { status: 200, content: 'Sure! The entity is mentioned.' } : { status: 200, content: cannedOutput(caseOf(r)) });
    const judge = judgeOf();
    const out = await judge.evaluate(answerOf(c), ENTITY);
    expect(out.ok).toBe(true);
    expect(received).toHaveLength(2);
    expect(received[1].body).toEqual(received[0].body);
    expect(judge.stats()).toMatchObject({ calls: 2, failures: 1 });
  });

  test('output off the schema, then a valid answer: retried', async () => {
    respond = (r, i) => (i === 0
      ? { status: 200, content: JSON.stringify({ mentioned: 'yes', recommended: false, citations: [{ url: 'x', kind: 'blog' }] }) }
      : { status: 200, content: cannedOutput(caseOf(r)) });
    const out = await judgeOf().evaluate(answerOf(c), ENTITY);
    expect(out.ok).toBe(true);
    expect(received).toHaveLength(2);
  });

  test('invalid output on every attempt: {ok: false} with the validation reason', async () => {
    respond = () => ({ status: 200, content: JSON.stringify({ mentioned: true }) });
    const out = await judgeOf({ maxRetries: 1 }).evaluate(answerOf(c), ENTITY);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.reason).toMatch(/judge output failed validation: recommended/);
    expect(received).toHaveLength(2);
  });
});

describe('failure after retries', () => {
  test('HTTP 500 on every attempt: {ok: false}; evaluateAnswer falls back to the matcher with judgeError', async () => {
    respond = () => ({ status: 500, raw: '{"error":"overloaded, key sk-judge-test-key"}' });
    const judge = judgeOf({ maxRetries: 2 });
    const c = CASES.find((x) => x.id === 'numbered-list')!;
    const out = await judge.evaluate(answerOf(c), ENTITY);
    expect(out).toEqual({ ok: false, reason: expect.stringMatching(/HTTP 500/) });
    expect(received).toHaveLength(3);
    if (!out.ok) expect(out.reason).not.toContain('sk-judge-test-key');

    received = [];
    const e = await evaluateAnswer(answerOf(c), ENTITY, judge);
    expect(received).toHaveLength(3);
    expect(e.verdict).toEqual(matchAnswer(answerOf(c), ENTITY));
    expect(e.verdict.by).toBe('matcher');
    expect(e.verdict.recommended).toBe(true);
    expect(e.judgeError).toMatch(/HTTP 500/);
    expect(e.disagreement).toBe(false);
  });

  test('401 is not retried', async () => {
    respond = () => ({ status: 401, raw: '{"error":"bad key"}' });
    const out = await judgeOf().evaluate(answerOf(CASES[0]), ENTITY);
    expect(out.ok).toBe(false);
    expect(received).toHaveLength(1);
  });

  test('a judge disagreeing with the matcher is recorded', async () => {
    respond = () => ({ status: 200, content: JSON.stringify({ mentioned: false, recommended: false, competitors_mentioned: [], citations: [] }) });
    const c = CASES.find((x) => x.id === 'exact-recommend')!;
    const e = await evaluateAnswer(answerOf(c), ENTITY, judgeOf());
    expect(e.verdict).toMatchObject({ mentioned: false, by: 'judge' });
    expect(e.matcherVerdict).toMatchObject({ mentioned: true, recommended: true, by: 'matcher' });
    expect(e.disagreement).toBe(true);
  });
});

describe('the fleet limits (issue 21: the judge is a paid call too)', () => {
  const c = () => CASES.find((x) => x.id === 'numbered-list')!;
  const withUsage = (content: string, tokens: number) => JSON.stringify({
    id: 'chatcmpl-1', object: 'chat.completion', model: 'judge-model-1',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: tokens - 10, completion_tokens: 10, total_tokens: tokens },
  });

  test('each call takes a `judge` slot first and gives it back; the tokens are its cost units', async () => {
    const events: string[] = [];
    const limiter = {
      acquire: async (provider: string) => {
        events.push(`acquire ${provider}`);
        return { ok: true as const, release: async () => { events.push('release'); } };
      },
    };
    respond = (r) => { events.push('call'); return { status: 200, raw: withUsage(cannedOutput(caseOf(r)), 321) }; };
    const judge = judgeOf({ limiter });
    const out = await judge.evaluate(answerOf(c()), ENTITY);
    expect(out.ok).toBe(true);
    expect(events).toEqual(['acquire judge', 'call', 'release']);
    expect(judge.stats()).toMatchObject({ calls: 1, cost_units: 321, cost_unit: 'tokens', refused: 0 });
  });

  test('no slot: no call; the matcher decides that answer and the reason is recorded', async () => {
    const limiter = { acquire: async () => ({ ok: false as const, reason: 'daily budget of 0 checks on judge is spent' }) };
    respond = (r) => ({ status: 200, content: cannedOutput(caseOf(r)) });
    const judge = judgeOf({ limiter });
    const e = await evaluateAnswer(answerOf(c()), ENTITY, judge);
    expect(received).toHaveLength(0);
    expect(e.verdict).toEqual(matchAnswer(answerOf(c()), ENTITY));
    expect(e.verdict.by).toBe('matcher');
    expect(e.judgeError).toMatch(/fleet limit.*daily budget of 0 checks on judge is spent/);
    expect(judge.stats()).toMatchObject({ calls: 0, refused: 1, cost_units: 0 });
  });

  test('a failed call still gives its slot back', async () => {
    let held = 0;
    const limiter = { acquire: async () => { held++; return { ok: true as const, release: async () => { held--; } }; } };
    respond = () => ({ status: 401, raw: '{"error":"bad key"}' });
    const out = await judgeOf({ limiter }).evaluate(answerOf(c()), ENTITY);
    expect(out.ok).toBe(false);
    expect(held).toBe(0);
  });
});
