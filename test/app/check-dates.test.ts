/**
 * D180: a publish of changed parts moves the `Last checked` date only on the pages whose
 * content changed (the others keep the bytes they were published with, so a release of
 * shared objects uploads only those, D179); a full refresh moves every page and is what
 * `refreshDue` counts from. On the local stack's container with a clock per day.
 */
import { deploySite } from '../../functions/app/site/deploy';
import { getContainer, type Container } from '../../functions/container';
import type { SiteFile } from '../../functions/core/site/types';
import { startTestStackWithBusiness, type TestStack } from '../support/stack';

let stack: TestStack;
const ORG = 'check-dates';

beforeAll(async () => {
  stack = await startTestStackWithBusiness(ORG, { name: 'Check Dates Co.', url: 'https://check-dates.example' });
}, 60_000);
afterAll(async () => stack.close());

const onDay = (iso: string): Container => ({ ...getContainer(), clock: { now: () => new Date(iso) } });
const page = (path: string, text: string): SiteFile => ({
  path, contentType: 'text/html; charset=utf-8',
  content: `<!doctype html><html><head><title>${text}</title></head><body><main><p>${text}</p></main><footer>Last checked: January 1, 2026</footer></body></html>`,
});
const published = async () => new Map((await getContainer().siteStore.readCurrent(ORG))!.files.map((f) => [f.path, f.content]));
const checked = (html: string | undefined) => /Last checked: ([A-Za-z]+ \d+, \d{4})/.exec(html ?? '')?.[1];

test('changed parts: only the changed page gets the new check date; a full refresh moves every page', async () => {
  await deploySite(onDay('2026-11-24T14:00:00Z'), { orgSlug: ORG, files: [page('/a/index.html', 'A'), page('/b/index.html', 'B v1')], mode: 'replace' });
  const day1 = await published();
  expect([checked(day1.get('/a/index.html')), checked(day1.get('/b/index.html'))]).toEqual(['November 24, 2026', 'November 24, 2026']);
  expect((await getContainer().aiSites.get(ORG))!.checkedAt).toBe('2026-11-24T14:00:00.000Z');

  await deploySite(onDay('2026-11-25T14:00:00Z'), { orgSlug: ORG, files: [page('/a/index.html', 'A'), page('/b/index.html', 'B v2')], mode: 'replace', checkDates: 'changed' });
  const day2 = await published();
  expect(day2.get('/a/index.html')).toBe(day1.get('/a/index.html')); // the same bytes: nothing to upload
  expect(checked(day2.get('/b/index.html'))).toBe('November 25, 2026');
  expect(day2.get('/b/index.html')).toContain('B v2');
  const record = (await getContainer().aiSites.get(ORG))!;
  expect([record.deployedAt, record.checkedAt]).toEqual(['2026-11-25T14:00:00.000Z', '2026-11-24T14:00:00.000Z']);

  await deploySite(onDay('2026-11-26T14:00:00Z'), { orgSlug: ORG, files: [page('/a/index.html', 'A'), page('/b/index.html', 'B v2')], mode: 'replace' });
  const day3 = await published();
  expect([checked(day3.get('/a/index.html')), checked(day3.get('/b/index.html'))]).toEqual(['November 26, 2026', 'November 26, 2026']);
  expect((await getContainer().aiSites.get(ORG))!.checkedAt).toBe('2026-11-26T14:00:00.000Z');
}, 60_000);

test('2a counts the refresh due from the last full refresh, not from a publish of changed parts (D167, D180)', async () => {
  const { publishArticlesAndTimestamps, UNCHANGED_REFRESH_DAYS } = await import('../../functions/app/articles/daily');
  const { saveSitePart, publishSiteParts } = await import('../../functions/app/site/parts');
  const day = (n: number) => new Date(Date.parse('2026-12-01T14:00:00Z') + n * 86_400_000).toISOString();
  const input = (n: number) => ({ org_slug: ORG, run_date: day(n).slice(0, 10), execution_id: `check-dates-${n}` });
  await saveSitePart(onDay(day(0)), ORG, 'main', [page('/a/index.html', 'A'), page('/b/index.html', 'B v1')]);
  await publishSiteParts(onDay(day(0)), ORG); // a full refresh: checkedAt = day 0
  // Every day a part changes, so every day publishes; only the full refresh moves page A.
  for (let n = 1; n < UNCHANGED_REFRESH_DAYS; n++) {
    await saveSitePart(onDay(day(n)), ORG, 'main', [page('/a/index.html', 'A'), page('/b/index.html', `B v${n + 1}`)]);
    expect((await publishArticlesAndTimestamps(onDay(day(n)), input(n))).deployed).toBe(true);
  }
  expect(checked((await published()).get('/a/index.html'))).toBe('December 1, 2026');
  const record = (await getContainer().aiSites.get(ORG))!;
  expect([record.deployedAt!.slice(0, 10), record.checkedAt!.slice(0, 10)]).toEqual([day(UNCHANGED_REFRESH_DAYS - 1).slice(0, 10), '2026-12-01']);
  // The 28th day after the full refresh: due, though the site was published yesterday.
  await publishArticlesAndTimestamps(onDay(day(UNCHANGED_REFRESH_DAYS)), input(UNCHANGED_REFRESH_DAYS));
  expect(checked((await published()).get('/a/index.html'))).toBe('December 29, 2026');
}, 120_000);
