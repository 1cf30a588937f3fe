/**
 * Verified AI visits (issue 35, D193) on the local stack: the daily schedule's
 * RefreshCrawlerAddresses task fetches the vendors' published lists (a fixture mirror in the
 * vendors' own format, test/fixtures/crawler-addresses, served over HTTP and named by
 * CRAWLER_ADDRESS_LISTS_URL) through the guarded client; a visit claiming a vendor's agent is
 * then checked against the address the service itself saw.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { getContainer } from '../../functions/container';
import { MAX_RANGES_PER_VENDOR } from '../../functions/core/visits/published-addresses';
import { crawlerAddressesOf } from '../../functions/engines/crawler-addresses';
import { itemSizes } from '../../functions/local/runtime/table-items';
import { AI_CRAWLER_SAMPLES, SEARCH_CRAWLER_SAMPLES } from '../fixtures/ai-user-agents';
import { startTestStack, DEV_API_KEY, type TestStack } from '../support/stack';

const MIRROR_DIR = join(__dirname, '..', 'fixtures', 'crawler-addresses');
const ORG = 'verified-visits';
const ua = (list: typeof AI_CRAWLER_SAMPLES, name: string) => list.find((s) => s.name === name)!.ua!;
const GPTBOT = ua(AI_CRAWLER_SAMPLES, 'GPTBot 1.1');
const CLAUDEBOT = ua(AI_CRAWLER_SAMPLES, 'ClaudeBot');
const GOOGLEBOT = SEARCH_CRAWLER_SAMPLES.find((s) => /Googlebot\/2\.1/.test(s.ua ?? ''))!.ua!;
const DEEPSEEK = 'Mozilla/5.0 (compatible; DeepSeekBot/1.0; +https://www.deepseek.com/bot)';

let stack: TestStack;
let mirror: Server;
let mirrorRequests: string[] = [];

const beacon = (userAgent: string, path: string, from: string, extra: Record<string, unknown> = {}) =>
  stack.call('POST', '/webhooks/ai-recommendation-store', {
    rawBody: JSON.stringify({ page_url: `http://${ORG}.localhost${path}`, user_agent: userAgent, ...extra }),
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'X-Forwarded-For': from },
  });
const visits = async (query = '') => stack.call('GET', `/api/ai-recommendations/${ORG}?from=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}${query}`, { token: await stack.token(ORG) });

beforeAll(async () => {
  mirror = createServer(async (req, res) => {
    mirrorRequests.push(req.url ?? '');
    const file = normalize(join(MIRROR_DIR, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    try {
      if (!file.startsWith(MIRROR_DIR) || !file.endsWith('.json')) throw new Error('not a list');
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
  stack = await startTestStack({ LOG_LEVEL: 'error', CRAWLER_ADDRESS_LISTS_URL: `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/` });
  const res = await stack.call('POST', '/api/business', { token: await stack.token(ORG), body: { name: 'Verified Visits', url: 'verified-visits-shop.example' } });
  expect(res.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => mirror.close(resolve));
});

test('the daily schedule refreshes the published lists through the guarded client; a vendor whose list fails keeps none', async () => {
  mirrorRequests = [];
  const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [ORG] } });
  expect(started.status).toBe(202);
  await stack.workflows.finished(started.body.execution_id);
  expect(mirrorRequests).toEqual(expect.arrayContaining(['/openai.com/gptbot.json', '/openai.com/searchbot.json', '/openai.com/chatgpt-user.json', '/claude.com/crawling/bots.json']));
  const lists = new Map((await crawlerAddressesOf(getContainer()).all()).map((l) => [l.vendor, l]));
  expect(lists.get('OpenAI')).toMatchObject({ ranges: expect.arrayContaining(['20.171.206.0/24', '51.8.102.0/24', '23.98.142.176/28']), error: null });
  expect(lists.get('OpenAI')!.ranges).toHaveLength(12);
  expect(lists.get('Google')!.ranges).toEqual(expect.arrayContaining(['66.249.64.0/27', '2001:4860:4801:10::/64']));
  // Anthropic is not in the mirror: its failure is recorded with the reason, and it has no ranges.
  expect(lists.get('Anthropic')).toMatchObject({ ranges: [], fetchedAt: null, error: expect.stringMatching(/claude\.com\/crawling\/bots\.json answered HTTP 404/) });
}, 120_000);

test('GPTBot from an address OpenAI publishes is verified; the same claim from elsewhere is kept apart and not counted', async () => {
  const real = await beacon(GPTBOT, '/ai/real/', '20.171.206.17');
  expect(real.body).toEqual({ status: 'success', platform_id: 'platform_1', platform_name: 'ChatGPT', message: 'visit recorded' });
  const spoof = await beacon(GPTBOT, '/ai/spoof/', '203.0.113.50');
  expect(spoof.status).toBe(200);
  expect(spoof.body).toMatchObject({ status: 'success', platform_id: 'platform_1', message: expect.stringMatching(/^claims to be GPTBot \(OpenAI\) from an address outside OpenAI's published ones: kept apart as unverified, not counted/) });
  // The body's ip_address is the caller's word: naming an OpenAI address there verifies nothing.
  const claimed = await beacon(GPTBOT, '/ai/claimed/', '203.0.113.51', { ip_address: '20.171.206.18' });
  expect(claimed.body.message).toMatch(/kept apart as unverified/);

  const counted = await visits();
  expect([counted.status, counted.body.error]).toEqual([200, undefined]);
  expect(counted.body).toMatchObject({ total: 1, verified: 1, unverifiable: 0, unverified: 2 });
  expect(counted.body.by_platform.platform_1).toBe(1);
  expect(counted.body.unverified_by_platform.platform_1).toBe(2);
  expect(counted.body.visits.map((v: any) => [v.path, v.verified])).toEqual([['/ai/real/', true]]);
  const apart = await visits('&verified=false');
  expect(apart.body.visits.map((v: any) => v.path).sort()).toEqual(['/ai/claimed/', '/ai/spoof/']);
  expect(apart.body.visits.every((v: any) => v.verified === false)).toBe(true);
});

test('vendors with no list held give null and are counted; a spoofed Googlebot is not counted as search crawling', async () => {
  const before = (await visits()).body;
  // Anthropic's list could not be fetched; DeepSeek publishes none.
  expect((await beacon(CLAUDEBOT, '/ai/claude/', '203.0.113.60')).body.message).toBe('visit recorded');
  expect((await beacon(DEEPSEEK, '/ai/deepseek/', '203.0.113.61')).body.message).toBe('visit recorded');
  const googleReal = await beacon(GOOGLEBOT, '/ai/g-real/', '66.249.66.5');
  expect(googleReal.body.message).toMatch(/^search-engine crawler/);
  const googleSpoof = await beacon(GOOGLEBOT, '/ai/g-spoof/', '198.51.100.77');
  expect(googleSpoof.body.message).toMatch(/^claims to be Googlebot \(Google\) from an address outside Google's published ones/);

  const after = (await visits()).body;
  expect(after.total - before.total).toBe(2);
  expect(after.unverifiable - before.unverifiable).toBe(2);
  expect(after.verified).toBe(before.verified);
  expect(after.unverified).toBe(before.unverified);
  expect(after.search_engines - before.search_engines).toBe(1);
  const listed = after.visits.filter((v: any) => ['/ai/claude/', '/ai/deepseek/'].includes(v.path));
  expect(listed.map((v: any) => v.verified)).toEqual([null, null]);
});

test('IPv6 and IPv4-mapped addresses are matched in canonical form', async () => {
  const v6 = await beacon(GOOGLEBOT, '/ai/g-v6/', '2001:4860:4801:10::2a');
  expect(v6.body.message).toMatch(/^search-engine crawler/);
  const mapped = await beacon(GPTBOT, '/ai/mapped/', '::ffff:20.171.206.99');
  expect(mapped.body.message).toBe('visit recorded');
  const listed = (await visits()).body.visits.find((v: any) => v.path === '/ai/mapped/');
  expect(listed).toMatchObject({ verified: true, ip_address: '20.171.206.99' });
});

test('a vendor\'s item stays under 350 KB at its worst case (5,000 of the longest IPv6 ranges)', async () => {
  const ranges = Array.from({ length: MAX_RANGES_PER_VENDOR }, (_, i) => `2001:db8:ffff:${(0x1000 + i).toString(16)}:ffff:ffff:ffff:ffff/128`);
  await crawlerAddressesOf(getContainer()).save('Mistral AI', ranges, new Date().toISOString());
  const sizes = await itemSizes(stack.database.endpoint, stack.config.tableName, stack.config.region);
  const item = sizes.find((s) => s.sk === 'VENDOR#Mistral AI')!;
  expect(item.bytes).toBeGreaterThan(200 * 1024);
  expect(item.bytes).toBeLessThan(350 * 1024);
});
