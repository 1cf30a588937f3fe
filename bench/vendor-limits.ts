/**
 * The vendors' published figures the capacity model (capacity.ts) holds its settings against,
 * each with its source: VENDOR_LIMITS (batch queues, rates, search plans), the batch queue each
 * gives the simulation, the synchronous platforms' chosen rate and budget against them
 * (syncPlatformChecks), and the vendor accounts' monthly spend caps against the fleet's spend
 * (SPEND_CAPS, spendCapChecks, D229).
 */
import { PLATFORM_KEYS } from '../functions/core/constants';
import { ANSWER_ASSUMPTIONS, DAYS_PER_MONTH } from './cost-model';
import { int } from './lib';

/** Platforms whose checks go through vendor batches when `vendorBatches` is on (0-based: platform_1..platform_3). */
export const DEFAULT_BATCH_PLATFORMS: readonly number[] = [0, 1, 2];

/** One published (or, where none was found, assumed) vendor figure. */
export interface VendorLimit {
  platform: string;
  vendor: string;
  model: string;
  tier: string;
  /** null: no published figure was found. */
  limit: number | null;
  unit: string;
  kind: 'batch-queue-requests' | 'batch-queue-tokens' | 'batch-open-jobs' | 'batch-requests-per-job' | 'rpm' | 'tpm' | 'searches-per-hour' | 'searches-per-day' | 'searches-per-month';
  source: string;
  asOf: string;
  /** Set when the figure is not the vendor's published one for this model and tier: why, and what is used instead. */
  assumption?: string;
  note?: string;
}

const ANTHROPIC_RATE_LIMITS = 'https://docs.anthropic.com/en/api/rate-limits';
const ANTHROPIC_BATCHES = 'https://platform.claude.com/docs/en/build-with-claude/batch-processing';
const OPENAI_TIER1_COPY = 'https://community.openai.com/t/gpt-4o-rate-limits-being-30k-tpm-and-90k-tpd-does-that-mean-i-can-only-do-90k-tokens-in-a-day/1028595';
const OPENAI_TIERS_COPY = 'https://community.openai.com/t/don-see-any-option-to-request-increase-in-api-rate-limit-for-batch-api/1269349';
const OPENAI_BATCH_CREATE_COPY = 'https://www.w3cschool.cn/openai_api/openai_api-reference-resources-batches-methods-create.html';
const GEMINI_RATE_LIMITS = 'https://ai.google.dev/gemini-api/docs/rate-limits';
const GEMINI_LIMITS_COPY = 'https://rate-limits.apis.io/rate-limits/google-gemini/google-gemini-rate-limits/';
const VERTEX_GROUNDING = 'https://cloud.google.com/vertex-ai/generative-ai/docs/grounding/grounding-with-google-search';
const VERTEX_QUOTAS = 'https://cloud.google.com/vertex-ai/generative-ai/docs/quotas';
const VERTEX_BATCH = 'https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/batch-prediction-gemini';
const PERPLEXITY_TIERS = 'https://docs.perplexity.ai/docs/admin/rate-limits-usage-tiers';
const PARALLEL_RATE_LIMITS = 'https://docs.parallel.ai/getting-started/rate-limits';
const PARALLEL_DOCS_SOURCE = 'https://github.com/parallel-web/parallel-llms-txt';
const BRAVE_PLANS = 'https://api-dashboard.search.brave.com/app/plans';
const DEEPSEEK_RATE_LIMIT = 'https://api-docs.deepseek.com/quick_start/rate_limit';
const XAI_RATE_LIMITS = 'https://docs.x.ai/docs/key-information/consumption-and-rate-limits';
const SERPAPI_ACCOUNT = 'https://serpapi.com/account-api';
const SERPAPI_PLANS_COPY = 'https://hivebook.wiki/wiki/serpapi-google-bing-100-serp-api-for-ai-agents';
const DATAFORSEO_SERP = 'https://dataforseo.com/google-serp-api-data';

/**
 * Every vendor figure the capacity model uses, in ONE table: the batch limits that could bind at
 * 50,000 businesses and the synchronous limits of the models the service calls. Read through the
 * search tool on 2026-11-29 (not live): where a figure was read from a third-party copy of the
 * vendor's page, `note` says so; where no figure was found, `limit` is null or `assumption` says
 * what is used instead. CHECK each against the account's console before relying on it.
 */
export const VENDOR_LIMITS: readonly VendorLimit[] = [
  // platform_1: OpenAI
  { platform: 'platform_1', vendor: 'OpenAI', model: 'gpt-4.1-mini', tier: 'Tier 1', limit: 2_000_000, unit: 'enqueued input tokens (batch queue limit, per model)',
    kind: 'batch-queue-tokens', source: OPENAI_TIER1_COPY, asOf: '2024-11-01',
    assumption: 'gpt-4.1-mini\'s own batch queue limit NOT FOUND (OpenAI moved the per-tier tables to the model pages); the Tier-1 figure of gpt-4o-mini '
      + '(2,000,000) quoted from the docs\' table in the forum thread is used as a stand-in (conservative: higher tiers are larger)' },
  ...([['Tier 2', 20_000_000], ['Tier 3', 40_000_000], ['Tier 4', 1_000_000_000], ['Tier 5', 15_000_000_000]] as const).map(([tier, limit]): VendorLimit => ({
    platform: 'platform_1', vendor: 'OpenAI', model: 'gpt-4.1-mini', tier, limit, unit: 'enqueued input tokens (batch queue limit, per model)', kind: 'batch-queue-tokens',
    source: OPENAI_TIERS_COPY, asOf: '2025-06-01',
    assumption: 'gpt-4.1-mini\'s own figure NOT FOUND: gpt-4o-mini\'s per-tier batch queue limits (Tier 1 2M, 2 20M, 3 40M, 4 1B, 5 15B) as quoted from the docs in the forum thread are the stand-in',
  })),
  { platform: 'platform_1', vendor: 'OpenAI', model: 'gpt-4.1-mini', tier: 'all', limit: 50_000, unit: 'requests per batch input file',
    kind: 'batch-requests-per-job', source: OPENAI_BATCH_CREATE_COPY, asOf: '2026-11-12', note: 'copy of the API reference (Create batch): "up to 50,000 requests, up to 200 MB"' },
  { platform: 'platform_1', vendor: 'OpenAI', model: 'gpt-4.1-mini', tier: 'Tier 1', limit: 500, unit: 'requests per minute', kind: 'rpm', source: OPENAI_TIER1_COPY, asOf: '2024-11-01',
    assumption: 'gpt-4.1-mini\'s RPM NOT FOUND on a vendor page; gpt-4o-mini\'s Tier-1 500 RPM / 200,000 TPM used (only for the "before" comparison: platform 1 is batched after)' },
  // platform_2: Anthropic
  { platform: 'platform_2', vendor: 'Anthropic', model: 'claude-sonnet-5-5 (Message Batches, all models)', tier: 'Tier 1', limit: 100_000, unit: 'batch requests in the processing queue',
    kind: 'batch-queue-requests', source: ANTHROPIC_RATE_LIMITS, asOf: '2026-11-29', note: 'read from copies of the page\'s text held in public repositories (same table: 50 RPM, 100,000 queued, 100,000 per batch)' },
  { platform: 'platform_2', vendor: 'Anthropic', model: 'claude-sonnet-5-5 (Message Batches, all models)', tier: 'Tier 2', limit: 200_000, unit: 'batch requests in the processing queue',
    kind: 'batch-queue-requests', source: ANTHROPIC_RATE_LIMITS, asOf: '2026-11-29', note: 'Tiers 2-4 from a third-party summary of the page (200,000 / 300,000 / 500,000)' },
  { platform: 'platform_2', vendor: 'Anthropic', model: 'claude-sonnet-5-5 (Message Batches, all models)', tier: 'Tier 3', limit: 300_000, unit: 'batch requests in the processing queue',
    kind: 'batch-queue-requests', source: ANTHROPIC_RATE_LIMITS, asOf: '2026-11-29', note: 'third-party summary of the page' },
  { platform: 'platform_2', vendor: 'Anthropic', model: 'claude-sonnet-5-5 (Message Batches, all models)', tier: 'Tier 4', limit: 500_000, unit: 'batch requests in the processing queue',
    kind: 'batch-queue-requests', source: ANTHROPIC_RATE_LIMITS, asOf: '2026-11-29', note: 'third-party summary of the page' },
  { platform: 'platform_2', vendor: 'Anthropic', model: 'claude-sonnet-5-5', tier: 'all', limit: 100_000, unit: 'requests per Message Batch (or 256 MB)',
    kind: 'batch-requests-per-job', source: ANTHROPIC_BATCHES, asOf: '2026-11-29' },
  // platform_3: Google Gemini
  { platform: 'platform_3', vendor: 'Google', model: 'gemini-3.5-flash-lite (Batch Mode)', tier: 'all paid', limit: 100, unit: 'concurrent batch requests (jobs)',
    kind: 'batch-open-jobs', source: GEMINI_RATE_LIMITS, asOf: '2026-11-29', note: `read from third-party copies of the page (${GEMINI_LIMITS_COPY}): 100 concurrent batch requests, 2 GB input file, 20 GB storage` },
  // platform_3 through Gemini on Vertex AI (D239): synchronous only (the service has no Vertex batch client); Gemini models there run on dynamic shared quota
  { platform: 'platform_3', vendor: 'Google (Gemini on Vertex AI, D239)', model: 'gemini-3.5-flash-lite + Grounding with Google Search', tier: 'pay-as-you-go (dynamic shared quota)',
    limit: 1_000_000, unit: 'grounded queries per day (Grounding with Google Search)', kind: 'searches-per-day', source: VERTEX_GROUNDING, asOf: '2026-11-29',
    note: 'the grounding page: "Grounding with Google Search has a limit of one million queries per day. If you require more queries, contact Google Cloud support" '
      + `(read from a copy of the page); the model's own rate: "Newer models use Dynamic shared quota (DSQ) ... There are no quotas with DSQ" (${VERTEX_QUOTAS}), `
      + 'so no per-project request figure applies (capacity is shared, 429s possible under load: Provisioned Throughput buys a reserve). A grounded answer is '
      + `counted as one query (the cost model's assumption). Vertex batch inference (Cloud Storage input and output, 8 concurrent Gemini jobs, ${VERTEX_BATCH}) is not built` },
  // gemini-3.5-flash-lite has no row of its own in the copies read; the Flash-Lite rows of the page's three tier tables stand in
  ...([['Tier 1', 10_000_000], ['Tier 2', 500_000_000], ['Tier 3', 1_000_000_000]] as const).map(([tier, limit]): VendorLimit => ({
    platform: 'platform_3', vendor: 'Google', model: 'gemini-3.5-flash-lite (Batch Mode)', tier, limit, unit: 'enqueued tokens per model (all active batch jobs)',
    kind: 'batch-queue-tokens', source: GEMINI_RATE_LIMITS, asOf: '2026-11-29',
    assumption: 'gemini-3.5-flash-lite\'s own row NOT FOUND: the "Batch enqueued tokens" tables of the page (a copy held in a public repository, listing the '
      + 'Gemini 3 previews) give Gemini 2.5 Flash-Lite 10,000,000 / 500,000,000 / 1,000,000,000 at Tiers 1 / 2 / 3 (2.0 Flash-Lite 10M / 1B / 5B); '
      + 'the 2.5 Flash-Lite figures are the stand-in (Tier 3: $1,000 spent and 30 days, a fleet\'s first month)',
  })),
  // synchronous platforms after batching (4-8)
  { platform: 'platform_4', vendor: 'Perplexity', model: 'perplexity/sonar (Agent API)', tier: 'Tier 4-5 ($1,000+ purchased)', limit: 2_000, unit: 'requests per minute', kind: 'rpm',
    source: PERPLEXITY_TIERS, asOf: '2026-11-29',
    note: 'the Agent API table: Tier 0 50/min, 1 150, 2 500, 3 1,000, 4 and 5 2,000 (33 QPS); a 50,000 fleet spends past $1,000 in its first day. '
      + 'Sonar chat completions (50 RPM at tiers 0-1) were retired on 2026-09-27' },
  { platform: 'platform_5', vendor: 'Parallel Responses API (Copilot stand-in)', model: 'Responses API', tier: '-', limit: null, unit: 'requests per minute', kind: 'rpm', source: PARALLEL_RATE_LIMITS, asOf: '2026-11-29',
    assumption: 'the Responses API\'s rate NOT FOUND (the page publishes 300/min for the Chat API, POST /v1/chat/completions, a different endpoint): ASSUMED_VENDOR_RPM used' },
  { platform: 'platform_5', vendor: 'Parallel Task API (PLATFORM_5_MODEL=base-fast, D228)', model: 'Task runs (base-fast processor)', tier: 'default quota', limit: 2_000,
    unit: 'task runs created per minute (POST /v1/tasks/runs)', kind: 'rpm', source: PARALLEL_RATE_LIMITS, asOf: '2026-11-29',
    note: 'the rate-limits page: "Tasks/TaskGroups 2,000 per min", GET requests (results, status) not counted; the older Task Runs guide counts POST and GET '
      + 'alike: a check is one POST and one blocking result GET, 1,200 requests a minute at 600 checks a minute, still within 2,000. '
      + `Read from the vendor's docs source (${PARALLEL_DOCS_SOURCE}, public/docs/getting-started/rate-limits.md)` },
  { platform: 'platform_6', vendor: 'Brave Search + DeepSeek', model: 'Brave "Search" plan + deepseek-flash', tier: 'Search plan', limit: 3_000, unit: 'requests per minute (50 per second)', kind: 'rpm',
    source: `${BRAVE_PLANS} ${DEEPSEEK_RATE_LIMIT}`, asOf: '2026-11-29',
    note: 'Brave: 50 requests per second, no monthly cap; DeepSeek: 2,500 concurrent requests per account for the flash model (about 10,000/min at 15 s an answer), raised free on request' },
  { platform: 'platform_7', vendor: 'xAI', model: 'grok-4.3', tier: 'Tier 0 ($0 spent, the default)', limit: 1_800, unit: 'requests per minute (30 per second)', kind: 'rpm',
    source: XAI_RATE_LIMITS, asOf: '2026-11-29',
    note: 'the per-model table (docs.x.ai/docs/key-information/consumption-and-rate-limits): grok-4.3 30 / 40 / 60 / 100 / 166 requests per second and '
      + '10M / 15M / 25M / 45M / 85M tokens per minute at tiers 0-4 ($0, $50, $250, $1,000, $5,000 spent); the lowest tier is used. '
      + 'Tokens per minute can bind first: web search results are billed as input tokens' },
  { platform: 'platform_8', vendor: 'SerpApi', model: 'Google search + AI Overview', tier: 'Big Data plan', limit: 6_000, unit: 'searches per hour (account throughput)', kind: 'searches-per-hour',
    source: SERPAPI_ACCOUNT, asOf: '2026-11-29', note: `the Account API's example (Big Data plan: 30,000 searches/month, 6,000/hour); plan table copy: ${SERPAPI_PLANS_COPY}` },
  { platform: 'platform_8', vendor: 'SerpApi', model: 'Google search + AI Overview', tier: 'Big Data plan', limit: 30_000, unit: 'searches per month', kind: 'searches-per-month',
    source: SERPAPI_ACCOUNT, asOf: '2026-11-29', note: 'larger volumes: Enterprise plan, figures NOT FOUND' },
  { platform: 'platform_8', vendor: 'DataForSEO (PLATFORM_8_API_URL=https://api.dataforseo.com, D225)', model: 'Google Organic Live Advanced + AI Overview', tier: 'pay as you go',
    limit: 2_000, unit: 'API calls per minute (one live task each; no monthly cap)', kind: 'rpm', source: DATAFORSEO_SERP, asOf: '2026-11-29',
    note: 'the product page: "2,000 API calls per minute rate limit", "≤6 s average turnaround in Live mode", from $0.0006 per SERP in the Standard queue (Live costs more)' },
];

/** A vendor's batch queue as the simulation holds it: requests waiting or in processing, and jobs open at once. */
export interface BatchQueueLimit {
  /** Requests (checks) in the vendor's queue at once: a token limit divided by the tokens a check enqueues. */
  maxQueuedRequests: number;
  /** Batch jobs open at once (Gemini's concurrent batch requests); Infinity where none is published. */
  maxOpenJobs: number;
  /** Where the figures come from (text). */
  from: string;
}

/**
 * The batch queue of each batch platform from VENDOR_LIMITS ('highest': the largest tier figure found,
 * the most the published limits allow; 'lowest': the entry tier), a token limit divided by the input
 * tokens a check enqueues (cost-model ANSWER_ASSUMPTIONS); 'unbounded': no queue limit at all.
 */
export function batchQueueLimitsFor(platforms: readonly number[] = DEFAULT_BATCH_PLATFORMS, pick: 'highest' | 'lowest' | 'unbounded' = 'highest'): BatchQueueLimit[] {
  return platforms.map((p) => {
    if (pick === 'unbounded') return { maxQueuedRequests: Infinity, maxOpenJobs: Infinity, from: 'unbounded (no vendor queue limit)' };
    const key = PLATFORM_KEYS[p];
    const rows = VENDOR_LIMITS.filter((l) => l.platform === key);
    const queues = rows.filter((l) => (l.kind === 'batch-queue-requests' || l.kind === 'batch-queue-tokens') && l.limit !== null)
      .sort((a, b) => (pick === 'highest' ? b.limit! - a.limit! : a.limit! - b.limit!));
    const queue = queues[0];
    const jobs = rows.find((l) => l.kind === 'batch-open-jobs');
    const tokens = key ? ANSWER_ASSUMPTIONS[key].inputTokens : 1;
    let maxQueuedRequests = Infinity;
    let from = 'no queue figure';
    if (queue && queue.limit !== null) {
      maxQueuedRequests = queue.kind === 'batch-queue-tokens' ? Math.floor(queue.limit / tokens) : queue.limit;
      from = `${queue.vendor} ${queue.tier}: ${int(queue.limit)} ${queue.unit}` + (queue.kind === 'batch-queue-tokens' ? ` / ${int(tokens)} input tokens a check` : '')
        + (queue.assumption ? ' (assumption)' : '');
    }
    if (jobs && jobs.limit !== null) from += `; ${int(jobs.limit)} ${jobs.unit}`;
    return { maxQueuedRequests, maxOpenJobs: jobs?.limit ?? Infinity, from };
  });
}

/** A synchronous platform's chosen setting against its vendor's figure. */
export interface SyncCheck {
  platform: string;
  vendor: string;
  needed: string;
  published: string;
  /** true: within the published figure; false: beyond it; null: no published figure found. */
  allowed: boolean | null;
  source: string;
}

/** Each synchronous platform's rate and budget against VENDOR_LIMITS. */
export function syncPlatformChecks(limits: { ratePerMinute: number; dailyBudget: number }, syncPlatforms: readonly number[]): SyncCheck[] {
  return syncPlatforms.map((p) => {
    const key = PLATFORM_KEYS[p];
    const rows = VENDOR_LIMITS.filter((l) => l.platform === key && (l.kind === 'rpm' || l.kind === 'searches-per-hour' || l.kind === 'searches-per-day' || l.kind === 'searches-per-month'));
    const needed = `${int(limits.ratePerMinute)}/min, ${int(limits.dailyBudget)}/day`;
    const known = rows.filter((r) => r.limit !== null && !r.assumption);
    if (known.length === 0) {
      return { platform: key, vendor: rows[0] ? `${rows[0].vendor} ${rows[0].model}` : key, needed, published: 'NOT FOUND (assumed ASSUMED_VENDOR_RPM)', allowed: null, source: rows[0]?.source ?? 'not found' };
    }
    const fits = (r: VendorLimit) => {
      const perMinute = r.kind === 'rpm' ? r.limit! : r.kind === 'searches-per-hour' ? r.limit! / 60 : Infinity;
      const perDay = r.kind === 'searches-per-day' ? r.limit! : Infinity;
      const perMonth = r.kind === 'searches-per-month' ? r.limit! : Infinity;
      return limits.ratePerMinute <= perMinute && limits.dailyBudget <= perDay && limits.dailyBudget * DAYS_PER_MONTH <= perMonth;
    };
    // A platform with more than one vendor or API (platform_8: SerpApi or DataForSEO; platform_5: Parallel's Responses or
    // Task API) fits when one vendor's figures all do; a vendor without a published figure is named as such.
    const byVendor = (from: readonly VendorLimit[]) => [...new Set(from.map((r) => r.vendor))].map((vendor) => ({ vendor, rows: from.filter((r) => r.vendor === vendor) }));
    const vendors = byVendor(known);
    const fitting = vendors.find((v) => v.rows.every(fits));
    const named = fitting ?? vendors[0]!;
    const listed = byVendor(rows);
    const figures = (vendor: string) => vendors.find((v) => v.vendor === vendor)?.rows.map((r) => `${int(r.limit!)} ${r.unit} (${r.tier})`).join('; ') ?? 'NOT FOUND';
    return {
      platform: key,
      vendor: `${named.vendor} ${named.rows[0]!.model}`,
      needed,
      published: listed.map((v) => `${listed.length > 1 ? `${v.vendor.split(' (')[0]}: ` : ''}${figures(v.vendor)}`).join(' | '),
      allowed: fitting !== undefined,
      source: [...new Set(named.rows.map((r) => r.source))].join(' '),
    };
  });
}


/**
 * A vendor account's published monthly spend ceiling: the most its highest self-serve tier may
 * spend in a calendar month; past it the vendor stops answering until the next month (D229).
 */
export interface SpendCap {
  vendor: string;
  /** The cost-model keys billed to that account (cost-model.ts `byVendor`). */
  platforms: readonly string[];
  tier: string;
  usdPerMonth: number;
  /** What the vendor offers past the cap. */
  beyond: string;
  source: string;
  asOf: string;
  note: string;
  /** A published way past the cap that the service already reaches through its settings (D236); none: only the vendor's negotiated tier. */
  channel?: SpendChannel;
}

/**
 * A published channel past a self-serve spend cap (D236): the same platforms billed where the
 * month has no such cap, or part of them billed to another account.
 */
export interface SpendChannel {
  name: string;
  /** How the service is pointed at it. */
  settings: string;
  /** The channel's monthly spend limit; null: none. */
  capUsd: number | null;
  /** Cost-model keys the channel bills to another account (they leave this account's month). */
  movesOff?: readonly string[];
  /** The batch-queue tier the channel starts at when it is lower than the self-serve one the model holds ('lowest' of VENDOR_LIMITS): the day is simulated again with it. */
  batchQueueTier?: 'lowest';
  /** Cost-model keys the channel has no batch interface for (D239): priced synchronous, and the day simulated again with them synchronous, held against their published rates. */
  synchronous?: readonly string[];
  source: string;
  note: string;
}

export const SPEND_CAPS: readonly SpendCap[] = [
  { vendor: 'OpenAI', platforms: ['platform_1', 'judge'], tier: 'Tier 5 (the highest self-serve tier)', usdPerMonth: 200_000,
    beyond: 'limits beyond Tier 5 are arranged through OpenAI (the limits page\'s request form, sales)',
    source: 'https://developers.openai.com/api/docs/guides/rate-limits', asOf: '2026-11-29',
    note: 'the usage tiers table: Tier 1 $100, 2 $500, 3 $1,000, 4 $5,000, 5 $200,000 a month ("$1,000 paid and 30+ days since first successful payment"); '
      + 'read from copies of the guide held in public repositories. The judge is billed here while JUDGE_MODEL is an OpenAI model (the cost model\'s default)',
    channel: {
      name: 'the judge on its own account', settings: 'JUDGE_BASE_URL, JUDGE_API_KEY, JUDGE_MODEL (any OpenAI-compatible JSON chat API, e.g. DeepSeek, the platform_6 vendor)',
      capUsd: 200_000, movesOff: ['judge'], source: 'https://developers.openai.com/api/docs/guides/rate-limits',
      note: 'the cap stays Tier 5\'s (the source); only platform_1 stays on the OpenAI account. The judge is a json_object chat call (chat-client.ts), which '
        + `DeepSeek's API takes; DeepSeek publishes no spend cap (prepaid balance) and says it does not constrain a user's rate (${DEEPSEEK_RATE_LIMIT}). `
        + 'The judge\'s price on that account is not modelled here (billed as before, on another account; deepseek-flash lists lower token prices than gpt-4.1-mini). '
        + 'Its rate: 50,000 businesses make 4,000,000 judge calls a day, about 65 a second over a 17-hour day, some 130 in flight on average at 1-3 s a call, '
        + 'within the 2,500 concurrent requests DeepSeek allows an account for the flash model (the platform_6 row)' } },
  { vendor: 'Anthropic', platforms: ['platform_2'], tier: 'Scale (the highest self-serve tier)', usdPerMonth: 200_000,
    beyond: 'the Custom tier: no monthly spend cap, limits arranged with the account team',
    source: 'https://platform.claude.com/docs/en/api/rate-limits', asOf: '2026-11-29',
    note: 'the monthly spend caps table: Start $500, Build $1,000, Scale $200,000; past the cap requests answer 429 enforced_spend_limit_reached until the 1st of the next month',
    channel: {
      name: 'Claude Platform on AWS (D235)', settings: 'PLATFORM_2_API_URL=https://aws-external-anthropic.<region>.api.aws, PLATFORM_2_WORKSPACE_ID, PLATFORM_2_API_KEY (a workspace key)',
      capUsd: null, batchQueueTier: 'lowest', source: 'https://platform.claude.com/docs/en/api/rate-limits',
      note: 'the rate-limits page: "spend limits are not available, and billing is through AWS Marketplace"; organizations start at Tier 1 and raise it through '
        + 'the account representative, so the day is held against Tier 1\'s batch queue (100,000 requests). The same Messages and Message Batches API '
        + '(docs.aws.amazon.com/claude-platform/latest/userguide/feature-support.html)' } },
  { vendor: 'Google (Gemini API)', platforms: ['platform_3'], tier: 'Tier 3 (the highest tier)', usdPerMonth: 20_000,
    beyond: '"$20,000-$100,000+ subject to review" on the same billing account',
    source: 'https://ai.google.dev/gemini-api/docs/rate-limits', asOf: '2026-11-29',
    note: 'the billing account tier caps of the spend-based limits (announced 2026, https://blog.google/innovation-and-ai/technology/developers-tools/more-control-over-gemini-api-costs): '
      + 'Tier 1 $250, Tier 2 $2,000, Tier 3 $20,000 and up on review, across the whole billing account; '
      + 'read from third-party copies of the page (rate-limits.apis.io, developersdigest.tech, blog.wentuo.ai)',
    channel: {
      name: 'Gemini on Vertex AI (D239)',
      settings: 'PLATFORM_3_API_URL=https://aiplatform.googleapis.com (or https://<location>-aiplatform.googleapis.com), PLATFORM_3_VERTEX_PROJECT, PLATFORM_3_API_KEY (a Google Cloud API key bound to a service account)',
      capUsd: null, synchronous: ['platform_3'], source: VERTEX_QUOTAS,
      note: 'the same generateContent with Grounding with Google Search, billed to the Google Cloud project: the Gemini API\'s spend tiers do not apply, and Cloud Billing budgets '
        + 'alert without capping spend. Gemini models there run on dynamic shared quota ("There are no quotas with DSQ"); grounding allows one million queries a day '
        + `(${VERTEX_GROUNDING}). The service has no Vertex batch client (batch inference reads and writes Cloud Storage), so the checks go synchronously at the full price: `
        + 'Vertex\'s own price rows NOT read, the Gemini API\'s are used' } },
];

/** One vendor account's monthly spend at a fleet size against its published cap. */
export interface SpendCheck {
  vendor: string;
  platforms: readonly string[];
  tier: string;
  perBusinessDay: number;
  perMonth: number;
  capUsd: number;
  allowed: boolean;
  /** The largest fleet whose month stays within the cap. */
  maxBusinesses: number;
  beyond: string;
  source: string;
  /** The same account through its channel (D236), when it has one. */
  channel?: ChannelCheck;
}

export interface ChannelCheck {
  name: string;
  settings: string;
  perMonth: number;
  capUsd: number | null;
  allowed: boolean;
  maxBusinesses: number;
  batchQueueTier?: 'lowest';
  synchronous?: readonly string[];
  source: string;
  note: string;
}

/**
 * Each SPEND_CAPS account's month at `businesses` (dollars per business-day by cost-model key) against its cap;
 * a channel's `synchronous` keys are priced from `synchronousPerBusinessDay` (the same day without batch prices).
 */
export function spendCapChecks(
  perBusinessDay: Readonly<Record<string, number>>, businesses: number, caps: readonly SpendCap[] = SPEND_CAPS,
  synchronousPerBusinessDay: Readonly<Record<string, number>> = perBusinessDay,
): SpendCheck[] {
  const monthOf = (keys: readonly string[], synchronous: readonly string[] = []) => {
    const daily = keys.reduce((sum, k) => sum + ((synchronous.includes(k) ? synchronousPerBusinessDay : perBusinessDay)[k] ?? 0), 0);
    return { daily, perMonth: daily * businesses * DAYS_PER_MONTH };
  };
  const largestFleet = (daily: number, capUsd: number | null) => (daily > 0 && capUsd !== null ? Math.floor(capUsd / (daily * DAYS_PER_MONTH)) : Infinity);
  return caps.map((cap) => {
    const { daily, perMonth } = monthOf(cap.platforms);
    const c = cap.channel;
    const viaChannel = c ? monthOf(cap.platforms.filter((k) => !c.movesOff?.includes(k)), c.synchronous) : null;
    return {
      vendor: cap.vendor,
      platforms: cap.platforms,
      tier: cap.tier,
      perBusinessDay: daily,
      perMonth,
      capUsd: cap.usdPerMonth,
      allowed: perMonth <= cap.usdPerMonth,
      maxBusinesses: largestFleet(daily, cap.usdPerMonth),
      beyond: cap.beyond,
      source: cap.source,
      ...(c && viaChannel ? {
        channel: {
          name: c.name, settings: c.settings, perMonth: viaChannel.perMonth, capUsd: c.capUsd, allowed: c.capUsd === null || viaChannel.perMonth <= c.capUsd,
          maxBusinesses: largestFleet(viaChannel.daily, c.capUsd), ...(c.batchQueueTier ? { batchQueueTier: c.batchQueueTier } : {}),
          ...(c.synchronous ? { synchronous: c.synchronous } : {}), source: c.source, note: c.note,
        },
      } : {}),
    };
  });
}
