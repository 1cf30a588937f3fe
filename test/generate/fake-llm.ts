/**
 * A real OpenAI-compatible chat-completions server on loopback for the model-engine
 * tests. It records every request, can hold answers until N requests are in flight (to
 * prove the calls run in parallel), and answers through a per-test responder.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type CallKind = 'overview' | 'faqs' | 'products' | 'unknown';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw request body. */
  raw: string;
  body: {
    model?: string;
    temperature?: number;
    response_format?: { type?: string };
    messages?: Array<{ role: string; content: string }>;
  };
  kind: CallKind;
  /** 1-based count of requests of this kind so far (retries increase it). */
  attempt: number;
}

export type Reply =
  | { status?: number; content: string; headers?: Record<string, string> }
  | { status: number; body: string; headers?: Record<string, string> }
  | { destroy: true }
  | { delayMs: number; then: Reply };

export interface FakeLlm {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests in flight when the first answer was sent. */
  pendingAtFirstAnswer: number | null;
  countOf(kind: CallKind): number;
  close(): Promise<void>;
}

export function kindOf(userMessage: string): CallKind {
  if (userMessage.includes('Task: write the store overview')) return 'overview';
  if (userMessage.includes("Task: write the store's questions and answers")) return 'faqs';
  if (userMessage.includes('Task: write one short summary per product')) return 'products';
  return 'unknown';
}

/** Product ids listed in a product-summary prompt. */
export function idsInPrompt(userMessage: string): string[] {
  return [...userMessage.matchAll(/^- id: ([^ |]+)/gm)].map((m) => m[1]);
}

/** Product lines of a product-summary prompt: id, name and type. */
export function productsInPrompt(userMessage: string): Array<{ id: string; name: string; type: string }> {
  return [...userMessage.matchAll(/^- id: ([^ |]+) \| name: ([^|\n]+?)(?: \| type: ([^|\n]+?))?(?: \||$)/gm)]
    .map((m) => ({ id: m[1], name: m[2], type: m[3] ?? '' }));
}

/**
 * Valid model answers for each call kind (what a well-behaved model would return): every
 * sentence is supported by the fixture store's content (D36 grounding keeps them all).
 */
export function validContent(req: RecordedRequest): string {
  const user = req.body.messages?.find((m) => m.role === 'user')?.content ?? '';
  if (req.kind === 'overview') {
    return JSON.stringify({
      summary: '{{STORE}} roasts small-batch specialty coffee and blends loose leaf tea in Portland.',
      description: '{{STORE}} is a small roastery and tea house.\n\nIt sells coffee, tea and brewing gear online.',
      industry: 'specialty coffee and tea',
      audience: 'Home brewers and curious coffee drinkers',
      categories: ['Coffee', 'Tea', 'Brewing Gear', 'Coffee'],
      keyFacts: ['Free shipping on all US orders over $45.', 'All teas are certified organic.'],
    });
  }
  if (req.kind === 'faqs') {
    return JSON.stringify({
      faqs: [
        { question: 'What does {{STORE}} sell?', answer: '{{STORE}} sells specialty coffee, loose leaf tea and brewing gear.' },
        { question: 'Does {{STORE}} offer free shipping?', answer: 'Yes, on US orders over $45.' },
        { question: 'Does {{STORE}} offer free shipping?', answer: 'Duplicate question, dropped.' },
      ],
    });
  }
  if (req.kind === 'products') {
    const summaries: Record<string, string> = {};
    for (const p of productsInPrompt(user)) summaries[p.id] = `{{STORE}} sells ${p.name}${p.type ? ` (${p.type})` : ''}.`;
    return JSON.stringify({ productSummaries: summaries });
  }
  return '{}';
}

export function completion(content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });
}

export async function startFakeLlm(options: {
  respond?: (req: RecordedRequest) => Reply | Promise<Reply>;
  /** Hold every answer until this many requests have arrived (released after 5 s regardless). */
  holdUntil?: number;
} = {}): Promise<FakeLlm> {
  const respond = options.respond ?? ((req: RecordedRequest) => ({ content: validContent(req) }));
  const requests: RecordedRequest[] = [];
  const counts = new Map<CallKind, number>();
  let pending = 0;
  let arrived = 0;
  let released = !options.holdUntil;
  const waiting: Array<() => void> = [];
  const release = () => {
    released = true;
    waiting.splice(0).forEach((fn) => fn());
  };
  const safety = options.holdUntil ? setTimeout(release, 5000) : null;
  const state = { pendingAtFirstAnswer: null as number | null };

  const send = async (res: import('node:http').ServerResponse, reply: Reply): Promise<void> => {
    if ('delayMs' in reply) {
      await new Promise((r) => setTimeout(r, reply.delayMs));
      return send(res, reply.then);
    }
    if (state.pendingAtFirstAnswer === null) state.pendingAtFirstAnswer = pending;
    if ('destroy' in reply) {
      res.socket?.destroy();
      return;
    }
    const status = reply.status ?? 200;
    const body = 'content' in reply ? completion(reply.content) : reply.body;
    if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json', ...reply.headers }).end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: RecordedRequest['body'] = {};
      try { body = JSON.parse(raw) as RecordedRequest['body']; } catch { /* recorded as is */ }
      const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
      const kind = kindOf(user);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, kind, attempt: counts.get(kind)! };
      requests.push(recorded);
      pending++;
      arrived++;
      if (!released && options.holdUntil && arrived >= options.holdUntil) release();
      if (!released) await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        await send(res, await respond(recorded));
      } finally {
        pending--;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get pendingAtFirstAnswer() { return state.pendingAtFirstAnswer; },
    countOf: (kind) => requests.filter((r) => r.kind === kind).length,
    close: () => new Promise((resolve) => {
      if (safety) clearTimeout(safety);
      release();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
