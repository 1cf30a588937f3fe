/**
 * Every partition/sort key of the table is built here, and nowhere else.
 * Everything of one organization lives in its partition `ORG#<slug>`, so org isolation
 * is structural: a repository call is always scoped by the slug it was given.
 */
export const keys = {
  org: (slug: string) => `ORG#${slug}`,

  business: (slug: string) => ({ PK: keys.org(slug), SK: 'BUSINESS' }),
  product: (slug: string, productId: string) => ({ PK: keys.org(slug), SK: `PRODUCT#${productId}` }),
  productPrefix: 'PRODUCT#',
  prompt: (slug: string, entityId: string, promptKey: string) => ({ PK: keys.org(slug), SK: `PROMPT#${entityId}#${promptKey}` }),
  promptPrefix: (entityId?: string) => (entityId ? `PROMPT#${entityId}#` : 'PROMPT#'),
  visibility: (slug: string, entityId: string) => ({ PK: keys.org(slug), SK: `VISIBILITY#${entityId}` }),
  aiSite: (slug: string) => ({ PK: keys.org(slug), SK: 'AISITE' }),
  /** Batch 2b of one day: the sample, each check (platform, prompt) and the report. */
  visibilitySample: (slug: string, runDate: string) => ({ PK: keys.org(slug), SK: `VISDAY#${runDate}#SAMPLE` }),
  visibilityCheck: (slug: string, runDate: string, platform: string, promptId: string) => ({ PK: keys.org(slug), SK: `VISDAY#${runDate}#CHECK#${platform}#${promptId}` }),
  visibilityCheckPrefix: (runDate: string) => `VISDAY#${runDate}#CHECK#`,
  visibilityReport: (slug: string, runDate: string) => ({ PK: keys.org(slug), SK: `VISDAY#${runDate}#REPORT` }),
  visibilityDayPrefix: 'VISDAY#',
  articleWeek: (slug: string, weekStart: string) => ({ PK: keys.org(slug), SK: `ARTICLE_WEEK#${weekStart}` }),
  /** One AI article, by its slug (the slug is claimed once: a retried create adds nothing twice). */
  article: (slug: string, articleSlug: string) => ({ PK: keys.org(slug), SK: `ARTICLE#${articleSlug}` }),
  articlePrefix: 'ARTICLE#',
  /** The same article under its run date (daily-run articles only): a day's articles are one Query, not a read of all. */
  articleOfDay: (slug: string, runDate: string, articleSlug: string) => ({ PK: keys.org(slug), SK: `ARTICLEDAY#${runDate}#${articleSlug}` }),
  articleDayPrefix: (runDate: string) => `ARTICLEDAY#${runDate}#`,
  competitor: (slug: string, competitorId: string) => ({ PK: keys.org(slug), SK: `COMPETITOR#${competitorId}` }),
  competitorPrefix: 'COMPETITOR#',
  /**
   * The slots of one competitor source's limit: one item whose `holders` map names the
   * competitor ids holding a slot (not under `competitorPrefix`: `_` is not `#`).
   */
  competitorSlots: (slug: string, source: string) => ({ PK: keys.org(slug), SK: `COMPETITOR_SLOTS#${source}` }),
  /**
   * One AI-bot visit: its 5-minute bucket (ISO, `YYYY-MM-DDTHH:MM:SSZ`) then its dedupe key,
   * so a business's visits of a date range are one Query (newest first with
   * ScanIndexForward=false) and the beacon and the server converge on one item.
   */
  visit: (slug: string, bucket: string, dedupeKey: string) => ({ PK: keys.org(slug), SK: `VISIT#${bucket}#${dedupeKey}` }),
  visitPrefix: 'VISIT#',
  /**
   * The claim on one bucket boundary for one dedupe key: two sightings either side of a
   * boundary both write it after their visit, and the one whose conditional put fails gives way.
   */
  visitEdge: (slug: string, boundary: string, dedupeKey: string) => ({ PK: keys.org(slug), SK: `VISITEDGE#${boundary}#${dedupeKey}` }),
  /** Visits per UTC day and platform (atomic counters): a range's totals are one Query. */
  visitDay: (slug: string, date: string) => ({ PK: keys.org(slug), SK: `VISITDAY#${date}` }),
  visitDayPrefix: 'VISITDAY#',
  /** A product's AI funnel on one UTC day (D170): its visits counted as recorded, its checks set with the day's report. */
  productFunnelDay: (slug: string, productId: string, date: string) => ({ PK: keys.org(slug), SK: `FUNNEL#${productId}#${date}` }),
  productFunnelPrefix: (productId: string) => `FUNNEL#${productId}#`,
  /** A day's answered checks per platform: the n shared by every product's funnel rates that day. */
  funnelDayTotals: (slug: string, date: string) => ({ PK: keys.org(slug), SK: `FUNNELDAY#${date}` }),
  funnelDayTotalsPrefix: 'FUNNELDAY#',
  /** One item per onboarding run (its steps), and a pointer to the latest run. */
  onboardingRun: (slug: string, executionId: string) => ({ PK: keys.org(slug), SK: `ONBOARDING#${executionId}` }),
  onboardingLatest: (slug: string) => ({ PK: keys.org(slug), SK: 'ONBOARDING' }),
  /** The CDN distribution of a business (the proxy fields live on the AI-site record). */
  distributionIndex: (domain: string) => ({ GSI1PK: `CDN#${domain.toLowerCase()}`, GSI1SK: 'AISITE' }),
  /**
   * The edge function's current version (issue 15), the local stand-in's version counter and
   * the one-at-a-time lease of rollouts: fleet-wide items, one each.
   */
  edgeCurrent: { PK: 'EDGE#CURRENT', SK: 'EDGE' },
  edgeLocalVersions: { PK: 'EDGE#LOCALVERSIONS', SK: 'EDGE' },
  edgeRolloutLease: { PK: 'EDGE#ROLLOUT', SK: 'LEASE' },
  /** The addresses a crawler vendor publishes (D193): one fleet-wide item per vendor, all in one partition. */
  crawlerAddresses: (vendor: string) => ({ PK: 'CRAWLER_ADDRESSES', SK: `VENDOR#${vendor}` }),
  crawlerAddressesPartition: 'CRAWLER_ADDRESSES',
  /** Public (pre-payment) scan results, by normalized store domain (D19). */
  prepaymentScan: (domain: string) => ({ PK: `SCAN#${domain.toLowerCase()}`, SK: 'SCAN' }),
  /** Local workflow executions (Step Functions keeps its own on AWS). */
  execution: (executionId: string) => ({ PK: `EXECUTION#${executionId}`, SK: 'EXECUTION' }),

  /**
   * Daily schedule: per execution, its record and one run record per business (one
   * partition per execution, so every execution reads back whole); per business per UTC
   * day, the day's lease and the latest execution.
   */
  dailyExecution: (executionId: string) => ({ PK: `DAILYEXEC#${executionId}`, SK: 'EXECUTION' }),
  dailyBusinessRun: (executionId: string, slug: string) => ({ PK: `DAILYEXEC#${executionId}`, SK: `ORG#${slug}` }),
  /** One bucket of a business run's changed URLs (D39: a run's URLs are spread over items by hash, never one growing item). */
  dailyChangedUrls: (executionId: string, slug: string, bucket: number) => ({ PK: `DAILYEXEC#${executionId}`, SK: `CHANGED#${slug}#${String(bucket).padStart(2, '0')}` }),
  dailyChangedUrlsPrefix: (slug: string) => `CHANGED#${slug}#`,
  dailyLease: (runDate: string, slug: string) => ({ PK: `DAILYRUN#${runDate}`, SK: `ORG#${slug}` }),

  /** GSI1: a store's normalized domain → its organization. */
  domainIndex: (domain: string) => ({ GSI1PK: `DOMAIN#${domain}`, GSI1SK: 'BUSINESS' }),
  /** The organization record (name, provider id, member cache, payment customer id; D8, D11, D29). */
  organization: (slug: string) => ({ PK: keys.org(slug), SK: 'ORGANIZATION' }),
  /** GSI1: the identity provider's organization id → the organization record. */
  providerOrgIndex: (providerOrgId: string) => ({ GSI1PK: `IDPORG#${providerOrgId}`, GSI1SK: 'ORGANIZATION' }),
  /** A processed inbound webhook message, by its sender and message id (duplicates are no-ops, D27). */
  webhookReceipt: (source: string, messageId: string) => ({ PK: `WEBHOOK#${source}#${messageId}`, SK: 'RECEIPT' }),
  /** GSI1: a product entity's UUID → its item (products are keyed by slug). */
  entityIndex: (entityId: string) => ({ GSI1PK: `ENTITY#${entityId}`, GSI1SK: 'PRODUCT' }),
  /** GSI2: all businesses, for the daily fan-out. */
  businessListing: (slug: string) => ({ GSI2PK: 'BUSINESSES', GSI2SK: slug }),

  /** Fleet-wide limits of one AI platform: concurrency slots and the daily check budget. */
  platformSlot: (platform: string, slot: number) => ({ PK: `PLATFORM#${platform}`, SK: `SLOT#${slot}` }),
  platformBudget: (platform: string, date: string) => ({ PK: `PLATFORM#${platform}`, SK: `BUDGET#${date}` }),
  platformRate: (platform: string, minuteStart: number) => ({ PK: `PLATFORM#${platform}`, SK: `RATE#${minuteStart}` }),

  rateWindow: (limiter: string, clientIp: string, windowStart: number) => ({
    PK: `RATE#${limiter}#${clientIp}`,
    SK: `WINDOW#${windowStart}`,
  }),
} as const;
