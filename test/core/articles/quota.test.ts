import {
  ArticleQuotaResponse,
  computeArticleQuota,
  DEFAULT_QUOTA_POLICY,
  QuotaEntity,
  QuotaInput,
  selectRotatingProducts,
  splitRoundRobin,
  weekBounds,
  weekIndex,
} from '../../../functions/core/articles/quota';
import { ValidationError } from '../../../functions/core/errors';
import { addDays } from '../../../functions/core/visibility/score';

const TODAY = '2026-03-04'; // Wednesday; week 2026-03-02..2026-03-08, week index 2930
const BUSINESS: QuotaEntity = { id: 'biz-1', name: 'Acme Store', articleCount: 12 };

/** n products with ids p0000.., names "Product 0000".., articleCount = index (so p0000 has the fewest). */
function products(n: number, articleCount: (i: number) => number = (i) => i): QuotaEntity[] {
  return Array.from({ length: n }, (_, i) => {
    const tag = String(i).padStart(4, '0');
    return { id: `p${tag}`, name: `Product ${tag}`, articleCount: articleCount(i) };
  });
}

function quota(partial: Partial<QuotaInput>): ArticleQuotaResponse {
  return computeArticleQuota({
    policy: 'one-time-burst',
    orgSlug: 'acme',
    today: TODAY,
    articlesThisWeek: 0,
    business: BUSINESS,
    products: [],
    ...partial,
  });
}

function sum(res: ArticleQuotaResponse): number {
  return res.products.reduce((a, p) => a + p.daily_quota, 0);
}

describe('weekBounds (Monday..Sunday, UTC)', () => {
  it.each([
    ['2026-03-02', '2026-03-02', '2026-03-08'], // Monday
    ['2026-03-04', '2026-03-02', '2026-03-08'], // Wednesday
    ['2026-03-08', '2026-03-02', '2026-03-08'], // Sunday
    ['2026-03-09', '2026-03-09', '2026-03-15'], // next Monday resets
    ['2026-12-31', '2026-12-28', '2027-01-03'], // Thursday across the year boundary
    ['2027-01-01', '2026-12-28', '2027-01-03'],
    ['2027-01-03', '2026-12-28', '2027-01-03'], // Sunday of that week
    ['2027-01-04', '2027-01-04', '2027-01-10'],
    ['2024-02-29', '2024-02-26', '2024-03-03'], // leap day
    ['2025-12-29', '2025-12-29', '2026-01-04'], // Monday in the old year
    ['2026-01-01', '2025-12-29', '2026-01-04'],
    ['1970-01-05', '1970-01-05', '1970-01-11'],
  ])('%s → %s..%s', (today, weekStart, weekEnd) => {
    expect(weekBounds(today)).toEqual({ weekStart, weekEnd });
  });

  it.each(['2026-02-30', '2026-3-4', ''])('rejects malformed today %p', (today) => {
    expect(() => weekBounds(today)).toThrow(RangeError);
  });
});

describe('weekIndex (rotation epoch Monday 1970-01-05)', () => {
  it.each([
    ['1970-01-05', 0],
    ['1970-01-12', 1],
    ['2026-03-02', 2930],
    ['2026-03-09', 2931],
    ['1969-12-29', -1],
  ])('%s → %i', (weekStart, index) => {
    expect(weekIndex(weekStart)).toBe(index);
  });
});

describe('splitRoundRobin', () => {
  it.each([
    // budget, n, expected shares in fewest-first order
    [1000, 1, [1000]],
    [1000, 3, [334, 333, 333]],
    [1000, 7, [143, 143, 143, 143, 143, 143, 142]],
    [50, 3, [17, 17, 16]],
    [49, 50, Array(49).fill(1)],
    [5, 0, []],
    [0, 3, []],
  ])('%i over %i → %p', (budget, n, shares) => {
    expect(splitRoundRobin(budget, products(n)).map((p) => p.daily_quota)).toEqual(shares);
  });

  it('gives the remainder to the products with the fewest articles, whatever the input order', () => {
    const input: QuotaEntity[] = [
      { id: 'c', name: 'C', articleCount: 9 },
      { id: 'a', name: 'A', articleCount: 1 },
      { id: 'b', name: 'B', articleCount: 5 },
    ];
    expect(splitRoundRobin(1000, input).map((p) => [p.id, p.daily_quota, p.total_articles])).toEqual([
      ['a', 334, 1],
      ['b', 333, 5],
      ['c', 333, 9],
    ]);
  });

  it('breaks ties by name, then id', () => {
    const input: QuotaEntity[] = [
      { id: 'z2', name: 'Same', articleCount: 0 },
      { id: 'y', name: 'Beta', articleCount: 0 },
      { id: 'z1', name: 'Same', articleCount: 0 },
      { id: 'x', name: 'Alpha', articleCount: 0 },
      { id: 'w', name: 'Alpha', articleCount: 3 },
    ];
    expect(splitRoundRobin(7, input).map((p) => [p.id, p.daily_quota])).toEqual([
      ['x', 2],
      ['y', 2],
      ['z1', 1],
      ['z2', 1],
      ['w', 1],
    ]);
    // Deterministic regardless of input order.
    expect(splitRoundRobin(7, [...input].reverse())).toEqual(splitRoundRobin(7, input));
  });

  it('name order is by code unit, not locale', () => {
    const input: QuotaEntity[] = [
      { id: '1', name: 'apple', articleCount: 0 },
      { id: '2', name: 'Banana', articleCount: 0 },
    ];
    expect(splitRoundRobin(3, input).map((p) => p.name)).toEqual(['Banana', 'apple']);
  });
});

describe('one-time-burst (default policy)', () => {
  it('is the default policy', () => {
    expect(DEFAULT_QUOTA_POLICY).toBe('one-time-burst');
  });

  it.each([0, 1, 3, 7, 10, 50, 51, 1000, 1001, 2500])('first run with %i products', (n) => {
    const res = quota({ products: products(n) });
    expect(res.org_slug).toBe('acme');
    expect(res.week_start).toBe('2026-03-02');
    expect(res.week_end).toBe('2026-03-08');
    expect(res.weekly_target).toBe(1000);
    expect(res.articles_this_week).toBe(0);
    expect(res).not.toHaveProperty('business');
    expect(res.message).toEqual(expect.any(String));
    if (n === 0) {
      expect(res.products).toEqual([]);
      expect(res.total_daily_quota).toBe(0);
      expect(res).not.toHaveProperty('architecture');
      expect(res).not.toHaveProperty('total_products');
      expect(res).not.toHaveProperty('articles_remaining');
      expect(res.message).toMatch(/No products/);
      expect(res.message).toMatch(/\b0\b/);
      return;
    }
    expect(res.architecture).toBe('one-time-burst');
    expect(res.total_products).toBe(n);
    expect(res.articles_remaining).toBe(1000);
    expect(res.total_daily_quota).toBe(1000);
    expect(sum(res)).toBe(1000);
    expect(res.products).toHaveLength(Math.min(n, 1000));
    const shares = res.products.map((p) => p.daily_quota);
    expect(Math.min(...shares)).toBe(Math.max(1, Math.floor(1000 / n)));
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    // Non-increasing: the extra articles go to the front (fewest articles).
    shares.forEach((s, i) => i > 0 && expect(s).toBeLessThanOrEqual(shares[i - 1]!));
    // Ordered by article_count ascending.
    res.products.forEach((p, i) => i > 0 && expect(p.total_articles).toBeGreaterThanOrEqual(res.products[i - 1]!.total_articles));
    expect(res.message).toContain('1000');
    expect(res.message).toContain(String(Math.min(n, 1000)));
  });

  it.each([
    [1, [1000]],
    [3, [334, 333, 333]],
    [7, [143, 143, 143, 143, 143, 143, 142]],
    [10, Array(10).fill(100)],
    [50, Array(50).fill(20)],
    [51, [...Array(31).fill(20), ...Array(20).fill(19)]], // 1000 = 51*19 + 31
  ])('%i products get exact shares %p', (n, shares) => {
    expect(quota({ products: products(n) }).products.map((p) => p.daily_quota)).toEqual(shares);
  });

  it('1000 products: one each; 1001 products: the one with the most articles is left out', () => {
    const thousand = quota({ products: products(1000) });
    expect(thousand.products.every((p) => p.daily_quota === 1)).toBe(true);
    expect(thousand.total_products).toBe(1000);

    const more = quota({ products: products(1001) });
    expect(more.products).toHaveLength(1000);
    expect(more.total_products).toBe(1001);
    expect(more.products.some((p) => p.id === 'p1000')).toBe(false);
    expect(more.products.every((p) => p.daily_quota > 0)).toBe(true);
    expect(more.message).toMatch(/1 product with the most articles gets none/);
  });

  it('products are ordered by article_count ascending, remainder to the fewest', () => {
    const input: QuotaEntity[] = [
      { id: 'p-many', name: 'Many', articleCount: 40 },
      { id: 'p-none', name: 'None', articleCount: 0 },
      { id: 'p-some', name: 'Some', articleCount: 7 },
    ];
    expect(quota({ products: input }).products).toEqual([
      { id: 'p-none', name: 'None', daily_quota: 334, total_articles: 0 },
      { id: 'p-some', name: 'Some', daily_quota: 333, total_articles: 7 },
      { id: 'p-many', name: 'Many', daily_quota: 333, total_articles: 40 },
    ]);
  });

  it('ties: all equal counts, remainder by name then id', () => {
    const input = products(7, () => 5).reverse();
    const res = quota({ products: input });
    expect(res.products.map((p) => p.id)).toEqual(['p0000', 'p0001', 'p0002', 'p0003', 'p0004', 'p0005', 'p0006']);
    expect(res.products[6]!.daily_quota).toBe(142);
  });

  it.each([1, 2, 999, 1000, 5000])('later run with %i articles this week: quota 0', (articlesThisWeek) => {
    const res = quota({ products: products(3), articlesThisWeek });
    expect(res).toEqual({
      org_slug: 'acme',
      week_start: '2026-03-02',
      week_end: '2026-03-08',
      weekly_target: 1000,
      articles_this_week: articlesThisWeek,
      total_products: 3,
      products: [],
      total_daily_quota: 0,
      architecture: 'one-time-burst',
      message: expect.stringContaining(String(articlesThisWeek)),
    });
    expect(res.message).toContain('2026-03-09'); // reset Monday
  });

  it('no products on a later run: still the no-products shape', () => {
    const res = quota({ products: [], articlesThisWeek: 4 });
    expect(res.total_daily_quota).toBe(0);
    expect(res.products).toEqual([]);
    expect(res).not.toHaveProperty('architecture');
    expect(res).not.toHaveProperty('total_products');
  });

  it('the business entity never gets articles', () => {
    const res = quota({ products: products(3) });
    expect(res.products.some((p) => p.id === BUSINESS.id)).toBe(false);
    expect(res).not.toHaveProperty('business');
  });

  it('week bounds reset on Monday (Sunday and Monday in different weeks)', () => {
    expect(quota({ today: '2026-03-08', products: products(1) }).week_start).toBe('2026-03-02');
    expect(quota({ today: '2026-03-09', products: products(1) }).week_start).toBe('2026-03-09');
  });

  it('does not mutate the input products', () => {
    const input = products(5).reverse();
    const snapshot = JSON.parse(JSON.stringify(input));
    quota({ products: input });
    expect(input).toEqual(snapshot);
  });
});

describe('weekly-100 policy', () => {
  const weekly = (partial: Partial<QuotaInput>) => quota({ policy: 'weekly-100', ...partial });

  it.each([
    // n, business, product shares
    [0, 100, []],
    [1, 50, [50]],
    [3, 50, [17, 17, 16]],
    [7, 50, [8, 7, 7, 7, 7, 7, 7]],
    [10, 50, Array(10).fill(5)],
    [50, 50, Array(50).fill(1)],
    [51, 50, Array(50).fill(1)],
    [1000, 50, Array(50).fill(1)],
    [1001, 50, Array(50).fill(1)],
  ])('%i products: business %i, products %p', (n, business, shares) => {
    const res = weekly({ products: products(n) });
    expect(res.weekly_target).toBe(100);
    expect(res.architecture).toBe('weekly-100');
    expect(res.articles_remaining).toBe(100);
    expect(res.total_daily_quota).toBe(100);
    expect(res.business).toEqual({ id: 'biz-1', name: 'Acme Store', daily_quota: business, total_articles: 12 });
    expect(res.products.map((p) => p.daily_quota)).toEqual(shares);
    expect(business + sum(res)).toBe(100);
    if (n === 0) expect(res).not.toHaveProperty('total_products');
    else expect(res.total_products).toBe(n);
    expect(res.message).toContain(String(business));
    expect(res.message).toContain('100');
  });

  it('1-50 products: all are included', () => {
    const res = weekly({ products: products(50) });
    expect(new Set(res.products.map((p) => p.id))).toEqual(new Set(products(50).map((p) => p.id)));
  });

  it('51 products: a window of 50 by id starting at (weekIndex*50) mod 51', () => {
    // week index 2930: offset 2930*50 mod 51 = 28 → ids 28..50 then 0..26; p0027 is out.
    const res = weekly({ products: products(51) });
    const ids = new Set(res.products.map((p) => p.id));
    expect(ids.size).toBe(50);
    expect(ids.has('p0027')).toBe(false);
    expect(res.message).toMatch(/rotating selection of 50 of 51 products/);
  });

  it('120 products: the window wraps around and moves by 50 each week', () => {
    const all = products(120);
    const ids = (today: string) =>
      selectRotatingProducts(all, weekBounds(today).weekStart).map((p) => p.id);
    const idx = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `p${String(from + i).padStart(4, '0')}`);
    // index 2930 → offset 100: 100..119 then 0..29
    expect(ids('2026-03-04')).toEqual([...idx(100, 120), ...idx(0, 30)]);
    // index 2931 → offset 30
    expect(ids('2026-03-09')).toEqual(idx(30, 80));
    // index 2932 → offset 80
    expect(ids('2026-03-16')).toEqual([...idx(80, 120), ...idx(0, 10)]);
    // Same week, any day: same selection.
    expect(ids('2026-03-08')).toEqual(ids('2026-03-02'));
  });

  it('over consecutive weeks every product is selected', () => {
    const all = products(137);
    const seen = new Set<string>();
    const weeks = Math.ceil(137 / 50); // 3
    for (let w = 0; w < weeks; w++) {
      selectRotatingProducts(all, addDays('2026-03-02', 7 * w)).forEach((p) => seen.add(p.id));
    }
    expect(seen.size).toBe(137);
  });

  it('rotation is by id, independent of input order and article counts', () => {
    const a = products(75);
    const b = [...products(75, (i) => 1000 - i)].reverse();
    const sel = (ps: QuotaEntity[]) => selectRotatingProducts(ps, '2026-03-02').map((p) => p.id);
    expect(sel(b)).toEqual(sel(a));
  });

  it('selected products are then ordered fewest articles first', () => {
    const res = weekly({ products: products(3, (i) => 10 - i) });
    expect(res.products.map((p) => [p.id, p.daily_quota])).toEqual([
      ['p0002', 17],
      ['p0001', 17],
      ['p0000', 16],
    ]);
  });

  it.each([
    // articlesThisWeek, n, remaining, business, product total, number of products listed
    [0, 3, 100, 50, 50, 3],
    [1, 3, 99, 50, 49, 3],
    [1, 50, 99, 50, 49, 49],
    [50, 3, 50, 25, 25, 3],
    [51, 3, 49, 25, 24, 3],
    [98, 3, 2, 1, 1, 1],
    [99, 3, 1, 1, 0, 0],
    [100, 3, 0, 0, 0, 0],
    [101, 3, 0, 0, 0, 0],
    [500, 60, 0, 0, 0, 0],
    [0, 0, 100, 100, 0, 0],
    [30, 0, 70, 70, 0, 0],
    [99, 0, 1, 1, 0, 0],
    [100, 0, 0, 0, 0, 0],
  ])(
    '%i already this week with %i products: remaining %i = business %i + products %i (%i listed)',
    (articlesThisWeek, n, remaining, business, productTotal, listed) => {
      const res = weekly({ products: products(n), articlesThisWeek });
      expect(res.articles_this_week).toBe(articlesThisWeek);
      expect(res.articles_remaining).toBe(remaining);
      expect(res.business!.daily_quota).toBe(business);
      expect(sum(res)).toBe(productTotal);
      expect(res.products).toHaveLength(listed);
      expect(res.products.every((p) => p.daily_quota > 0)).toBe(true);
      expect(res.total_daily_quota).toBe(remaining);
      expect(res.message).toContain(String(remaining === 0 ? articlesThisWeek : remaining));
    },
  );

  it('used-up week says when it resets', () => {
    const res = weekly({ products: products(3), articlesThisWeek: 100, today: '2026-12-31' });
    expect(res.message).toMatch(/Weekly target of 100 reached/);
    expect(res.message).toContain('2027-01-04');
    expect(res.week_start).toBe('2026-12-28');
    expect(res.week_end).toBe('2027-01-03');
  });
});

describe('validation', () => {
  it.each(['', '   '])('rejects org_slug %p with a ValidationError naming the field', (orgSlug) => {
    expect(() => quota({ orgSlug })).toThrow(ValidationError);
    expect(() => quota({ orgSlug })).toThrow('org_slug is required');
  });

  it.each([
    [{ policy: 'weekly-1000' as unknown as QuotaInput['policy'] }],
    [{ articlesThisWeek: -1 }],
    [{ articlesThisWeek: 1.5 }],
    [{ today: '2026-02-30' }],
    [{ products: [{ id: 'x', name: 'X', articleCount: -1 }] }],
  ])('rejects malformed internal input %p as a programming error', (partial) => {
    expect(() => quota(partial)).toThrow(RangeError);
  });
});
