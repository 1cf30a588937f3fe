/** Every number the spec and DECISIONS.md state, in one place. */

/** The eight AI platforms, in their fixed order (spec: Platform keys). */
export const PLATFORM_KEYS = [
  'platform_1', 'platform_2', 'platform_3', 'platform_4',
  'platform_5', 'platform_6', 'platform_7', 'platform_8',
] as const;
export type PlatformKey = (typeof PLATFORM_KEYS)[number];
/** What a visit's AI platform can be (core/site/ai-bots.ts BotPlatformId): a platform key, or unknown for an unrecognised crawler. */
export const BOT_PLATFORM_IDS = [...PLATFORM_KEYS, 'unknown'] as const;

/**
 * Fleet-wide limits per AI platform (all Lambda instances together), unless set by
 * PLATFORM_CONCURRENCY, PLATFORM_RATE_PER_MINUTE, PLATFORM_DAILY_BUDGET. Chosen with the
 * capacity simulation (bench/capacity.ts, D168) so 10,000 businesses finish within 20 h of
 * the 14:00 UTC start with every check made: 24 calls in flight, 120 a minute (a day needs
 * 10 × N calls per platform: at least 84/min for 10,000 businesses; set it at or below each
 * vendor account's tier), 120,000 checks a day (10,000 businesses × 10 prompts, +20%; it is
 * also the spending ceiling: lower it for a smaller fleet).
 */
export const PLATFORM_LIMIT_DEFAULTS = { concurrency: 24, ratePerMinute: 120, dailyBudget: 120_000 } as const;

export const SCORE_MIN = 0;
export const SCORE_MAX = 100;
/** First score calculation seeds two days of history (spec rule 5). */
export const SEEDED_HISTORY = [
  { daysBefore: 2, score: 0 },
  { daysBefore: 1, score: 35 },
] as const;
export const HISTORY_RETENTION_DAYS = 365;

export const PROMPTS_SAMPLED_PER_DAY = 10;
export const BUSINESS_PROMPTS = 50;
export const BUSINESS_SEARCH_API_PROMPTS = 10;
export const PRODUCT_PROMPTS_REGENERATE = 10;
export const PRODUCT_PROMPTS_CRON = 10; // D9
export const ONBOARDING_PROMPTS_PER_PRODUCT = 5;
export const ONBOARDING_PROMPTS_MIN_TOTAL = 50;

export const MAX_PAGES_MAPPED = 5000;
export const MAX_AUTO_COMPETITORS = 10;
export const MAX_USER_COMPETITORS = 2;
export const COMPETITOR_RESEARCH_RESULTS = 5;

/** Article quota policies (D10). */
export const ARTICLE_QUOTA_ONE_TIME_BURST = 1000;
export const ARTICLE_QUOTA_WEEKLY_TARGET = 100;
export const ARTICLE_QUOTA_WEEKLY_BUSINESS = 50;
export const ARTICLE_QUOTA_WEEKLY_PRODUCTS = 50;
export const ARTICLE_QUOTA_WEEKLY_MAX_PRODUCTS = 50;

/** Public rate limits, requests per minute per client IP (spec: Limits; D13, D14). */
export const RATE_LIMITS = {
  validateStore: { limit: 5, windowSeconds: 60 },
  productNames: { limit: 5, windowSeconds: 60 },
  competitorResearch: { limit: 10, windowSeconds: 60 },
  /** POST /webhooks/ai-recommendation-store: one beacon per page a JS-running crawler renders, per address. */
  aiRecommendation: { limit: 120, windowSeconds: 60 },
} as const;
export type RateLimitName = keyof typeof RATE_LIMITS;

/** Why search-backed steps are skipped: no web search provider is configured. */
export const NO_SEARCH_API = 'no search API configured (SEARCH_API_URL)';

/** update-edge-function: distributions move 10 at a time, with 1 s between batches (spec: Limits). */
export const EDGE_UPDATE_BATCH_SIZE = 10;
export const EDGE_UPDATE_BATCH_PAUSE_SECONDS = 1;
/**
 * How long a rollout holds the one-at-a-time lease when its execution cannot be asked (the
 * spec's estimate is about 15 minutes for 1,000 distributions; a held lease whose execution
 * has ended is taken over at once).
 */
export const EDGE_ROLLOUT_LEASE_SECONDS = 6 * 60 * 60;
export const EDGE_PROPAGATION_WAIT_SECONDS = 10;
/** The daily run looks for its vendor batches' results this often (they take minutes to hours, within 24 h). */
export const VISIBILITY_BATCH_POLL_SECONDS = 600;
/**
 * Domain connection, Part 2: between looks at the native certificate while the certificate
 * manager validates it (minutes once the records are in DNS); `NATIVE_CERTIFICATE_MAX_LOOKS`
 * looks (3 hours) before the workflow stops waiting and the free certificate stays.
 */
export const NATIVE_CERTIFICATE_WAIT_SECONDS = 300;
/** D18: webmaster verification is polled 12 times, 10 s apart, after Part 2; not verified by then → FAILED. */
export const VERIFICATION_POLL_ATTEMPTS = 12;
export const VERIFICATION_POLL_INTERVAL_SECONDS = 10;
export const NATIVE_CERTIFICATE_MAX_LOOKS = 36;
export const WEBMASTER_POLL_INTERVAL_SECONDS = 10;
export const WEBMASTER_POLL_ATTEMPTS = 12;
export const MEMBER_CACHE_TTL_SECONDS = 300;
export const WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS = 300;

/** Sitemaps protocol limits (D23). */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

/**
 * The organization slug (business_id / org_slug / org_id are the same string): the request
 * schemas (http/schemas.ts orgSlug), a token's org_id claim and the metrics' business all use
 * this one rule. Here, not in http/schemas.ts, so the auth and endpoint modules every route
 * loads do not pull that module's zod schemas into every bundle.
 */
export const ORG_SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,127}$/i;
