/**
 * The API reference page (issue 26): headless Chromium opens GET /docs on the local API, finds
 * every route of the manifest rendered from GET /openapi.json, and performs one real call
 * through the page's try-it (GET /health against the same API).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { ROUTES } from '../../functions/routes';
import { startTestStack, type TestStack } from '../support/stack';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const describeWithBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

describeWithBrowser('the API reference page in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startTestStack({ LOG_LEVEL: 'warn' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  test('every route of the manifest is on the page, and a try-it call reaches the API', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${stack.api.url}/docs`, { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const rendered = await page.$$eval('.opblock-summary', (blocks) => blocks.map((b) => {
      const method = b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
      const pathCell = b.querySelector('.opblock-summary-path');
      const path = pathCell?.getAttribute('data-path') ?? pathCell?.textContent?.trim() ?? '';
      return `${method} ${path.replace(/\u200b/g, '')}`;
    }));
    expect(rendered.length).toBeGreaterThan(0);
    for (const route of ROUTES) expect(rendered).toContain(`${route.method} ${route.path}`);

    // One real call: GET /health through "Try it out" → "Execute".
    const health = page.locator('.opblock-get', { has: page.locator('[data-path="/health"]') }).first();
    await health.locator('.opblock-summary').click();
    // Try-it is on by default (tryItOutEnabled); the button then says Cancel.
    const tryIt = health.locator('button.try-out__btn', { hasText: 'Try it out' });
    if (await tryIt.count()) await tryIt.click();
    await health.locator('button.execute').click();
    const status = health.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    // "200 Undocumented": the document lists success as 2XX, which the page does not match to 200.
    expect((await status.textContent())?.trim()).toMatch(/^200\b/);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});
