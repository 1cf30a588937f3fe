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
  articleWeek: (slug: string, weekStart: string) => ({ PK: keys.org(slug), SK: `ARTICLE_WEEK#${weekStart}` }),

  /** GSI1: a store's normalized domain → its organization. */
  domainIndex: (domain: string) => ({ GSI1PK: `DOMAIN#${domain}`, GSI1SK: 'BUSINESS' }),
  /** GSI2: all businesses, for the daily fan-out. */
  businessListing: (slug: string) => ({ GSI2PK: 'BUSINESSES', GSI2SK: slug }),

  rateWindow: (limiter: string, clientIp: string, windowStart: number) => ({
    PK: `RATE#${limiter}#${clientIp}`,
    SK: `WINDOW#${windowStart}`,
  }),
} as const;
