/**
 * What a browser sees on the AI site (Debian chromium, headless, driven by playwright-core):
 * no console errors, canonical and JSON-LD present, /tracking.js loads. A visit with an AI
 * crawler's User-Agent makes the tracking script post the visit to the API.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { onboardViaApi } from '../support/onboard';
import { startTestStack, type TestStack } from '../support/stack';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// CI installs Debian's chromium (.ci/run); without it these tests cannot run at all.
const describeWithBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

describeWithBrowser('AI pages in headless Chromium', () => {
  let stack: TestStack;
  let store: DemoStore;
  let browser: Browser;
  let beacons: Server;
  let received: Array<Record<string, unknown>>;
  let base: string;

  beforeAll(async () => {
    received = [];
    // Stands in for the API's tracking webhook: records what the script posts.
    beacons = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.method === 'POST') received.push(JSON.parse(body));
        res.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
      });
    });
    await new Promise<void>((r) => beacons.listen(0, '127.0.0.1', r));
    const beaconUrl = `http://127.0.0.1:${(beacons.address() as AddressInfo).port}`;
    stack = await startTestStack({ LOG_LEVEL: 'warn', API_PUBLIC_URL: beaconUrl });
    store = await startDemoStore({ products: 6 });
    await onboardViaApi(stack, 'harbor', 'Harbor & Pine Coffee Co.', store.origin);
    base = `http://harbor.localhost:${stack.sites.port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await store?.close();
    await stack?.close();
    await new Promise((r) => beacons.close(r));
  });

  async function visit(path: string, userAgent?: string) {
    const context = await browser.newContext(userAgent ? { userAgent } : {});
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`); });
    page.on('pageerror', (e) => errors.push(e.message));
    const tracking: number[] = [];
    page.on('response', (r) => { if (r.url().endsWith('/tracking.js')) tracking.push(r.status()); });
    const response = await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    return { page, context, errors, tracking, status: response?.status() };
  }

  test.each(['/ai/', '/ai/questions/', '/ai/collections/all/'])('%s: no console errors, canonical, JSON-LD, tracking.js loads', async (path) => {
    const { page, context, errors, tracking, status } = await visit(path);
    expect(status).toBe(200);
    expect(errors).toEqual([]);
    expect(tracking).toEqual([200]);
    // A page that copies a store page points at it; the AI home and the Q&A pages are their own (D113).
    const canonical = await page.locator('link[rel=canonical]').getAttribute('href');
    expect(canonical).toBe(path.startsWith('/ai/collections/') ? `${store.origin}/collections/all` : `${base}${path}`);
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.length).toBeGreaterThan(0);
    jsonLd.forEach((text) => expect(() => JSON.parse(text)).not.toThrow());
    await context.close();
  });

  test('a product page and a Q&A page render their structured data', async () => {
    const { page, context, errors } = await visit('/ai/');
    const productHref = await page.locator('a[href^="/ai/products/"]').first().getAttribute('href');
    const product = await visit(productHref!);
    const types = (await product.page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.stringify(JSON.parse(t)));
    expect(types.join(' ')).toContain('"Product"');
    expect(product.errors).toEqual([]);
    expect(errors).toEqual([]);
    await product.context.close();
    await context.close();
  });

  test('a human visit posts nothing; an AI crawler visit is posted to the tracking webhook', async () => {
    received.length = 0;
    // A person's browser: headless Chromium's own UA says "HeadlessChrome", an automated agent (D160).
    const human = await visit('/ai/', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36');
    await human.page.waitForTimeout(300);
    expect(received).toEqual([]);
    await human.context.close();
    const bot = await visit('/ai/', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)');
    await bot.page.waitForTimeout(500);
    expect(bot.errors).toEqual([]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ page_url: `${base}/ai/`, page_type: 'ai_site', user_agent: expect.stringContaining('GPTBot'), page_title: expect.any(String) });
    await bot.context.close();
  });
});
