/** The per-product funnel over a window (D170): sums, rates with their interval, the drop-out rule, platform rows, paths. */
import { articleSlugOfPath, productOfVisitPath } from '../../../functions/core/site/paths';
import { dropOutOf, funnelOfDays, type FunnelDayItem } from '../../../functions/core/visibility/product-funnel';

const counts = (answered: number, cited = 0, mentioned = 0, recommended = 0) => ({ answered, cited, mentioned, recommended });
const day = (date: string, over: Partial<FunnelDayItem> = {}): FunnelDayItem => ({ date, crawled: 0, crawledBy: {}, purposes: {}, lastVisitAt: null, checks: null, ...over });

test('a window sums its days: visits by platform and purpose, the latest visit, the checks and their interval', () => {
  const f = funnelOfDays('zen-mat', { from: '2026-11-01', to: '2026-11-28' }, [
    day('2026-11-02', {
      crawled: 2, crawledBy: { platform_1: 2 }, purposes: { training: 2 }, lastVisitAt: '2026-11-02T10:00:00.000Z',
      checks: { ...counts(80, 1, 2, 1), by_platform: { platform_1: counts(10, 1, 1, 1), platform_2: counts(10, 0, 1, 0) }, competitors_instead: { 'Mat Co': 2 } },
    }),
    day('2026-11-03', {
      crawled: 1, crawledBy: { platform_2: 1 }, purposes: { search: 1 }, lastVisitAt: '2026-11-03T09:00:00.000Z',
      checks: { ...counts(80, 0, 1, 0), by_platform: { platform_2: counts(10, 0, 1, 0) }, competitors_instead: { 'Mat Co': 1, 'Yogi': 3 } },
    }),
  ], [
    // Every answered check of each day is the n, whether or not the product was named (8 platforms × 10 prompts; one day platform_1 had 10, platform_2 10).
    { date: '2026-11-02', answered: { platform_1: 10, platform_2: 10, platform_3: 60 } },
    { date: '2026-11-03', answered: { platform_1: 40, platform_2: 10, platform_3: 30 } },
    { date: '2026-11-04', answered: { platform_1: 5 } },
  ]);
  expect(f.crawled).toEqual({ visits: 3, by_platform: { platform_1: 2, platform_2: 1 }, by_purpose: { training: 2, search: 1 }, last_visit_at: '2026-11-03T09:00:00.000Z' });
  expect(f.answered).toBe(165);
  expect(f.cited).toEqual({ checks: 1 });
  expect(f.mentioned.checks).toBe(3);
  expect(f.mentioned.interval!.low).toBeGreaterThan(0);
  expect(f.mentioned.interval!.high).toBeLessThan(6);
  expect(f.recommended.checks).toBe(1);
  expect(f.drop_out).toBeNull();
  expect(f.recommended_instead).toEqual({ name: 'Mat Co', checks: 3 });
  expect(f.platforms).toEqual([
    { platform: 'platform_1', crawled: 2, answered: 55, cited: 1, mentioned: 1, recommended: 1, crawled_not_surfaced: false },
    { platform: 'platform_2', crawled: 1, answered: 20, cited: 0, mentioned: 2, recommended: 0, crawled_not_surfaced: false },
    { platform: 'platform_3', crawled: 0, answered: 90, cited: 0, mentioned: 0, recommended: 0, crawled_not_surfaced: false },
  ]);
});

test('crawled by a platform whose answers never cite or name it: the actionable row, even on a day the product was never asked about', () => {
  // No checks item for the product that day: only its visits; the day's totals still give the n.
  const f = funnelOfDays('kettle', { from: '2026-11-01', to: '2026-11-01' }, [
    day('2026-11-01', { crawled: 4, crawledBy: { platform_3: 4 } }),
  ], [{ date: '2026-11-01', answered: { platform_3: 10 } }]);
  expect(f.platforms).toEqual([{ platform: 'platform_3', crawled: 4, answered: 10, cited: 0, mentioned: 0, recommended: 0, crawled_not_surfaced: true }]);
  expect(f.drop_out).toBe('surface');
  expect(f.recommended_instead).toBeNull();
});

test('the drop-out rule: the last stage reached', () => {
  expect(dropOutOf({ crawled: 0, surfaced: 0, recommended: 0 })).toBe('crawl');
  expect(dropOutOf({ crawled: 3, surfaced: 0, recommended: 0 })).toBe('surface');
  expect(dropOutOf({ crawled: 3, surfaced: 1, recommended: 0 })).toBe('recommendation');
  expect(dropOutOf({ crawled: 0, surfaced: 1, recommended: 1 })).toBeNull();
  expect(funnelOfDays('none', { from: '2026-11-01', to: '2026-11-02' }, [], [])).toMatchObject({ answered: 0, mentioned: { checks: 0, interval: null }, drop_out: 'crawl', platforms: [] });
  expect(funnelOfDays('none', { from: '2026-11-01', to: '2026-11-02' }, [], [{ date: '2026-11-01', answered: { platform_1: 10 } }]))
    .toMatchObject({ answered: 10, mentioned: { checks: 0, interval: { low: 0 } }, drop_out: 'crawl' });
});

test('the product a path is about: its AI page, its llms file, its store page; an article path is looked up', () => {
  expect(productOfVisitPath('/ai/products/zen-mat/')).toBe('zen-mat');
  expect(productOfVisitPath('/ai/products/zen-mat/index.html')).toBe('zen-mat');
  expect(productOfVisitPath('/products/zen-mat')).toBe('zen-mat');
  expect(productOfVisitPath('/collections/mats/products/zen-mat?variant=1')).toBe('zen-mat');
  expect(productOfVisitPath('/llms/zen-mat.txt')).toBe('zen-mat');
  expect(productOfVisitPath('/llms/catalog/1.txt')).toBeNull();
  expect(productOfVisitPath('/llms.txt')).toBeNull();
  expect(productOfVisitPath('/ai/')).toBeNull();
  expect(articleSlugOfPath('/how-do-i-care-for-the-zen-mat/')).toBe('how-do-i-care-for-the-zen-mat');
  expect(articleSlugOfPath('/ai/how-do-i-care-for-the-zen-mat/')).toBe('how-do-i-care-for-the-zen-mat');
  expect(articleSlugOfPath('/ai/products/zen-mat/')).toBeNull();
});
