/**
 * Daily step 1b, recorded as the real task records it, doing its real work (the new products
 * become entities) and then never reporting back: the process is to be killed here
 * (test/e2e/daily-crash.test.ts). Loaded by path (a task override), so it runs wherever the
 * runtime runs tasks; it says it got here by writing `reached` in HANG_DIR (set in the
 * process's environment, which worker threads inherit).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverNewProducts } from '../../../functions/app/daily/products';
import { dailyTask } from '../../../functions/tasks/daily-task';

export const handler = dailyTask('1b', async (container, input) => {
  await discoverNewProducts(container, input.org_slug);
  const dir = process.env.HANG_DIR!;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'reached'), input.org_slug);
  return new Promise<never>(() => undefined);
});
