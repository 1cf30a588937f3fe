/**
 * Cost model (issue 24 point 3): from counts measured per business per day (Lambda invocations
 * and billed time by function at its configured memory, Step Functions state transitions and
 * Distributed Map child executions, DynamoDB request units, S3 requests and bytes stored,
 * CloudFront requests and bytes out, vendor calls / tokens / searches per AI platform, store
 * pages scraped), the dollars per business per day and per month at LIST prices, and the
 * totals for a fleet of 1,000 and 10,000 businesses.
 *
 * Prices: every unit price below is a constant with the page it comes from (`source`) and the
 * date it is known to have been the published list price there (`asOf`). They were NOT re-read
 * live for this file (no network from the bench); where a figure comes from a dated copy of
 * the vendor's page rather than the page itself, or from the vendor's page as known at an
 * earlier date, its `note` says so. AWS: us-east-1, on-demand, no free tier, no Savings Plans,
 * first volume tier (a fleet of 10,000 businesses stays in it for every line below). Vendor
 * (AI platform) prices change often and some defaults are ambiguous: they are list prices to
 * be CHECKED BEFORE USE; where unsure the number is the conservative (higher) one and the note
 * says why.
 *
 * Not modelled (not in the measured counts): CloudWatch Logs ingestion and storage (Lambda
 * logs, $0.50/GB ingested: can matter at LOG_LEVEL=debug), Secrets Manager and KMS API calls,
 * EventBridge, data transfer between AWS services (free in-region for S3/DynamoDB/Lambda), the
 * API's own traffic (dashboards), the generator model (LLM_MODEL) used by onboarding and
 * articles unless its calls are passed as a vendor entry with a price, taxes.
 *
 *   npx tsx bench/cost-model.ts        (prints the report for made-up example counts)
 */
import { PLATFORM_KEYS, type PlatformKey } from '../functions/core/constants';
import { PROMPTS_PER_DAY } from '../functions/core/visibility/sample';
import { heading, isMain, printTable } from './lib';

/** Days in a month for the per-month figures (and the per-day share of a GB-month). */
export const DAYS_PER_MONTH = 30;
/** AWS bills "GB" as 2^30 bytes (data transfer and storage). */
const GIB = 1024 ** 3;

// ---------------------------------------------------------------------------------------------
// Usage: what one business costs in one day, as counted.

export type LambdaArch = 'arm64' | 'x86_64';

/** Counts for ONE business on ONE day. Every field is a total over the day. */
export interface DailyUsage {
  /**
   * One entry per function. `durationMs` is the total BILLED duration over all its invocations
   * (Lambda bills per 1 ms, init included for on-demand functions since 2025-08-01);
   * `memoryMb` its configured memory. `arch` defaults to arm64: every ApiFunction of the
   * stacks is ARM_64 (lib/constructs/api-function.ts); pass x86_64 for an x86 function.
   */
  lambda: Array<{ fn: string; invocations: number; durationMs: number; memoryMb: number; arch?: LambdaArch }>;
  /**
   * Every billed state transition of the Standard workflows, INCLUDING the one transition the
   * parent is billed per child execution a Distributed Map starts, and every transition inside
   * the children (STANDARD children are billed as Standard executions). Retries count too.
   */
  stateTransitions: number;
  /** Distributed Map child executions started: shown for reference, billed only through `stateTransitions`. */
  mapChildExecutions: number;
  /** On-demand request units (an eventually consistent read of ≤4 KB is half a unit). `storedBytes`: the business's items, optional. */
  dynamo: { readUnits: number; writeUnits: number; storedBytes?: number };
  /** `puts` = PUT/COPY/POST requests, `lists` = LIST requests (same price); `storedBytes` = bytes held in S3 Standard for the business that day. */
  s3: { puts: number; gets: number; lists: number; storedBytes: number };
  /**
   * HTTPS requests and bytes to viewers (AI sites and the path-routing proxy on customer
   * domains). Optional: CloudFront Function invocations (the AI-site router, viewer request)
   * and Lambda@Edge (the customer-domain router, origin request, x86_64 128 MB).
   */
  cloudfront: {
    requests: number;
    bytesOut: number;
    functionInvocations?: number;
    edgeLambda?: { invocations: number; durationMs: number; memoryMb: number };
  };
  /** One entry per AI platform (platform_1..platform_8) and `judge`; `searches` = billed searches / grounded prompts / SERP requests. */
  vendors: Array<{ platform: string; calls: number; inputTokens: number; outputTokens: number; searches: number }>;
  /** Store pages fetched. Our own Lambda time (in `lambda`); a cost here only with a batch-scrape vendor priced in PRICES.scraping. */
  scrapes: { pages: number };
}

// ---------------------------------------------------------------------------------------------
// Prices.

/** One list price: `usd` per `per` `unit`s (e.g. 0.20 per 1,000,000 requests). */
export interface UnitPrice {
  usd: number;
  per: number;
  unit: string;
  /** The page the figure comes from. */
  source: string;
  /** YYYY-MM-DD: the date the figure is known to have been the published list price there. */
  asOf: string;
  note?: string;
}

/** An AI platform's (or the judge's) billing: any of the four parts can be 0. */
export interface VendorPrice {
  label: string;
  /** The model the adapter uses by default (what the token prices are for). */
  model: string;
  /** Fee per API request (Perplexity's request fee, Parallel's per-request price). */
  perCall: UnitPrice;
  /** Fee per billed search (web search tool call, grounded prompt, SERP request). */
  perSearch: UnitPrice;
  inputTokens: UnitPrice;
  outputTokens: UnitPrice;
  /** Input tokens the vendor bills per search on top of the reported ones (OpenAI's fixed block for mini models). */
  inputTokensPerSearch?: number;
}

export interface PriceBook {
  lambda: { requests: UnitPrice; gbSecondX86: UnitPrice; gbSecondArm: UnitPrice };
  lambdaAtEdge: { requests: UnitPrice; gbSecond: UnitPrice };
  stepFunctions: { stateTransitions: UnitPrice; mapChildExecutions: UnitPrice };
  dynamodb: { writeUnits: UnitPrice; readUnits: UnitPrice; storage: UnitPrice };
  s3: { putCopyPostList: UnitPrice; get: UnitPrice; storage: UnitPrice };
  cloudfront: { httpsRequests: UnitPrice; dataOut: UnitPrice; functions: UnitPrice };
  scraping: { pages: UnitPrice };
  vendors: Record<string, VendorPrice>;
}

const P = (usd: number, per: number, unit: string, source: string, asOf: string, note?: string): UnitPrice =>
  note === undefined ? { usd, per, unit, source, asOf } : { usd, per, unit, source, asOf, note };
const FREE = (unit: string, source: string, asOf: string, note: string): UnitPrice => P(0, 1, unit, source, asOf, note);

const LAMBDA = 'https://aws.amazon.com/lambda/pricing/';
const SFN = 'https://aws.amazon.com/step-functions/pricing/';
const SFN_MAP = 'https://docs.aws.amazon.com/step-functions/latest/dg/concepts-transitions.html';
const DDB = 'https://aws.amazon.com/dynamodb/pricing/on-demand/';
const S3 = 'https://aws.amazon.com/s3/pricing/';
const CF = 'https://aws.amazon.com/cloudfront/pricing/';
const AWS_AS_OF = '2025-06-01';
const AWS_NOTE = 'us-east-1 list price, first tier, free tier ignored; not re-read live for this file: check the page';

const OPENAI = 'https://openai.com/api/pricing/';
const ANTHROPIC = 'https://docs.anthropic.com/en/docs/about-claude/pricing';
const GEMINI = 'https://ai.google.dev/gemini-api/docs/pricing';
const PERPLEXITY = 'https://docs.perplexity.ai/docs/getting-started/pricing';
const PERPLEXITY_AGENT_MODELS = 'https://docs.perplexity.ai/docs/agent-api/models';
const PARALLEL = 'https://docs.parallel.ai/getting-started/pricing';
const BRAVE = 'https://api-dashboard.search.brave.com/app/plans';
const DEEPSEEK = 'https://api-docs.deepseek.com/quick_start/pricing';
const XAI = 'https://docs.x.ai/developers/pricing';
const XAI_RETIREMENT = 'https://docs.x.ai/developers/migration/may-15-retirement';
const ANTHROPIC_SONNET_5_5 = 'https://platform.claude.com/docs/en/models/sonnet-5-5/overview';
const GEMINI_PRICING_COPY = 'https://github.com/api-evangelist/gemini/blob/main/plans/gemini-plans-pricing.yml';
const GEMINI_3_5_FLASH_LITE_PRICE_COPY = 'https://github.com/simstudioai/sim/pull/5812';
const SERPAPI = 'https://serpapi.com/pricing';
const DATAFORSEO_PRICES = 'https://dataforseo.com/help-center/serp-api-cost-explained';

/** A vendor part that is not billed (the source says where the real charge is). */
const NONE = (unit: string, source: string, asOf: string, note: string) => FREE(unit, source, asOf, note);

/**
 * List prices, us-east-1 for AWS. VENDOR PRICES ARE LIST PRICES TO BE CHECKED BEFORE USE:
 * vendors change them often, and the defaults the adapters send (search context size,
 * reasoning effort) decide which row applies.
 */
export const PRICES: PriceBook = {
  lambda: {
    requests: P(0.20, 1_000_000, 'requests', LAMBDA, AWS_AS_OF, AWS_NOTE),
    gbSecondX86: P(0.0000166667, 1, 'GB-s (x86_64)', LAMBDA, AWS_AS_OF, `${AWS_NOTE}; first 6 billion GB-s/month`),
    gbSecondArm: P(0.0000133334, 1, 'GB-s (arm64)', LAMBDA, AWS_AS_OF, `${AWS_NOTE}; first 7.5 billion GB-s/month; the stacks deploy arm64`),
  },
  lambdaAtEdge: {
    requests: P(0.60, 1_000_000, 'Lambda@Edge requests', LAMBDA, AWS_AS_OF, AWS_NOTE),
    gbSecond: P(0.00005001, 1, 'Lambda@Edge GB-s', LAMBDA, AWS_AS_OF, AWS_NOTE),
  },
  stepFunctions: {
    stateTransitions: P(0.025, 1_000, 'state transitions (Standard)', SFN, AWS_AS_OF, AWS_NOTE),
    mapChildExecutions: FREE('Distributed Map child executions', SFN_MAP, AWS_AS_OF,
      'no separate fee: the parent is billed one state transition per child execution started, and a STANDARD child its own '
      + 'transitions; both must be in the counted stateTransitions'),
  },
  dynamodb: {
    writeUnits: P(0.625, 1_000_000, 'write request units (on-demand)', DDB, '2024-11-01', 'price after the 50% on-demand reduction of 2024-11-01'),
    readUnits: P(0.125, 1_000_000, 'read request units (on-demand)', DDB, '2024-11-01', 'price after the 50% on-demand reduction of 2024-11-01'),
    storage: P(0.25, 1, 'GB-month stored (Standard table class)', 'https://aws.amazon.com/dynamodb/pricing/', AWS_AS_OF, `${AWS_NOTE}; first 25 GB free per account ignored`),
  },
  s3: {
    putCopyPostList: P(0.005, 1_000, 'PUT, COPY, POST, LIST requests (Standard)', S3, AWS_AS_OF, AWS_NOTE),
    get: P(0.0004, 1_000, 'GET and other requests (Standard)', S3, AWS_AS_OF, AWS_NOTE),
    storage: P(0.023, 1, 'GB-month (Standard, first 50 TB)', S3, AWS_AS_OF, AWS_NOTE),
  },
  cloudfront: {
    httpsRequests: P(0.01, 10_000, 'HTTPS requests (US/Canada/Mexico, Europe)', CF, AWS_AS_OF,
      `${AWS_NOTE}; the always-free 10M requests and 1 TB per month are ignored`),
    dataOut: P(0.085, 1, 'GB to the internet (first 10 TB, North America/Europe)', CF, AWS_AS_OF, AWS_NOTE),
    functions: P(0.10, 1_000_000, 'CloudFront Functions invocations', CF, AWS_AS_OF, AWS_NOTE),
  },
  scraping: {
    // Store pages are fetched by our own Lambda functions (their time is in `lambda`). Set a
    // per-page price here only when a batch-scrape vendor (SCRAPE_API_URL) is configured.
    pages: P(0, 1_000, 'pages via a batch-scrape vendor (none by default)', LAMBDA, AWS_AS_OF,
      'pages are fetched by our own Lambda (billed in the Lambda line); 0 unless a scraping vendor is configured'),
  },
  vendors: {
    // platform_1: OpenAI Responses API + `web_search` tool, default model gpt-4.1-mini.
    platform_1: {
      label: 'ChatGPT (OpenAI Responses + web_search)',
      model: 'gpt-4.1-mini',
      perCall: NONE('requests', OPENAI, '2025-04-14', 'no per-request fee'),
      perSearch: P(10, 1_000, 'web_search tool calls', OPENAI, '2026-03-12',
        'GA web_search tool: $10/1K calls + search content tokens; from a dated third-party copy of the pricing page (modelcostwatch.com, '
        + 'checked 2026-03-12). The older web_search_preview on non-reasoning models was $25/1K with free content tokens. One request can run several searches'),
      inputTokens: P(0.40, 1_000_000, 'input tokens', OPENAI, '2025-04-14', 'gpt-4.1-mini list price since its launch'),
      outputTokens: P(1.60, 1_000_000, 'output tokens', OPENAI, '2025-04-14', 'gpt-4.1-mini list price since its launch'),
      // "gpt-4o-mini and gpt-4.1-mini web search bill a fixed block of 8,000 input tokens per call" (same copy, 2026-03-12).
      inputTokensPerSearch: 8_000,
    },
    // platform_2: Anthropic Messages API + server web search tool, default model claude-sonnet-5-5 (Sonnet 4.5 retires 2026-11-30).
    platform_2: {
      label: 'Claude (Anthropic Messages + web search)',
      model: 'claude-sonnet-5-5',
      perCall: NONE('requests', ANTHROPIC, '2025-09-29', 'no per-request fee'),
      perSearch: P(10, 1_000, 'web searches', ANTHROPIC, '2025-05-07',
        'web search tool: $10 per 1,000 searches plus tokens; the search results count as INPUT tokens (in the reported usage); max_uses 5 per call'),
      inputTokens: P(2, 1_000_000, 'input tokens', ANTHROPIC_SONNET_5_5, '2026-11-29', 'Claude Sonnet 5.5 (the adapter default)'),
      outputTokens: P(10, 1_000_000, 'output tokens', ANTHROPIC_SONNET_5_5, '2026-11-29', 'Claude Sonnet 5.5'),
    },
    // platform_3: Gemini generateContent + Grounding with Google Search, default model gemini-3.5-flash-lite (2.5 Flash is shut down in 2026).
    platform_3: {
      label: 'Gemini (grounding with Google Search)',
      model: 'gemini-3.5-flash-lite',
      perCall: NONE('requests', GEMINI, '2026-09-20', 'no per-request fee'),
      perSearch: P(14, 1_000, 'search queries', GEMINI_PRICING_COPY, '2026-09-20',
        'Gemini 3 models: $14 per 1,000 search queries the model runs, after 5,000 free a month (shared by all Gemini 3 models; ignored). '
        + 'A grounded answer may run several queries; the model assumes one. From a dated third-party copy of ' + GEMINI),
      inputTokens: P(0.30, 1_000_000, 'input tokens (text)', GEMINI_3_5_FLASH_LITE_PRICE_COPY, '2026-11-29',
        'gemini-3.5-flash-lite; Google\'s own price row NOT read (third-party copy): check ' + GEMINI),
      outputTokens: P(2.50, 1_000_000, 'output tokens (thinking included)', GEMINI_3_5_FLASH_LITE_PRICE_COPY, '2026-11-29', 'gemini-3.5-flash-lite; thinking tokens are billed as output; same copy'),
    },
    // platform_4: Perplexity Agent API + web_search tool, default model perplexity/sonar (Sonar chat completions retired 2026-09-27).
    platform_4: {
      label: 'Perplexity (Agent API + web_search)',
      model: 'perplexity/sonar',
      perCall: NONE('requests', PERPLEXITY, '2026-11-29', 'no per-request fee on the Agent API (the Sonar request fee went with Sonar chat completions)'),
      perSearch: P(5, 1_000, 'web_search tool calls', PERPLEXITY, '2026-11-29', 'web_search: $0.005 per invocation'),
      inputTokens: P(0.25, 1_000_000, 'input tokens', PERPLEXITY_AGENT_MODELS, '2026-11-29', 'perplexity/sonar on the Agent API ($0.0625 cached)'),
      outputTokens: P(2.50, 1_000_000, 'output tokens', PERPLEXITY_AGENT_MODELS, '2026-11-29', 'perplexity/sonar on the Agent API'),
    },
    // platform_5: there is no public Copilot answer API; the stand-in is Parallel's Responses API.
    platform_5: {
      label: 'Copilot stand-in (Parallel Responses API)',
      model: 'parallel (reasoning.effort unset = medium)',
      perCall: P(50, 1_000, 'Responses requests (medium effort)', PARALLEL, '2026-11-10',
        'NOT a Copilot price (the vendor has no public Copilot answer API): the stand-in the adapter calls. Responses API: effort '
        + 'low $10/1K, medium (the default, which the adapter leaves) $50/1K; from a dated third-party copy of the pricing page '
        + '(2026-11-10), unverified: check. Set to 0 to leave the stand-in out of the model'),
      perSearch: NONE('searches', PARALLEL, '2026-11-10', 'web research is in the request price'),
      inputTokens: NONE('input tokens', PARALLEL, '2026-11-10', 'not billed per token'),
      outputTokens: NONE('output tokens', PARALLEL, '2026-11-10', 'not billed per token'),
    },
    // platform_6: Brave Search API results + an OpenAI-compatible open model (a DeepSeek model, D160).
    platform_6: {
      label: 'DeepSeek (Brave Search + open model)',
      model: 'deepseek-flash (PLATFORM_6_MODEL; required, no default)',
      perCall: NONE('requests', DEEPSEEK, '2026-10-27', 'no per-request fee'),
      perSearch: P(5, 1_000, 'Brave Search API requests', BRAVE, '2026-11-29',
        'Brave Search API, plan "Search": $5 per 1,000 requests, 50 requests per second, $5 free credit a month (ignored)'),
      inputTokens: P(0.30, 1_000_000, 'input tokens (cache miss)', DEEPSEEK, '2026-10-27',
        'DeepSeek V4.1 Flash at PEAK hours (off-peak $0.15), from a dated third-party copy of the pricing page (2026-10-27); '
        + 'a self-hosted open model has no per-token price'),
      outputTokens: P(1.20, 1_000_000, 'output tokens', DEEPSEEK, '2026-10-27', 'DeepSeek V4.1 Flash at peak hours (off-peak $0.60); same copy'),
    },
    // platform_7: xAI Responses API + server-side web_search tool, default model grok-4.3 (grok-4-1-fast retired 2026-05-15).
    platform_7: {
      label: 'Grok (xAI Responses + web_search)',
      model: 'grok-4.3',
      perCall: NONE('requests', XAI, '2025-11-19', 'no per-request fee'),
      perSearch: P(5, 1_000, 'web_search tool calls (successful)', XAI, '2025-11-19',
        'server-side tool invocations $5 per 1K; the agent decides how many searches a request makes; browsed content is billed as input tokens'),
      inputTokens: P(1.25, 1_000_000, 'input tokens', XAI_RETIREMENT, '2026-11-29', 'grok-4.3 (the retired grok-4-1-fast was $0.20; its slug now redirects to grok-4.3 at these prices)'),
      outputTokens: P(2.50, 1_000_000, 'output tokens (reasoning included)', XAI_RETIREMENT, '2026-11-29', 'grok-4.3'),
    },
    // platform_8: SerpApi, Google results with the AI Overview block.
    platform_8: {
      label: 'AI Overviews (SerpApi)',
      model: 'none (SERP API)',
      perCall: NONE('requests', SERPAPI, '2026-05-01', 'billed per search'),
      perSearch: P(15, 1_000, 'successful searches (Developer plan: $75 for 5,000/month)', SERPAPI, '2026-05-01',
        'monthly plans: Developer $75/5,000 ($15/1K), Production $150/15,000 ($10/1K), Big Data $275/30,000 ($9.17/1K); a fleet '
        + 'of 1,000+ businesses needs an Enterprise plan (price on request): the Developer rate is used (conservative). A lazily '
        + 'loaded overview costs a second search (page_token). From a dated third-party copy of the pricing (May 2026)'),
      inputTokens: NONE('input tokens', SERPAPI, '2026-05-01', 'no tokens'),
      outputTokens: NONE('output tokens', SERPAPI, '2026-05-01', 'no tokens'),
    },
    // The judge: one OpenAI-compatible JSON chat call per answer (JUDGE_MODEL, else LLM_MODEL).
    judge: {
      label: 'judge (one call per answer)',
      model: 'gpt-4.1-mini (an OpenAI-compatible small model)',
      perCall: NONE('requests', OPENAI, '2025-04-14', 'no per-request fee'),
      perSearch: NONE('searches', OPENAI, '2025-04-14', 'the judge does not search'),
      inputTokens: P(0.40, 1_000_000, 'input tokens', OPENAI, '2025-04-14', 'gpt-4.1-mini; gpt-4o-mini would be $0.15'),
      outputTokens: P(1.60, 1_000_000, 'output tokens', OPENAI, '2025-04-14', 'gpt-4.1-mini; gpt-4o-mini would be $0.60'),
    },
  },
};

// ---------------------------------------------------------------------------------------------
// The vendor part of a day when every platform is configured (the bench runs offline).

/** Tokens and searches assumed per answer. Assumptions, not measurements: replace with measured counts when a platform is configured. */
export interface AnswerAssumption {
  inputTokens: number;
  outputTokens: number;
  searches: number;
  why: string;
}

/** The base answer: prompt + system/tool overhead ~1,500 tokens in, ~600 out, one search. */
const BASE: AnswerAssumption = { inputTokens: 1_500, outputTokens: 600, searches: 1, why: 'prompt + overhead ~1,500 in, answer ~600 out, 1 search' };
/** Search results the vendor feeds the model and bills as input tokens (assumed, not measured). */
const SEARCH_RESULT_TOKENS = 8_000;

export const ANSWER_ASSUMPTIONS: Readonly<Record<PlatformKey, AnswerAssumption>> = {
  platform_1: { ...BASE, why: `${BASE.why}; the vendor's fixed 8,000-token search block is a price rule (PRICES), not counted here` },
  platform_2: { ...BASE, inputTokens: BASE.inputTokens + SEARCH_RESULT_TOKENS, why: `${BASE.why} + ~${SEARCH_RESULT_TOKENS} tokens of search results billed as input` },
  platform_3: { ...BASE, outputTokens: BASE.outputTokens + 1_000, why: `${BASE.why} + ~1,000 thinking tokens (2.5 Flash thinks by default; billed as output)` },
  platform_4: { ...BASE, why: `${BASE.why} (one web_search call)` },
  platform_5: { ...BASE, why: 'one request (research included in its price); tokens not billed' },
  platform_6: { ...BASE, inputTokens: 2_500, why: 'system prompt with 5 numbered results ~2,500 in, ~600 out, 1 Brave search' },
  platform_7: { ...BASE, inputTokens: BASE.inputTokens + SEARCH_RESULT_TOKENS, why: `${BASE.why} + ~${SEARCH_RESULT_TOKENS} tokens of browsed content billed as input` },
  platform_8: { inputTokens: 0, outputTokens: 0, searches: 1, why: '1 SERP request (a lazily loaded overview would add one)' },
};

/** The judge per answer: rules + JSON schema + entity + competitors + answer + citations ~2,500 in, verdict ~200 out. */
export const JUDGE_ASSUMPTION: AnswerAssumption = { inputTokens: 2_500, outputTokens: 200, searches: 0, why: 'rules + schema + entity + answer + citations ~2,500 in, JSON verdict ~200 out' };

/**
 * platform_8 through DataForSEO instead of SerpApi (D225: the URL picks the vendor). Not the
 * default price: SerpApi stays the priced vendor of PRICES; the reports print both.
 */
export const DATAFORSEO_PLATFORM_8: VendorPrice = {
  label: 'AI Overviews (DataForSEO live)',
  model: 'none (SERP API)',
  perCall: NONE('requests', DATAFORSEO_PRICES, '2025-09-19', 'billed per task'),
  perSearch: P(0.002, 1, 'live Google Organic tasks (first page, depth 10; max_crawl_pages 1 keeps it one page)', DATAFORSEO_PRICES, '2025-09-19',
    'the Live method\'s base price; the Standard queue is $0.0006 but takes up to 45 minutes. load_async_ai_overview adds a charge only when the '
    + 'overview did load asynchronously (returned otherwise): not modelled'),
  inputTokens: NONE('input tokens', DATAFORSEO_PRICES, '2025-09-19', 'no tokens'),
  outputTokens: NONE('output tokens', DATAFORSEO_PRICES, '2025-09-19', 'no tokens'),
};

/**
 * platform_5 through Parallel's Task API instead of its Responses API (D228: a processor as
 * PLATFORM_5_MODEL picks it). Not the default price: the Responses API stays priced in PRICES.
 */
export const PARALLEL_TASK_PLATFORM_5: VendorPrice = {
  label: 'Copilot stand-in (Parallel Task API, base-fast)',
  model: 'base-fast (PLATFORM_5_MODEL)',
  perCall: P(10, 1_000, 'Task runs (base-fast processor)', PARALLEL, '2026-05-02',
    'the pricing page\'s Task API table (standard and fast processors cost the same): lite $5, base $10, core $25 per 1,000 runs; '
    + 'read from the vendor\'s published docs source (github.com/parallel-web/parallel-llms-txt, public/docs/getting-started/pricing.md)'),
  perSearch: NONE('searches', PARALLEL, '2026-05-02', 'web research is in the run price'),
  inputTokens: NONE('input tokens', PARALLEL, '2026-05-02', 'not billed per token'),
  outputTokens: NONE('output tokens', PARALLEL, '2026-05-02', 'not billed per token'),
};

/** A second vendor (or API) a platform can be pointed at by its settings, priced beside the default one. */
export interface AlternateVendor {
  platform: string;
  decision: string;
  /** The setting that picks it. */
  setting: string;
  price: VendorPrice;
}

export const ALTERNATE_VENDORS: readonly AlternateVendor[] = [
  { platform: 'platform_5', decision: 'D228', setting: 'PLATFORM_5_MODEL=base-fast', price: PARALLEL_TASK_PLATFORM_5 },
  { platform: 'platform_8', decision: 'D225', setting: 'PLATFORM_8_API_URL=https://api.dataforseo.com', price: DATAFORSEO_PLATFORM_8 },
];

/** Each alternate's dollars per business-day beside the priced vendor's. */
export function alternateVendorComparison(prices: PriceBook = PRICES, prompts: number = PROMPTS_PER_DAY): Array<AlternateVendor & { priced: number; alternate: number }> {
  const usage = modelledVendorUsage(prompts);
  return ALTERNATE_VENDORS.map((a) => {
    const u = usage.find((v) => v.platform === a.platform)!;
    return { ...a, priced: vendorCost(u, prices.vendors[a.platform]!), alternate: vendorCost(u, a.price) };
  });
}

/**
 * The vendor part of one business's day with all 8 platforms configured: `prompts` prompts
 * (the daily sample, PROMPTS_PER_DAY = 10) asked on each of the 8 platforms, and one judge
 * call per answer (prompts × 8). Token and search counts per answer: ANSWER_ASSUMPTIONS.
 */
export function modelledVendorUsage(prompts: number = PROMPTS_PER_DAY): DailyUsage['vendors'] {
  const platforms = PLATFORM_KEYS.map((platform) => {
    const a = ANSWER_ASSUMPTIONS[platform];
    return { platform, calls: prompts, inputTokens: prompts * a.inputTokens, outputTokens: prompts * a.outputTokens, searches: prompts * a.searches };
  });
  const answers = prompts * PLATFORM_KEYS.length;
  const judge = {
    platform: 'judge', calls: answers, inputTokens: answers * JUDGE_ASSUMPTION.inputTokens,
    outputTokens: answers * JUDGE_ASSUMPTION.outputTokens, searches: answers * JUDGE_ASSUMPTION.searches,
  };
  return [...platforms, judge];
}

// ---------------------------------------------------------------------------------------------
// Cost.

/** Dollars per business per day, by service. */
export interface CostBreakdown {
  lambda: number;
  stepFunctions: number;
  dynamodb: number;
  s3: number;
  /** CloudFront requests and bytes out, plus its edge functions (CloudFront Functions, Lambda@Edge). */
  cloudfront: number;
  /** A batch-scrape vendor (0 by default: scraping is our own Lambda time). */
  scraping: number;
  /** The AWS services above together (scraping vendor excluded). */
  aws: number;
  /** AI platforms + judge. */
  vendors: number;
  byVendor: Record<string, number>;
  total: number;
}

const cost = (quantity: number, price: UnitPrice): number => (quantity * price.usd) / price.per;
const gbSeconds = (durationMs: number, memoryMb: number): number => (durationMs / 1000) * (memoryMb / 1024);

/** One vendor entry's dollars at its price. */
export function vendorCost(v: DailyUsage['vendors'][number], price: VendorPrice): number {
  const searchTokens = v.searches * (price.inputTokensPerSearch ?? 0);
  return cost(v.calls, price.perCall) + cost(v.searches, price.perSearch)
    + cost(v.inputTokens + searchTokens, price.inputTokens) + cost(v.outputTokens, price.outputTokens);
}

export function costOf(usage: DailyUsage, prices: PriceBook = PRICES): CostBreakdown {
  const lambda = usage.lambda.reduce((sum, f) => {
    const perGbSecond = (f.arch ?? 'arm64') === 'x86_64' ? prices.lambda.gbSecondX86 : prices.lambda.gbSecondArm;
    return sum + cost(f.invocations, prices.lambda.requests) + cost(gbSeconds(f.durationMs, f.memoryMb), perGbSecond);
  }, 0);
  const stepFunctions = cost(usage.stateTransitions, prices.stepFunctions.stateTransitions)
    + cost(usage.mapChildExecutions, prices.stepFunctions.mapChildExecutions);
  const dynamodb = cost(usage.dynamo.writeUnits, prices.dynamodb.writeUnits) + cost(usage.dynamo.readUnits, prices.dynamodb.readUnits)
    + cost((usage.dynamo.storedBytes ?? 0) / GIB / DAYS_PER_MONTH, prices.dynamodb.storage);
  const s3 = cost(usage.s3.puts + usage.s3.lists, prices.s3.putCopyPostList) + cost(usage.s3.gets, prices.s3.get)
    + cost(usage.s3.storedBytes / GIB / DAYS_PER_MONTH, prices.s3.storage);
  const cf = usage.cloudfront;
  const edge = cf.edgeLambda;
  const cloudfront = cost(cf.requests, prices.cloudfront.httpsRequests) + cost(cf.bytesOut / GIB, prices.cloudfront.dataOut)
    + cost(cf.functionInvocations ?? 0, prices.cloudfront.functions)
    + (edge ? cost(edge.invocations, prices.lambdaAtEdge.requests) + cost(gbSeconds(edge.durationMs, edge.memoryMb), prices.lambdaAtEdge.gbSecond) : 0);
  const scraping = cost(usage.scrapes.pages, prices.scraping.pages);
  const byVendor: Record<string, number> = {};
  for (const v of usage.vendors) {
    const price = prices.vendors[v.platform];
    if (!price) throw new Error(`cost model: no price for vendor "${v.platform}" (known: ${Object.keys(prices.vendors).join(', ')})`);
    byVendor[v.platform] = (byVendor[v.platform] ?? 0) + vendorCost(v, price);
  }
  const vendors = Object.values(byVendor).reduce((a, b) => a + b, 0);
  const aws = lambda + stepFunctions + dynamodb + s3 + cloudfront;
  return { lambda, stepFunctions, dynamodb, s3, cloudfront, scraping, aws, vendors, byVendor, total: aws + scraping + vendors };
}

export const perMonth = (x: number): number => x * DAYS_PER_MONTH;
export const fleet = (x: number, n: number): number => x * n;

/** Every UnitPrice in a price book, with its path (`vendors.platform_1.perSearch`). */
export function allPrices(prices: PriceBook = PRICES): Array<{ path: string; price: UnitPrice }> {
  const out: Array<{ path: string; price: UnitPrice }> = [];
  const walk = (node: unknown, path: string): void => {
    if (node === null || typeof node !== 'object') return;
    if ('usd' in node && 'source' in node) { out.push({ path, price: node as UnitPrice }); return; }
    for (const [key, value] of Object.entries(node)) walk(value, path ? `${path}.${key}` : key);
  };
  walk(prices, '');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report.

/** Dollars with enough digits for tiny per-business figures: $0.000123, $0.0169, $12.35, $1,234.57. */
export function usd(x: number): string {
  if (!Number.isFinite(x)) return '-';
  if (x === 0) return '$0';
  const sign = x < 0 ? '-' : '';
  const a = Math.abs(x);
  if (a >= 1) return `${sign}$${a.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const decimals = Math.min(12, Math.ceil(-Math.log10(a)) + 2);
  return `${sign}$${a.toFixed(decimals)}`;
}

export const FLEET_SIZES = [1_000, 10_000] as const;

export function printCostReport(scenarios: Array<{ name: string; usage: DailyUsage }>, prices: PriceBook = PRICES): void {
  const costs = scenarios.map((s) => ({ name: s.name, usage: s.usage, cost: costOf(s.usage, prices) }));
  const row = (label: string, pick: (c: CostBreakdown, u: DailyUsage) => number, fmt: (x: number) => string = usd) =>
    [label, ...costs.map((c) => fmt(pick(c.cost, c.usage)))];
  const count = (x: number) => Math.round(x).toLocaleString('en-US');
  const vendorKeys = [...new Set(costs.flatMap((c) => Object.keys(c.cost.byVendor)))];

  heading('cost per business per day (list prices, us-east-1)');
  printTable(['per business per day', ...costs.map((c) => c.name)], [
    row('Lambda', (c) => c.lambda),
    row('  GB-s', (_, u) => u.lambda.reduce((s, f) => s + gbSeconds(f.durationMs, f.memoryMb), 0), (x) => x.toFixed(1)),
    row('Step Functions', (c) => c.stepFunctions),
    row('  state transitions', (_, u) => u.stateTransitions, count),
    row('  map child executions (no fee)', (_, u) => u.mapChildExecutions, count),
    row('DynamoDB', (c) => c.dynamodb),
    row('S3', (c) => c.s3),
    row('CloudFront', (c) => c.cloudfront),
    row('AWS', (c) => c.aws),
    row('scraping vendor', (c) => c.scraping),
    row('AI platforms + judge', (c) => c.vendors),
    ...vendorKeys.map((k) => {
      const name = prices.vendors[k]?.label.replace(/ \(.*$/, '') ?? k;
      return row(name === k ? `  ${k}` : `  ${k} ${name}`, (c) => c.byVendor[k] ?? 0);
    }),
    row('total per day', (c) => c.total),
    row(`total per month (x${DAYS_PER_MONTH})`, (c) => perMonth(c.total)),
    row(`  of which AWS per month`, (c) => perMonth(c.aws)),
  ]);

  heading('fleet totals');
  const fleetHeader = ['scenario', ...FLEET_SIZES.flatMap((n) => [`${n.toLocaleString('en-US')}/day`, `${n.toLocaleString('en-US')}/month`])];
  printTable(fleetHeader, costs.flatMap((c) => [
    [`${c.name}: AWS`, ...FLEET_SIZES.flatMap((n) => [usd(fleet(c.cost.aws, n)), usd(perMonth(fleet(c.cost.aws, n)))])],
    [`${c.name}: total`, ...FLEET_SIZES.flatMap((n) => [usd(fleet(c.cost.total, n)), usd(perMonth(fleet(c.cost.total, n)))])],
  ]));

  const sources = new Map<string, Set<string>>();
  for (const { price } of allPrices(prices)) {
    const dates = sources.get(price.source) ?? new Set<string>();
    dates.add(price.asOf);
    sources.set(price.source, dates);
  }
  console.log('\nprices: list prices (AWS us-east-1, on-demand, first tier, no free tier); vendor prices change often, check before use.');
  console.log(`sources: ${[...sources].map(([source, dates]) => `${source.replace(/^https:\/\//, '')} (${[...dates].sort().join(', ')})`).join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// Example (made-up counts) when run directly.

/** Made-up counts, for the example printout and the tests; NOT measurements. */
export function exampleScenarios(): Array<{ name: string; usage: DailyUsage }> {
  const vendors = modelledVendorUsage();
  const task = (fn: string, invocations: number, seconds: number) => ({ fn, invocations, durationMs: invocations * seconds * 1000, memoryMb: 2048 });
  const base = (scale: number, pages: number, changed: boolean): DailyUsage => ({
    lambda: [
      task('StartBusinessRun', 1, 0.3),
      task('MapAndDiff', 1, 2 * scale),
      task('ScrapePages', changed ? 2 : 0, 3 * scale),
      task('VisibilityChecks', 8, 6),
      task('PublishSite', changed ? 3 : 0, 1.5 * scale),
    ],
    stateTransitions: changed ? 60 * scale : 30,
    mapChildExecutions: 1,
    dynamo: { readUnits: 400 * scale, writeUnits: changed ? 150 * scale : 60, storedBytes: 5 * 1024 ** 2 },
    s3: { puts: changed ? 40 * scale : 4, gets: 60 * scale, lists: 2, storedBytes: 30 * 1024 ** 2 },
    cloudfront: { requests: 300, bytesOut: 300 * 40 * 1024 },
    vendors,
    scrapes: { pages },
  });
  return [
    { name: 'unchanged', usage: base(1, 0, false) },
    { name: 'changed', usage: base(1, 3, true) },
    { name: 'first day', usage: base(10, 25, true) },
  ];
}

if (isMain(module)) {
  console.log('MADE-UP example counts (not measured); vendor part = modelledVendorUsage(): all 8 platforms configured.');
  printCostReport(exampleScenarios());
}

// ---------------------------------------------------------------------------------------------
// Vendor batches (issue 47): platforms 1-3 through the vendors' batch interfaces.

/** A vendor's batch discount: the batch price is (1 − discount) × the synchronous list price. */
export interface BatchDiscount {
  discount: number;
  source: string;
  asOf: string;
  note: string;
}

/**
 * The documented batch discount per batch platform. Applied to the TOKEN prices only (input, output,
 * and the search-content tokens billed as input): whether the vendors also halve the per-search /
 * grounding fees in a batch is not stated on the pages read, so those stay at the synchronous price
 * (conservative).
 */
export const BATCH_DISCOUNTS: Readonly<Record<string, BatchDiscount>> = {
  platform_1: { discount: 0.5, source: 'https://help.openai.com/en/articles/9197833-batch-api-faq', asOf: '2026-11-29',
    note: 'OpenAI Batch API FAQ: "Each model will be offered at 50% cost discount vs. the synchronous APIs"' },
  platform_2: { discount: 0.5, source: 'https://platform.claude.com/docs/en/build-with-claude/batch-processing', asOf: '2026-11-29',
    note: 'Anthropic Message Batches: "reducing costs by 50 percent"; all usage charged at 50% of the standard API prices' },
  platform_3: { discount: 0.5, source: 'https://gokawiil.com/article/37055', asOf: '2026-11-29',
    note: 'copy of Google\'s Gemini API Batch Mode announcement: "Batch jobs are priced at 50% less than the standard rate for a given model"' },
};

/** A platform's price with its batch discount on the token prices. */
export function batchVendorPrice(price: VendorPrice, discount: number): VendorPrice {
  const off = (p: UnitPrice): UnitPrice => ({ ...p, usd: p.usd * (1 - discount), note: `${p.note ? `${p.note}; ` : ''}batch: −${Math.round(discount * 100)}%` });
  return { ...price, inputTokens: off(price.inputTokens), outputTokens: off(price.outputTokens) };
}

/** What the batch machinery adds to a day, as the capacity model counts it. */
export interface BatchDayCounts {
  businesses: number;
  /** Distributed Map child executions (each runs SubmitVisibilityBatches once). */
  mapChildren: number;
  /** Collecting rounds (ListPendingVisibilityBatches, VisibilityBatchesPending, WaitForVisibilityBatches, CollectVisibilityBatches). */
  collectRounds: number;
  /** Child executions of the collecting Maps, over all rounds. */
  collectChildren: number;
}

/**
 * Extra Standard state transitions of the batch machinery in a day (from the ASL's shape): per Map
 * child its SubmitVisibilityBatches task (1); per collecting round the parent's list task, choice,
 * wait and Map state (4); per collecting child the parent's transition for starting it and its
 * CollectBatchResults task (2); the last list and choice that end the loop (2).
 */
export function batchStateTransitions(c: BatchDayCounts): number {
  return c.mapChildren + 4 * c.collectRounds + 2 * c.collectChildren + 2;
}

export interface BatchPricingSide {
  /** Vendors (AI platforms + judge) per business per day. */
  vendor: number;
  /** The batch machinery's state transitions per business per day (0 before; the rest of AWS is the same before and after). */
  aws: number;
  total: number;
  byVendor: Record<string, number>;
}

export interface BatchPricingComparison {
  batchPlatforms: string[];
  counts: BatchDayCounts | null;
  transitionsPerDay: number;
  before: BatchPricingSide;
  after: BatchPricingSide;
}

/** Per business-day, before (all synchronous) and after (`batchPlatforms` batched) batch pricing. */
export function batchPricingComparison(batchPlatforms: readonly string[], counts: BatchDayCounts | null, prices: PriceBook = PRICES,
  discounts: Readonly<Record<string, BatchDiscount>> = BATCH_DISCOUNTS, prompts: number = PROMPTS_PER_DAY): BatchPricingComparison {
  const usage = modelledVendorUsage(prompts);
  const side = (batched: boolean, aws: number): BatchPricingSide => {
    const byVendor: Record<string, number> = {};
    for (const v of usage) {
      const price = prices.vendors[v.platform];
      const d = discounts[v.platform];
      if (batched && batchPlatforms.includes(v.platform) && !d) throw new Error(`cost model: no batch discount for ${v.platform}`);
      byVendor[v.platform] = vendorCost(v, batched && batchPlatforms.includes(v.platform) ? batchVendorPrice(price, d.discount) : price);
    }
    const vendor = Object.values(byVendor).reduce((a, b) => a + b, 0);
    return { vendor, aws, total: vendor + aws, byVendor };
  };
  const transitionsPerDay = counts ? batchStateTransitions(counts) : 0;
  // Each business's share of each of its jobs is stored once and read at most once (D224): a PUT and a GET per batch platform.
  const sliceRequests = counts && counts.businesses > 0
    ? (cost(batchPlatforms.length, prices.s3.putCopyPostList) + cost(batchPlatforms.length, prices.s3.get))
    : 0;
  const awsAfter = counts && counts.businesses > 0 ? cost(transitionsPerDay, prices.stepFunctions.stateTransitions) / counts.businesses + sliceRequests : 0;
  return { batchPlatforms: [...batchPlatforms], counts, transitionsPerDay, before: side(false, 0), after: side(true, awsAfter) };
}

/** The before/after table for `fleetSize` businesses, each price with its source. */
export function printBatchPricing(c: BatchPricingComparison, fleetSize: number, prices: PriceBook = PRICES,
  discounts: Readonly<Record<string, BatchDiscount>> = BATCH_DISCOUNTS): void {
  const n = fleetSize.toLocaleString('en-US');
  const row = (label: string, s: BatchPricingSide) => [label, usd(s.vendor), usd(s.aws), usd(s.total), usd(fleet(s.total, fleetSize)), usd(perMonth(fleet(s.total, fleetSize)))];
  const diff: BatchPricingSide = { vendor: c.after.vendor - c.before.vendor, aws: c.after.aws - c.before.aws, total: c.after.total - c.before.total, byVendor: {} };
  printTable(['per business-day', 'vendors', 'AWS (batch machinery)', 'total', `${n} per day`, `${n} per month (x${DAYS_PER_MONTH})`], [
    row('before: all 8 synchronous', c.before),
    row(`after: ${c.batchPlatforms.join(', ')} batched`, c.after),
    row('difference', diff),
  ]);
  for (const a of alternateVendorComparison(prices)) {
    const price = [a.price.perCall, a.price.perSearch].find((u) => u.usd > 0)!;
    console.log(`${a.platform} per business-day (both before and after): ${prices.vendors[a.platform]!.label} ${usd(a.priced)} (the priced one), ${a.price.label} ${usd(a.alternate)} `
      + `(${a.decision}, ${a.setting}; $${price.usd} per ${price.per.toLocaleString('en-US')} ${price.unit}, ${price.source}): ${usd(fleet(a.priced - a.alternate, fleetSize))} a day less for ${n}`);
  }
  console.log(`by vendor per business-day (before → after): ${Object.keys(c.before.byVendor).map((k) =>
    `${k} ${usd(c.before.byVendor[k])}${c.batchPlatforms.includes(k) ? ` → ${usd(c.after.byVendor[k])}` : ''}`).join(', ')}`);
  if (c.counts) {
    console.log(`AWS after: ${c.transitionsPerDay.toLocaleString('en-US')} extra state transitions a day for ${c.counts.businesses.toLocaleString('en-US')} businesses `
      + `(${c.counts.mapChildren.toLocaleString('en-US')} SubmitVisibilityBatches + 4 × ${c.counts.collectRounds} collecting rounds + 2 × ${c.counts.collectChildren.toLocaleString('en-US')} `
      + `collecting children + 2) at $${prices.stepFunctions.stateTransitions.usd} per ${prices.stepFunctions.stateTransitions.per.toLocaleString('en-US')} `
      + `(${prices.stepFunctions.stateTransitions.source}, ${prices.stepFunctions.stateTransitions.asOf}), and per business ${c.batchPlatforms.length} S3 PUTs and ${c.batchPlatforms.length} GETs `
      + `of its stored batch answers at $${prices.s3.putCopyPostList.usd} and $${prices.s3.get.usd} per ${prices.s3.get.per.toLocaleString('en-US')} (${prices.s3.get.source}); `
      + 'the judge calls move from AnalyzeVisibility to CollectBatchResults (same count), the submit/list/collect Lambdas\' own time is not counted');
  }
  console.log('prices and sources:');
  for (const k of Object.keys(c.before.byVendor)) {
    const p = prices.vendors[k];
    if (!p) continue;
    const parts = [p.perCall, p.perSearch, p.inputTokens, p.outputTokens].filter((u) => u.usd > 0)
      .map((u) => `$${u.usd}/${u.per.toLocaleString('en-US')} ${u.unit}`);
    const d = c.batchPlatforms.includes(k) ? discounts[k] : undefined;
    console.log(`  ${k} (${p.model}): ${parts.join(', ') || 'no charge'} — ${p.inputTokens.source} (${p.inputTokens.asOf})`
      + (d ? `; batch −${Math.round(d.discount * 100)}% on tokens: ${d.source} (${d.asOf}) ${d.note}` : ''));
  }
  console.log('  the batch discount is applied to token prices only; per-search / grounding fees stay at the synchronous price (not stated for batches on the pages read: conservative)');
}
