/** A real OpenAI-compatible chat-completions server on 127.0.0.1:0 for the prompt-model tests. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  raw: string;
  headers: Record<string, string | string[] | undefined>;
  path: string;
  user: string;
  kind: 'business' | 'products' | 'unknown';
  /** Product ids listed in a product prompt. */
  ids: string[];
}

export type ChatReply = { status?: number; content?: string; body?: string };

export interface FakeChat {
  baseUrl: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

export function completion(content: string): string {
  return JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
}

export async function startFakeChat(respond: (req: ChatRequest) => ChatReply): Promise<FakeChat> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let user = '';
      try {
        const body = JSON.parse(raw) as { messages?: Array<{ role: string; content: string }> };
        user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
      } catch { /* recorded as is */ }
      const kind = user.includes('"prompts": string[]') ? 'business' : user.includes('"products": {"<id>"') ? 'products' : 'unknown';
      const ids = [...user.matchAll(/^- id: ([^ |]+)/gm)].map((m) => m[1]);
      const recorded: ChatRequest = { raw, headers: req.headers, path: req.url ?? '', user, kind, ids };
      requests.push(recorded);
      const reply = respond(recorded);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(reply.body ?? completion(reply.content ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
