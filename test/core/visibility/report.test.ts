import {
  buildProductNameIndex,
  buildVisibilityReport,
  factMismatches,
  findProductMentions,
  parseStatedNumber,
  platformStatus,
  type VisibilityReportInput,
} from '../../../functions/core/visibility/report';
import type { CheckVerdict, VisibilityCheck } from '../../../functions/core/visibility/checks';
import type { CitationKind } from '../../../functions/core/visibility/platform-answer';
import type { CatalogProduct } from '../../../functions/core/site/types';
import { PLATFORM_KEYS, type PlatformKey } from '../../../functions/core/constants';

const ORG = 'sukha';
const DAY = '2026-03-15';
const STORE = 'https://sukha.com';
const AI = 'https://sukha.ai-sites.example';

function product(id: string, name: string, variants: Array<[price: string, available: boolean]>, extra: Partial<CatalogProduct> = {}): CatalogProduct {
  return {
    productId: id,
    name,
    url: `${STORE}/products/${id}`,
    description: '',
    productType: 'Yoga',
    vendor: 'Sukha Yoga',
    tags: [],
    price: variants[0]?.[0] ?? null,
    compareAtPrice: null,
    currency: 'USD',
    available: variants.some(([, a]) => a),
    variants: variants.map(([price, available], i) => ({
      id: String(i + 1), title: `V${i + 1}`, options: [`V${i + 1}`], price, compareAtPrice: null, available, sku: null, gtin: null,
    })),
    imageUrls: [],
    updatedAt: null,
    ...extra,
  };
}

const PRODUCTS: CatalogProduct[] = [
  // Range 89.00–129.00; one of two variants available.
  product('cloud-nine-mat', 'Cloud Nine Mat – Sage', [['89.00', true], ['129.00', false]]),
  // 24.00, available.
  product('zen-block', 'Zen Cork Block', [['24.00', true]]),
  // "Travel Mat": only ordinary words, so its name is never matched in a text.
  product('travel-mat', 'Travel Mat', [['45.00', true]]),
];

const PROMPTS = [
  { prompt_id: 'p-biz', prompt: 'best eco yoga mat brands', entity_id: 'ent-biz', product_id: null },
  { prompt_id: 'p-cloud', prompt: 'is a sage yoga mat worth it', entity_id: 'ent-cloud', product_id: 'cloud-nine-mat' },
  { prompt_id: 'p-zen', prompt: 'best cork yoga block', entity_id: 'ent-zen', product_id: 'zen-block' },
] as const;

interface AnswerSpec {
  text: string;
  mentioned: boolean;
  recommended?: boolean;
  competitors?: string[];
  citations?: Array<[url: string, kind: CitationKind]>;
  by?: 'judge' | 'matcher';
  agrees?: boolean | null;
  judgeError?: string;
  model?: string;
  latency?: number;
  cost?: number;
  unit?: string;
}

function base(platform: PlatformKey, prompt: number) {
  const p = PROMPTS[prompt];
  return { org_slug: ORG, run_date: DAY, ...p, platform, checked_at: `${DAY}T06:00:00.000Z` };
}

function answered(platform: PlatformKey, prompt: number, a: AnswerSpec): VisibilityCheck {
  const verdict: CheckVerdict = {
    mentioned: a.mentioned,
    recommended: a.recommended ?? false,
    competitors_mentioned: a.competitors ?? [],
    citations: (a.citations ?? []).map(([url, kind]) => ({ url, kind })),
    by: a.by ?? 'judge',
  };
  return {
    ...base(platform, prompt),
    result: verdict.mentioned || verdict.recommended,
    status: 'checked',
    reason: null,
    answer: {
      text: a.text,
      citations: (a.citations ?? []).map(([url]) => url),
      model: a.model ?? null,
      latency_ms: a.latency ?? 1000,
      cost_units: a.cost ?? 1,
      cost_unit: a.unit ?? 'requests',
      obtained_via: 'test',
    },
    verdict,
    matcher_agrees: a.judgeError || (a.by ?? 'judge') === 'matcher' ? null : (a.agrees ?? true),
    judge_error: a.judgeError ?? null,
  };
}

function missing(platform: PlatformKey, prompt: number, status: 'unconfigured' | 'failed', reason: string): VisibilityCheck {
  return { ...base(platform, prompt), result: null, status, reason, answer: null, verdict: null, matcher_agrees: null, judge_error: null };
}

/*
 * The fixture: 3 prompts × 8 platforms. Platforms 1-5 are configured, 6-8 are not.
 * Platform 5 failed on the third prompt. Cells (T = mentioned or recommended):
 *
 *             p-biz  p-cloud  p-zen
 * platform_1    T       T       F
 * platform_2    T       T       T     (p-zen: the matcher disagreed with the judge)
 * platform_3    F       T       T     (matcher, no judge)
 * platform_4    T       F       T     (p-zen: the judge failed, the matcher decided)
 * platform_5    T       T      null   (p-biz: mentioned only by citing the AI site)
 * platform_6-8 null    null    null   (unconfigured)
 */
const CHECKS: VisibilityCheck[] = [
  answered('platform_1', 0, {
    text: 'Top picks:\n1. Manduka PRO\n2. Sukha Yoga\'s Cloud Nine Mat at $89 is a great option\n3. Lululemon The Mat',
    mentioned: true, recommended: true, competitors: ['Manduka', 'Lululemon'],
    citations: [[`${STORE}/en-gb/products/cloud-nine-mat/?variant=2`, 'store'], ['https://www.manduka.com/products/pro', 'competitor']],
    model: 'gpt-x-2026', latency: 1000, cost: 1200, unit: 'tokens',
  }),
  answered('platform_1', 1, {
    text: 'The Cloud Nine Mat – Sage by Sukha Yoga costs $79 and is sold out right now.',
    mentioned: true, citations: [[`${AI}/llms/cloud-nine-mat.txt`, 'ai_site']],
    model: 'gpt-x-2026', latency: 2000, cost: 1300, unit: 'tokens',
  }),
  answered('platform_1', 2, {
    text: 'For cork blocks, Manduka and Lululemon both make good ones.',
    mentioned: false, competitors: ['Manduka', 'Lululemon'], citations: [['https://lululemon.com/blocks', 'competitor']],
    model: 'gpt-x-2026', latency: 3000, cost: 1500, unit: 'tokens',
  }),

  answered('platform_2', 0, {
    text: 'Lululemon is the best known. Manduka is also popular. Sukha Yoga offers free shipping on mats.',
    mentioned: true, competitors: ['Lululemon', 'Manduka'],
    citations: [[`${STORE}/products/cloud-nine-mat?utm_source=chatgpt`, 'store'], ['https://reddit.com/r/yoga/1', 'other']],
  }),
  answered('platform_2', 1, {
    text: 'A sage mat like Cloud Nine Mat costs €95 in Europe.',
    mentioned: true, citations: [[`${STORE}/pages/about`, 'store']],
  }),
  answered('platform_2', 2, {
    text: 'The Zen Cork Block (USD 24.00) is a solid choice.',
    mentioned: true, recommended: true, agrees: false, citations: [[`${STORE}/products/zen-block`, 'store']],
  }),

  answered('platform_3', 0, {
    text: 'Popular brands include Manduka and Jade Yoga.',
    mentioned: false, competitors: ['Manduka', 'Jade Yoga'], by: 'matcher',
  }),
  answered('platform_3', 1, {
    text: 'Cloud Nine Mat sells for US$ 129.00 for the large size, and it is in stock.',
    mentioned: true, by: 'matcher', citations: [[`${AI}/ai/products/cloud-nine-mat/`, 'ai_site']],
  }),
  answered('platform_3', 2, {
    text: 'Zen Cork Block – 19.99 USD.',
    mentioned: true, by: 'matcher', citations: [[`${STORE}/collections/props/products/zen-block`, 'store']],
  }),

  answered('platform_4', 0, {
    text: 'Sukha Yoga and Manduka both make eco mats. The Travel Mat is $10.',
    mentioned: true, competitors: ['Manduka'], citations: [[`${STORE}/products/travel-mat`, 'store']],
  }),
  answered('platform_4', 1, {
    text: 'No specific brand stands out.',
    mentioned: false, citations: [['https://www.reddit.com/r/yoga/2', 'other']],
  }),
  answered('platform_4', 2, {
    text: 'Zen Cork Block is out of stock at the moment; try Lululemon.',
    mentioned: true, competitors: ['Lululemon'], by: 'matcher', judgeError: 'judge timed out',
  }),

  answered('platform_5', 0, {
    text: 'Manduka and Lululemon lead the market.',
    mentioned: true, competitors: ['Manduka', 'Lululemon'],
    citations: [['https://www.manduka.com/', 'competitor'], [`${AI}/llms/zen-block.txt`, 'ai_site']],
    model: 'sonar', latency: 700, cost: 1,
  }),
  answered('platform_5', 1, {
    text: 'Cloud Nine Mat retails at 89 dollars, or 130 dollars for the XL. The Cloud Nine Mat can be sold out in busy weeks.',
    mentioned: true, citations: [[`${STORE}/llms/cloud-nine-mat.txt`, 'store']],
    model: 'sonar-pro', latency: 900, cost: 1,
  }),
  missing('platform_5', 2, 'failed', 'HTTP 503 after 3 retries'),

  ...(['platform_6', 'platform_7', 'platform_8'] as const).flatMap((platform) =>
    [0, 1, 2].map((i) => missing(platform, i, 'unconfigured', `${platform.toUpperCase()}_API_KEY not set`))),
];

const INPUT: VisibilityReportInput = {
  orgSlug: ORG,
  runDate: DAY,
  checks: CHECKS,
  competitors: [{ name: 'Manduka', domain: 'manduka.com' }, { name: 'Lululemon', domain: 'lululemon.com' }],
  products: PRODUCTS,
  storeHosts: ['sukha.com', 'sukha-yoga.myshop.example'],
  aiSiteHosts: ['sukha.ai-sites.example'],
  productEntities: [{ productId: 'cloud-nine-mat', entityId: 'ent-cloud' }, { productId: 'zen-block', entityId: 'ent-zen' }],
  businessName: 'Sukha Yoga',
};


/** The products' visibility and citation counts; their funnel is asserted on its own (test/core/visibility/product-funnel.test.ts). */
const withoutFunnel = (products: Array<{ funnel?: unknown }>) => products.map(({ funnel: _funnel, ...rest }) => rest);

describe('buildVisibilityReport on the hand-computed fixture', () => {
  const report = buildVisibilityReport(INPUT);

  test('the fixture holds 3 prompts × 8 platforms', () => {
    expect(CHECKS).toHaveLength(24);
    expect(report.prompts).toBe(3);
  });

  test('platforms: scores over booleans only, statuses, reasons, models, cost and latency', () => {
    // platform_1: T T F → 2/3 = 66.7 → 67. Latency (1000+2000+3000)/3 = 2000; cost 1200+1300+1500 = 4000.
    expect(report.platforms.platform_1).toEqual({
      status: 'checked', planned: 3, checks: 3, trues: 2, score: 67, reasons: [],
      model: 'gpt-x-2026', cost_units: 4000, cost_unit: 'tokens', mean_latency_ms: 2000,
    });
    // platform_2: T T T → 100. Three answers at the default 1000 ms, 1 request each.
    expect(report.platforms.platform_2).toMatchObject({ status: 'checked', checks: 3, trues: 3, score: 100, model: null, cost_units: 3, cost_unit: 'requests', mean_latency_ms: 1000 });
    // platform_3: F T T → 67; platform_4: T F T → 67.
    expect(report.platforms.platform_3).toMatchObject({ status: 'checked', checks: 3, trues: 2, score: 67 });
    expect(report.platforms.platform_4).toMatchObject({ status: 'checked', checks: 3, trues: 2, score: 67 });
    // platform_5: T T null → 2/2 = 100, partial; latency (700+900)/2 = 800; two models reported.
    expect(report.platforms.platform_5).toEqual({
      status: 'partial', planned: 3, checks: 2, trues: 2, score: 100, reasons: ['HTTP 503 after 3 retries'],
      model: 'sonar, sonar-pro', cost_units: 2, cost_unit: 'requests', mean_latency_ms: 800,
    });
    // Unconfigured is not false (D30): no boolean, no score, the reason kept once.
    for (const key of ['platform_6', 'platform_7', 'platform_8'] as const) {
      expect(report.platforms[key]).toEqual({
        status: 'unconfigured', planned: 3, checks: 0, trues: 0, score: null, reasons: [`${key.toUpperCase()}_API_KEY not set`],
        model: null, cost_units: 0, cost_unit: null, mean_latency_ms: null,
      });
    }
  });

  test('totals: 11 of 14 booleans, Wilson interval, judge record', () => {
    // Booleans: 3+3+3+3+2 = 14 (the 10 null cells are left out); trues 2+3+2+2+2 = 11.
    // raw = 11/14 = 78.571… → 78.6.
    // Wilson (z = 1.959964, z² = 3.841459, n = 14, p = 0.785714):
    //   centre = p + z²/2n = 0.785714 + 0.137195 = 0.922909
    //   spread = z·sqrt(p(1-p)/n + z²/4n²) = 1.959964·sqrt(0.0120262 + 0.0048998) = 1.959964·0.130100 = 0.254991
    //   denom  = 1 + z²/n = 1.274390
    //   low  = (0.922909 - 0.254991)/1.274390 = 0.52411 → 52.4
    //   high = (0.922909 + 0.254991)/1.274390 = 0.92428 → 92.4
    // Judge: answers judged = platform_1 (3) + platform_2 (3) + platform_4 p-biz, p-cloud (2)
    //   + platform_5 (2) = 10; one disagreement (platform_2 p-zen); one judge error (platform_4 p-zen).
    expect(report.totals).toEqual({
      checks_planned: 24,
      checks_done: 14,
      trues: 11,
      raw_score: 78.6,
      interval: { low: 52.4, high: 92.4 },
      platforms_answered: 5,
      judge: { evaluated: 10, disagreements: 1, errors: 1 },
    });
  });

  test('share of voice: entity and the two known competitors; unknown brands apart', () => {
    // Entity mentioned (verdict.mentioned) in 11 answers (2+3+2+2+2, as the trues).
    // Manduka: p1/biz, p1/zen, p2/biz, p3/biz, p4/biz, p5/biz = 6.
    // Lululemon: p1/biz, p1/zen, p2/biz, p4/zen, p5/biz = 5.
    // All brand mentions: 11 + 6 + 5 = 22 → 50.0 %, 27.27 → 27.3 %, 22.73 → 22.7 %.
    // First named: Manduka in p1/biz, p1/zen, p3/biz, p5/biz (the entity there is known only
    //   by a citation, so it comes after the brands found in the text) = 4;
    //   Lululemon in p2/biz = 1; the entity in p1/cloud, p2/cloud, p2/zen, p3/cloud, p3/zen,
    //   p4/biz ("Sukha Yoga and Manduka"), p4/zen (its product "Zen Cork Block" comes first),
    //   p5/cloud = 8. 4 + 1 + 8 = 13 answers naming a brand (p4/cloud names none).
    expect(report.share_of_voice).toEqual([
      { name: 'Sukha Yoga', is_entity: true, mentions: 11, share: 50, first_position_count: 8 },
      { name: 'Manduka', is_entity: false, mentions: 6, share: 27.3, first_position_count: 4 },
      { name: 'Lululemon', is_entity: false, mentions: 5, share: 22.7, first_position_count: 1 },
    ]);
    // "Jade Yoga" (platform_3 p-biz) is not a known competitor: listed apart, not in the share.
    expect(report.other_brands).toEqual([{ name: 'Jade Yoga', mentions: 1 }]);
  });

  test('products: per-product visibility and citation counts', () => {
    // cloud-nine-mat (p-cloud): T T T F T → 4/5 = 80. Citations pointing at it:
    //   p1/biz  store /en-gb/products/cloud-nine-mat/?variant=2 (locale, slash, query)
    //   p1/cloud AI site /llms/cloud-nine-mat.txt
    //   p2/biz  store /products/cloud-nine-mat?utm_source=chatgpt
    //   p3/cloud AI site /ai/products/cloud-nine-mat/
    //   p5/cloud store host, routed path /llms/cloud-nine-mat.txt (customer domain)  → 5.
    //   (/pages/about on the store is no product.)
    // zen-block (p-zen): F T T T null → 3/4 = 75. Citations: /products/zen-block,
    //   /collections/props/products/zen-block, AI site /llms/zen-block.txt → 3.
    // travel-mat: never sampled, cited once by p4/biz → listed with no checks.
    expect(withoutFunnel(report.products)).toEqual([
      { product_id: 'cloud-nine-mat', entity_id: 'ent-cloud', prompts: 1, checks: 5, trues: 4, score: 80, citation_count: 5, retrieved_count: 0 },
      { product_id: 'travel-mat', entity_id: null, prompts: 0, checks: 0, trues: 0, score: null, citation_count: 1, retrieved_count: 0 },
      { product_id: 'zen-block', entity_id: 'ent-zen', prompts: 1, checks: 4, trues: 3, score: 75, citation_count: 3, retrieved_count: 0 },
    ]);
  });

  test('citations: by the verdict kinds, and the most cited hosts', () => {
    // store: p1/biz, p2/biz, p2/cloud, p2/zen, p3/zen, p4/biz, p5/cloud = 7
    // ai_site: p1/cloud, p3/cloud, p5/biz = 3; competitor: p1/biz, p1/zen, p5/biz = 3;
    // other: the two reddit threads = 2. Total 15.
    // Hosts (www. dropped): sukha.com 7, sukha.ai-sites.example 3, manduka.com 2,
    // reddit.com 2 (ties by name), lululemon.com 1.
    expect(report.citations).toEqual({
      total: 15,
      by_kind: { store: 7, ai_site: 3, competitor: 3, other: 2 },
      top_hosts: [
        { host: 'sukha.com', count: 7 },
        { host: 'sukha.ai-sites.example', count: 3 },
        { host: 'manduka.com', count: 2 },
        { host: 'reddit.com', count: 2 },
        { host: 'lululemon.com', count: 1 },
      ],
      retrieved: { total: 0, by_kind: { store: 0, ai_site: 0, competitor: 0, other: 0 }, top_hosts: [] },
    });
  });

  test('fact mismatches: wrong prices, false stock claims, an unverifiable shipping claim', () => {
    // Fine, not listed: p1/biz "$89" (= the 89.00 variant); p2/cloud "€95" (another currency
    // than the store's USD: not compared); p2/zen "USD 24.00"; p3/cloud "US$ 129.00" (the
    // other variant) and "in stock" (one variant is available); p4/biz "$10" for the Travel
    // Mat (a name of ordinary words, never matched); p5/cloud "89 dollars" and "130 dollars"
    // (129.00 + 1% = 130.29), and "can be sold out" (hedged, not a claim).
    // Listed:
    //   p1/cloud "$79" < 89.00 − 1% = 88.11 → price; "sold out" while 1 of 2 variants is available → stock
    //   p2/biz "free shipping" in a sentence naming the business → shipping, catalogue null
    //   p3/zen "19.99 USD" ≠ 24.00 → price
    //   p4/zen "out of stock" while its only variant is available → stock
    const m = report.fact_mismatches;
    expect(m.map(({ excerpt: _e, ...rest }) => rest)).toEqual([
      { platform: 'platform_1', prompt_id: 'p-cloud', prompt: PROMPTS[1].prompt, product_id: 'cloud-nine-mat', kind: 'price', stated: '$79', catalogue: 'USD 89.00–129.00' },
      { platform: 'platform_1', prompt_id: 'p-cloud', prompt: PROMPTS[1].prompt, product_id: 'cloud-nine-mat', kind: 'stock', stated: 'sold out', catalogue: 'In stock (V2: sold out)' },
      { platform: 'platform_2', prompt_id: 'p-biz', prompt: PROMPTS[0].prompt, product_id: null, kind: 'shipping', stated: 'free shipping', catalogue: null },
      { platform: 'platform_3', prompt_id: 'p-zen', prompt: PROMPTS[2].prompt, product_id: 'zen-block', kind: 'price', stated: '19.99 USD', catalogue: 'USD 24.00' },
      { platform: 'platform_4', prompt_id: 'p-zen', prompt: PROMPTS[2].prompt, product_id: 'zen-block', kind: 'stock', stated: 'out of stock', catalogue: 'In stock' },
    ]);
    expect(m[2].excerpt).toBe('Sukha Yoga offers free shipping on mats.');
    expect(m[3].excerpt).toBe('Zen Cork Block – 19.99 USD.');
  });

  test('mentioned prompts: every prompt has a true cell somewhere', () => {
    expect(report.mentioned_prompts).toBe(3);
  });

  test('the input is not changed and the result is plain JSON', () => {
    const again = buildVisibilityReport(INPUT);
    expect(JSON.parse(JSON.stringify(again))).toEqual(report);
  });
});

describe('buildVisibilityReport edge cases', () => {
  test('a prompt without a true cell is not a mentioned prompt; a re-run boolean is not replaced by null', () => {
    const checks: VisibilityCheck[] = [
      answered('platform_1', 0, { text: 'Sukha Yoga is good.', mentioned: true }),
      answered('platform_1', 1, { text: 'Nothing to say.', mentioned: false }),
      { ...missing('platform_1', 0, 'failed', 'timeout'), checked_at: `${DAY}T07:00:00.000Z` },
    ];
    const r = buildVisibilityReport({ ...INPUT, checks });
    expect(r.mentioned_prompts).toBe(1);
    expect(r.platforms.platform_1).toMatchObject({ status: 'checked', checks: 2, trues: 1, score: 50, reasons: [] });
    expect(r.platforms.platform_2.status).toBe('not_run');
    expect(r.totals).toMatchObject({ checks_planned: 16, checks_done: 2, raw_score: 50, platforms_answered: 1 });
  });

  test('no booleans: no score, no interval, no share', () => {
    const checks = PLATFORM_KEYS.map((k) => missing(k, 0, 'unconfigured', 'no key'));
    const r = buildVisibilityReport({ ...INPUT, checks });
    expect(r.totals).toMatchObject({ checks_done: 0, raw_score: null, interval: null, platforms_answered: 0 });
    expect(r.share_of_voice.every((row) => row.mentions === 0 && row.share === null)).toBe(true);
    expect(r.products).toEqual([]);
  });

  test('mixed failure kinds on one platform are "failed"', () => {
    const checks = [missing('platform_1', 0, 'failed', 'HTTP 500'), { ...missing('platform_1', 1, 'unconfigured', 'no key'), status: 'budget' as const, reason: 'daily budget spent' }];
    expect(buildVisibilityReport({ ...INPUT, checks }).platforms.platform_1).toMatchObject({ status: 'failed', reasons: ['HTTP 500', 'daily budget spent'] });
  });

  test('an answer without citation labels is classified by host', () => {
    const check = answered('platform_1', 0, { text: 'See Sukha Yoga.', mentioned: true });
    check.verdict!.citations = [];
    check.answer!.citations = [`${STORE}/products/zen-block`, `${AI}/llms/zen-block.txt`, 'https://manduka.com/x', 'not a url'];
    const r = buildVisibilityReport({ ...INPUT, checks: [check] });
    expect(r.citations.by_kind).toEqual({ store: 1, ai_site: 1, competitor: 1, other: 1 });
    expect(withoutFunnel(r.products)).toEqual([{ product_id: 'zen-block', entity_id: 'ent-zen', prompts: 0, checks: 0, trues: 0, score: null, citation_count: 2, retrieved_count: 0 }]);
  });

  test('retrieved URLs are shown beside the cited ones and never counted as citations', () => {
    const check = answered('platform_2', 1, { text: 'Manduka makes good mats.', mentioned: false, competitors: ['Manduka'], citations: [['https://www.manduka.com/pro', 'competitor']] });
    // The search step returned the store's product page and the AI site's file: the answer cites neither.
    check.answer!.retrieved = [`${STORE}/products/cloud-nine-mat`, `${AI}/llms/cloud-nine-mat.txt`, 'https://www.manduka.com/pro', 'https://reddit.com/r/yoga/3'];
    const r = buildVisibilityReport({ ...INPUT, checks: [check] });
    expect(r.citations).toEqual({
      total: 1,
      by_kind: { store: 0, ai_site: 0, competitor: 1, other: 0 },
      top_hosts: [{ host: 'manduka.com', count: 1 }],
      // the cited Manduka page is not repeated among the retrieved
      retrieved: {
        total: 3,
        by_kind: { store: 1, ai_site: 1, competitor: 0, other: 1 },
        top_hosts: [{ host: 'reddit.com', count: 1 }, { host: 'sukha.ai-sites.example', count: 1 }, { host: 'sukha.com', count: 1 }],
      },
    });
    expect(withoutFunnel(r.products)).toEqual([{ product_id: 'cloud-nine-mat', entity_id: 'ent-cloud', prompts: 1, checks: 1, trues: 0, score: 0, citation_count: 0, retrieved_count: 2 }]);
    expect(r.share_of_voice.find((row) => row.is_entity)).toMatchObject({ mentions: 0 });
  });

  test('a link that hides its source (a grounding redirect) is classified and counted by its source host', () => {
    const redirect = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC';
    const seen = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/XyZ';
    const check = answered('platform_3', 0, { text: 'Sukha Yoga has eco mats.', mentioned: true, by: 'matcher', citations: [[redirect, 'other']] });
    check.answer!.retrieved = [seen];
    check.answer!.source_hosts = { [redirect]: 'sukha.com', [seen]: 'manduka.com' };
    const r = buildVisibilityReport({ ...INPUT, checks: [check] });
    expect(r.citations.by_kind).toEqual({ store: 1, ai_site: 0, competitor: 0, other: 0 });
    expect(r.citations.top_hosts).toEqual([{ host: 'sukha.com', count: 1 }]);
    expect(r.citations.retrieved).toMatchObject({ total: 1, by_kind: { store: 0, ai_site: 0, competitor: 1, other: 0 }, top_hosts: [{ host: 'manduka.com', count: 1 }] });
  });

  test('platformStatus: the one rule of the report and the run summary', () => {
    const b = (result: boolean | null, status: VisibilityCheck['status'] = result === null ? 'failed' : 'checked') => ({ result, status });
    expect(platformStatus([], 10)).toBe('not_run');
    expect(platformStatus([b(true), b(false)], 2)).toBe('checked');
    expect(platformStatus([b(true), b(null)], 2)).toBe('partial');
    expect(platformStatus([b(null, 'budget'), b(null, 'budget')], 2)).toBe('budget');
    expect(platformStatus([b(null, 'budget'), b(null, 'failed')], 2)).toBe('failed');
  });

  test('checks of another business or day are refused', () => {
    const other = { ...answered('platform_1', 0, { text: 'x', mentioned: false }), run_date: '2026-03-14' };
    expect(() => buildVisibilityReport({ ...INPUT, checks: [other] })).toThrow(RangeError);
  });
});

describe('product names and stated facts', () => {
  const index = buildProductNameIndex([
    ...PRODUCTS,
    product('cloud-nine-mat-pro', 'Cloud Nine Mat Pro', [['150.00', true]]),
    product('lotus', 'Lotus', [['10.00', true]]),
    product('mat-sage', 'Sukha Yoga Flow Mat – Sage', [['60.00', true]]),
    product('mat-navy', 'Sukha Yoga Flow Mat – Navy', [['60.00', false]]),
    product('aero', 'AeroPress Go', [['39.95', true]], { currency: 'EUR' }),
  ]);
  const names = (text: string) => findProductMentions(text, index).map((m) => `${index.products[m.product].productId}@${text.slice(m.start, m.end)}`);

  test('whole words, longest name first, possessive, shortened forms, ambiguous forms dropped', () => {
    expect(names("The cloud nine mat pro beats the Cloud Nine Mat's grip")).toEqual([
      'cloud-nine-mat-pro@cloud nine mat pro', "cloud-nine-mat@Cloud Nine Mat's",
    ]);
    // One-word names never match; "Cloud Nine Matte" is not "Cloud Nine Mat".
    expect(names('Lotus is lovely. Cloud Nine Matte finish.')).toEqual([]);
    // The vendor-less form of a variant-named product; "Flow Mat" alone belongs to two products: dropped.
    expect(names('Sukha Yoga Flow Mat – Sage and the Flow Mat')).toEqual(['mat-sage@Sukha Yoga Flow Mat – Sage']);
    expect(names('the aeropress go and Aero-Press Go')).toEqual(['aero@aeropress go', 'aero@Aero-Press Go']);
  });

  test('prices in many written forms', () => {
    expect(['$89', '1,299.00', '89,00', '1.299,00', '12.5', '1,299', '24'].slice(1).map(parseStatedNumber)).toEqual([1299, 89, 1299, 12.5, 1299, 24]);
    const where = { platform: 'platform_1' as const, prompt_id: 'p', prompt: 'q' };
    const facts = (text: string) => factMismatches(text, { index, businessNames: ['Sukha Yoga'] }, where).map((f) => `${f.kind}:${f.product_id}:${f.stated}:${f.catalogue}`);
    // The AeroPress Go is priced in EUR (39.95): "39,95 €" and "€40" (within 1%) are fine,
    // "EUR 45" and "45 euros" are not; "$45" is another currency and is not compared.
    expect(facts('AeroPress Go: 39,95 €. AeroPress Go at €40. AeroPress Go for EUR 45. AeroPress Go, 45 euros. AeroPress Go costs $45.')).toEqual([
      'price:aero:EUR 45:EUR 39.95',
      'price:aero:45 euros:EUR 39.95',
    ]);
    // £12.50 against a USD product: not compared. Thresholds and discounts are not prices.
    expect(facts('Zen Cork Block £12.50. Zen Cork Block ships free on orders over $50 and is $5 off today.')).toEqual([]);
    // Each price goes to the product named right before it.
    expect(facts('The Zen Cork Block ($24) is cheaper than the Cloud Nine Mat Pro ($99).')).toEqual(['price:cloud-nine-mat-pro:$99:USD 150.00']);
    // "in stock" for a product with no available variant.
    expect(facts('The Sukha Yoga Flow Mat – Navy is in stock.')).toEqual(['stock:mat-navy:in stock:Out of stock']);
    expect(facts('Is the Sukha Yoga Flow Mat – Navy in stock? The Zen Cork Block is not in stock.')).toEqual(['stock:zen-block:not in stock:In stock']);
    // Free shipping said of a competitor only: not about the entity.
    expect(facts('Manduka offers free shipping.')).toEqual([]);
    expect(facts('Free shipping on the Zen Cork Block.')).toEqual(['shipping:zen-block:Free shipping:null']);
  });

  test('stock and price as the published site states them (site/offers.ts): a product marked unavailable is out of stock whatever its variants say', () => {
    // The store marks the whole product unavailable while a variant still reads available:
    // the site says "Out of stock", so "sold out" is no mismatch and "in stock" is one.
    const withdrawn = { ...product('ember-bolster', 'Ember Bolster Pro', [['40.00', true], ['44.00', true]]), available: false };
    const idx = buildProductNameIndex([withdrawn]);
    const where = { platform: 'platform_1' as const, prompt_id: 'p', prompt: 'q' };
    const facts = (text: string) => factMismatches(text, { index: idx, businessNames: [] }, where).map((f) => `${f.kind}:${f.stated}:${f.catalogue}`);
    expect(facts('The Ember Bolster Pro is sold out.')).toEqual([]);
    expect(facts('The Ember Bolster Pro is in stock.')).toEqual(['stock:in stock:Out of stock']);
    expect(facts('The Ember Bolster Pro costs $50.')).toEqual(['price:$50:USD 40.00–44.00']);
  });

  test('5,000 products sharing their first words: each name resolved to its own product (timing: npm run bench)', () => {
    const letters = (i: number) => String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + (Math.floor(i / 26) % 26)) + String.fromCharCode(97 + Math.floor(i / 676));
    // All 5,000 names share their first two tokens ("Nova Flow"), the worst case for a
    // prefix index; the trie walks a text once per token.
    const big = Array.from({ length: 5000 }, (_, i) => product(`nova-${i}`, `Nova Flow ${letters(i)}x Mat`, [[`${20 + (i % 50)}.00`, true]]));
    const bigIndex = buildProductNameIndex(big);
    const text = Array.from({ length: 40 }, (_, k) => `The Nova Flow ${letters(k * 97)}x Mat costs $${20 + ((k * 97) % 50)}.00 and the Nova Flow ${letters(k * 97 + 1)}x Mat is $1.`).join(' ');
    let found: ReturnType<typeof factMismatches> = [];
    for (let a = 0; a < 80; a++) found = factMismatches(text, { index: bigIndex, businessNames: ['Sukha Yoga'] }, { platform: 'platform_1', prompt_id: 'p', prompt: 'q' });
    // 40 sentences, each: the first price right (no mismatch), the "$1" wrong for the second product.
    expect(found).toHaveLength(40);
    expect(found[0]).toMatchObject({ product_id: 'nova-1', stated: '$1', catalogue: 'USD 21.00' });
  });
});
