/**
 * Article quota for `GET /api/cron/ai-articles-quota` (spec: ai-articles-quota;
 * DECISIONS D10, D22).
 *
 * Two policies (D10), selected by configuration:
 * - `one-time-burst` (default, spec rules 1-5): 1,000 articles across the products on
 *   the first run of the week (no articles yet), 0 on any later run. Products only.
 * - `weekly-100` (spec rule 6): 100 per week, 50 for the business and 50 across at
 *   most 50 products (rotating selection when there are more).
 *
 * PURE: no I/O, no environment, no clock. The caller passes `today` (UTC), the number
 * of articles already created this week, and the entities with their article counts.
 */
import {
  ARTICLE_QUOTA_ONE_TIME_BURST,
  ARTICLE_QUOTA_WEEKLY_BUSINESS,
  ARTICLE_QUOTA_WEEKLY_MAX_PRODUCTS,
  ARTICLE_QUOTA_WEEKLY_PRODUCTS,
  ARTICLE_QUOTA_WEEKLY_TARGET,
} from '../constants';
import { ValidationError } from '../errors';
// Shared YYYY-MM-DD UTC arithmetic (one implementation for the whole core).
import { addDays, parseIsoDate } from '../visibility/score';

export type QuotaPolicy = 'one-time-burst' | 'weekly-100';
export const QUOTA_POLICIES: readonly QuotaPolicy[] = ['one-time-burst', 'weekly-100'];
export const DEFAULT_QUOTA_POLICY: QuotaPolicy = 'one-time-burst';

export interface QuotaEntity {
  id: string;
  name: string;
  /** Articles created for this entity so far (all time). */
  articleCount: number;
}

export interface QuotaInput {
  policy: QuotaPolicy;
  orgSlug: string;
  /** Current date, YYYY-MM-DD, UTC. */
  today: string;
  /** Articles already created in the current Monday..Sunday week. */
  articlesThisWeek: number;
  business: QuotaEntity;
  products: QuotaEntity[];
}

/** One item of `products` (and the shape of `business` under weekly-100). */
export interface ArticleQuotaItem {
  id: string;
  name: string;
  daily_quota: number;
  total_articles: number;
}

/** Response of ai-articles-quota (spec table; snake_case keys). */
export interface ArticleQuotaResponse {
  org_slug: string;
  /** Monday, YYYY-MM-DD. */
  week_start: string;
  /** Sunday, YYYY-MM-DD. */
  week_end: string;
  /** 1000 (one-time-burst) or 100 (weekly-100). */
  weekly_target: number;
  articles_this_week: number;
  /** Present on a first run (one-time-burst with products and no articles yet this week); always under weekly-100. */
  articles_remaining?: number;
  /** Present when products exist. */
  total_products?: number;
  /** Items with daily_quota 0 are left out. */
  products: ArticleQuotaItem[];
  /** one-time-burst: 1000 or 0. weekly-100: business + products allocated now. */
  total_daily_quota: number;
  /** Absent when no products exist under one-time-burst; always present under weekly-100. */
  architecture?: QuotaPolicy;
  /**
   * Addition beyond the spec table, weekly-100 only: the business entity's share
   * (the spec's one-time-burst policy never gives the business articles).
   */
  business?: ArticleQuotaItem;
  /** Human-readable sentence with the numbers. */
  message: string;
}

const MS_PER_DAY = 86_400_000;
/** A Monday: week index 0 of the weekly-100 product rotation. */
const ROTATION_EPOCH = '1970-01-05';

/** Monday..Sunday (ISO week) containing `today`, in UTC. */
export function weekBounds(today: string): { weekStart: string; weekEnd: string } {
  const ms = parseIsoDate(today);
  if (ms === null) throw new RangeError(`today must be a YYYY-MM-DD calendar date, got ${String(today)}`);
  const sinceMonday = (new Date(ms).getUTCDay() + 6) % 7; // Mon 0 .. Sun 6
  const weekStart = addDays(today, -sinceMonday);
  return { weekStart, weekEnd: addDays(weekStart, 6) };
}

/** Whole weeks between the rotation epoch (Monday 1970-01-05) and the week's Monday. */
export function weekIndex(weekStart: string): number {
  return Math.round((parseIsoDate(weekStart)! - parseIsoDate(ROTATION_EPOCH)!) / (7 * MS_PER_DAY));
}

/** Code-unit comparison: deterministic, independent of the runtime's locale. */
function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Fewest articles first; ties by name, then id. */
function byFewestArticles(a: QuotaEntity, b: QuotaEntity): number {
  return a.articleCount - b.articleCount || cmpStr(a.name, b.name) || cmpStr(a.id, b.id);
}

/**
 * Splits `budget` equally over `entities`: floor(budget / n) each, and the remainder
 * one each, round-robin, to those with the fewest articles first. The shares sum to
 * exactly `budget`. Returned in fewest-articles order, zero shares left out.
 */
export function splitRoundRobin(budget: number, entities: QuotaEntity[]): ArticleQuotaItem[] {
  const n = entities.length;
  if (n === 0 || budget <= 0) return [];
  const share = Math.floor(budget / n);
  const extra = budget % n;
  return [...entities]
    .sort(byFewestArticles)
    .map((e, i) => ({
      id: e.id,
      name: e.name,
      daily_quota: share + (i < extra ? 1 : 0),
      total_articles: e.articleCount,
    }))
    .filter((item) => item.daily_quota > 0);
}

/**
 * weekly-100 rotation: with more than 50 products, sort them by id and take the 50
 * starting at offset (weekIndex * 50) mod n, wrapping around. Each new week moves the
 * window on by 50, so every product is selected in turn, whatever the article counts.
 */
export function selectRotatingProducts(products: QuotaEntity[], weekStart: string): QuotaEntity[] {
  const n = products.length;
  if (n <= ARTICLE_QUOTA_WEEKLY_MAX_PRODUCTS) return [...products];
  const sorted = [...products].sort((a, b) => cmpStr(a.id, b.id));
  const offset = (((weekIndex(weekStart) * ARTICLE_QUOTA_WEEKLY_MAX_PRODUCTS) % n) + n) % n;
  return Array.from({ length: ARTICLE_QUOTA_WEEKLY_MAX_PRODUCTS }, (_, i) => sorted[(offset + i) % n]!);
}

function validate(input: QuotaInput): void {
  if (typeof input.orgSlug !== 'string' || input.orgSlug.trim() === '') {
    throw new ValidationError('org_slug is required');
  }
  // The rest comes from configuration, the clock and the database: programming errors.
  if (!QUOTA_POLICIES.includes(input.policy)) {
    throw new RangeError(`policy must be one of ${QUOTA_POLICIES.join(', ')}, got ${String(input.policy)}`);
  }
  if (!Number.isInteger(input.articlesThisWeek) || input.articlesThisWeek < 0) {
    throw new RangeError(`articlesThisWeek must be a non-negative integer, got ${input.articlesThisWeek}`);
  }
  for (const e of [input.business, ...input.products]) {
    if (!Number.isInteger(e.articleCount) || e.articleCount < 0) {
      throw new RangeError(`articleCount of ${e.id} must be a non-negative integer, got ${e.articleCount}`);
    }
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function shareRange(items: ArticleQuotaItem[]): string {
  const q = items.map((i) => i.daily_quota);
  const lo = Math.min(...q);
  const hi = Math.max(...q);
  return lo === hi ? `${lo} each` : `${lo}-${hi} each`;
}

/**
 * Computes the ai-articles-quota response. Throws ValidationError for an empty
 * org_slug, RangeError for malformed internal inputs.
 */
export function computeArticleQuota(input: QuotaInput): ArticleQuotaResponse {
  validate(input);
  const { weekStart, weekEnd } = weekBounds(input.today);
  const common = {
    org_slug: input.orgSlug,
    week_start: weekStart,
    week_end: weekEnd,
    articles_this_week: input.articlesThisWeek,
  };
  return input.policy === 'weekly-100'
    ? weekly100(input, common)
    : oneTimeBurst(input, common);
}

type Common = Pick<ArticleQuotaResponse, 'org_slug' | 'week_start' | 'week_end' | 'articles_this_week'>;

function oneTimeBurst(input: QuotaInput, common: Common): ArticleQuotaResponse {
  const target = ARTICLE_QUOTA_ONE_TIME_BURST;
  const n = input.products.length;
  const week = `${common.week_start}..${common.week_end}`;

  // Rule 4: no products, quota 0; no architecture, no total_products.
  if (n === 0) {
    return {
      ...common,
      weekly_target: target,
      products: [],
      total_daily_quota: 0,
      message: `No products found for ${input.orgSlug}: article quota is 0 for week ${week} (articles are created for products only).`,
    };
  }

  // Rule 1: any later run of the week (articles already exist) gets 0.
  if (input.articlesThisWeek > 0) {
    return {
      ...common,
      weekly_target: target,
      total_products: n,
      products: [],
      total_daily_quota: 0,
      architecture: 'one-time-burst',
      message:
        `${plural(input.articlesThisWeek, 'article')} already created in week ${week}: ` +
        `quota is 0 for ${plural(n, 'product')} until the week resets on Monday ${addDays(common.week_start, 7)}.`,
    };
  }

  // Rules 1, 3, 5: the first run spreads 1,000 over the products, fewest articles first.
  const products = splitRoundRobin(target, input.products);
  const skipped = n - products.length; // only when n > 1000
  return {
    ...common,
    weekly_target: target,
    articles_remaining: target,
    total_products: n,
    products,
    total_daily_quota: target,
    architecture: 'one-time-burst',
    message:
      `First run of week ${week}: ${target} articles allocated across ${plural(products.length, 'product')} ` +
      `(${shareRange(products)})` +
      (skipped > 0
        ? `; ${plural(skipped, 'product')} with the most articles ${skipped === 1 ? 'gets' : 'get'} none this week.`
        : '.'),
  };
}

/**
 * weekly-100 (rule 6). Plan: business 50 and 50 across at most 50 products (business
 * 100 when there are no products). What was already created this week is subtracted:
 * remaining = max(0, 100 - articlesThisWeek). With nothing remaining, everything is 0.
 * Otherwise the plan is scaled onto `remaining`: the business gets
 * min(businessTarget, ceil(remaining * businessTarget / 100)), and the products split
 * the rest round-robin, fewest articles first.
 */
function weekly100(input: QuotaInput, common: Common): ArticleQuotaResponse {
  const target = ARTICLE_QUOTA_WEEKLY_TARGET;
  const n = input.products.length;
  const week = `${common.week_start}..${common.week_end}`;
  const businessTarget = n === 0 ? target : ARTICLE_QUOTA_WEEKLY_BUSINESS;
  const remaining = Math.max(0, target - input.articlesThisWeek);

  const businessQuota =
    remaining === 0 ? 0 : Math.min(businessTarget, Math.ceil((remaining * businessTarget) / target));
  const productBudget = n === 0 ? 0 : Math.min(ARTICLE_QUOTA_WEEKLY_PRODUCTS, remaining - businessQuota);
  const selected = selectRotatingProducts(input.products, common.week_start);
  const products = splitRoundRobin(productBudget, selected);
  const productTotal = products.reduce((a, p) => a + p.daily_quota, 0);

  let message: string;
  if (remaining === 0) {
    message =
      `Weekly target of ${target} reached in week ${week} (${plural(input.articlesThisWeek, 'article')} created): ` +
      `quota is 0 until the week resets on Monday ${addDays(common.week_start, 7)}.`;
  } else {
    const selection =
      n > ARTICLE_QUOTA_WEEKLY_MAX_PRODUCTS
        ? ` (rotating selection of ${selected.length} of ${n} products)`
        : '';
    message =
      `Week ${week}: ${remaining} of ${target} articles remaining; ` +
      `business ${businessQuota}, ${productTotal} across ${plural(products.length, 'product')}${selection}.`;
  }

  return {
    ...common,
    weekly_target: target,
    articles_remaining: remaining,
    ...(n > 0 ? { total_products: n } : {}),
    products,
    total_daily_quota: businessQuota + productTotal,
    architecture: 'weekly-100',
    business: {
      id: input.business.id,
      name: input.business.name,
      daily_quota: businessQuota,
      total_articles: input.business.articleCount,
    },
    message,
  };
}
