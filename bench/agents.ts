/**
 * The User-Agent classifier (functions/core/site/ai-bots.ts) on the project's corpus with
 * sources (test/fixtures/ai-user-agents.ts), issue 22's figures: share of documented AI
 * agents recognised as AI, share attributed to the right platform (platform_1..8 or
 * `unknown`), and browsers and classic search-engine crawlers counted as AI (both must be 0);
 * issue 35's: the labelled non-AI automated agents (test/fixtures/automated-user-agents.ts:
 * generic clients, monitors, link previewers, headless browsers, other automation, each with
 * its source) counted as AI, by kind, and the AI class's precision and recall over everything,
 * and per platform; and spoofed claims (D193): each AI agent of a vendor that publishes its
 * addresses, from inside and from outside the vendor's list (the fixture mirror); issue 46's:
 * recall on the long tail, the AI entries of the registries vendored beside ai.robots.txt
 * (device-detector, crawler-user-agents) that ai.robots.txt does not name, each as the
 * registry's own example User-Agent or, without one, a `compatible; <Name>/1.0` string.
 * Printed in the `agents` section of `npm run bench`; the targets (≥ 98%, ≥ 95%, 0, 0) are
 * asserted by test/core/site/ai-bots.test.ts. Run alone: `npx tsx bench/agents.ts`.
 */
import { classifyUserAgent, type UserAgentClass } from '../functions/core/site/ai-bots';
import { AI_CRAWLER_SAMPLES, HUMAN_SAMPLES, SEARCH_CRAWLER_SAMPLES, type UserAgentSample } from '../test/fixtures/ai-user-agents';
import { AUTOMATED_SAMPLES } from '../test/fixtures/automated-user-agents';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addressMatcher, parsePrefixList, publishedListFor, PUBLISHED_ADDRESS_LISTS, type AddressMatcher } from '../functions/core/visits/published-addresses';
import { ROOT } from './lib';
import type { VendoredAiCrawlers } from '../functions/core/site/ai-crawler-lists';
import aiRobotsTxt from '../functions/core/site/vendored/ai-robots-txt.json';
import deviceDetector from '../functions/core/site/vendored/device-detector.json';
import crawlerUserAgents from '../functions/core/site/vendored/crawler-user-agents.json';

export interface AgentsReport {
  aiAgents: number;
  recognised: number;
  attributed: number;
  browsers: number;
  browsersAsAi: number;
  searchCrawlers: number;
  searchCrawlersAsAi: number;
  /** Search crawlers stored in their own class. */
  searchCrawlersApart: number;
  /** Non-AI automated agents, and how many of them (per kind) were counted as AI. */
  automated: number;
  automatedAsAi: number;
  automatedByKind: Record<string, { n: number; asAi: number }>;
  /** Of everything counted as AI, the share that is an AI agent. */
  precision: number;
  /** Per platform key (and `unknown`): of the agents counted as that platform, the share that is; of that platform's agents, the share counted as it. */
  byPlatform: Record<string, { n: number; predicted: number; correct: number }>;
  /**
   * Spoofed claims (D193): each AI agent whose vendor publishes its addresses, sent once from
   * an address in the vendor's list (test/fixtures/crawler-addresses) and once from outside
   * it: how many of each are counted.
   */
  spoofing: { claims: number; genuineCounted: number; spoofedCounted: number };
  /** Issue 46: the registries' AI agents ai.robots.txt does not name, per registry, and the ones missed. */
  longTail: { n: number; recognised: number; bySource: Record<string, { n: number; recognised: number }>; missed: string[] };
  /** Names of the samples the classifier gets wrong, with what it said. */
  wrong: string[];
}

type Classify = (ua: string) => Pick<UserAgentClass, 'kind' | 'platformId'>;

const withUa = (samples: readonly UserAgentSample[]) => samples.filter((s): s is UserAgentSample & { ua: string } => s.ua !== null);

export function measureAgents(classify: Classify = (ua) => classifyUserAgent(ua)): AgentsReport {
  const ai = withUa(AI_CRAWLER_SAMPLES);
  const browsers = withUa(HUMAN_SAMPLES);
  const search = withUa(SEARCH_CRAWLER_SAMPLES);
  const wrong: string[] = [];
  let recognised = 0;
  let attributed = 0;
  for (const s of ai) {
    const r = classify(s.ua);
    if (r.kind === 'ai-crawler') recognised++;
    else wrong.push(`${s.name}: ${r.kind}`);
    if (r.kind === 'ai-crawler' && r.platformId === (s.expect.platformId ?? 'unknown')) attributed++;
    else if (r.kind === 'ai-crawler') wrong.push(`${s.name}: ${r.platformId}, not ${s.expect.platformId ?? 'unknown'}`);
  }
  let browsersAsAi = 0;
  for (const s of browsers) if (classify(s.ua).kind === 'ai-crawler') (browsersAsAi++, wrong.push(`${s.name}: ai-crawler`));
  let searchCrawlersAsAi = 0;
  let searchCrawlersApart = 0;
  for (const s of search) {
    const kind = classify(s.ua).kind;
    if (kind === 'ai-crawler') (searchCrawlersAsAi++, wrong.push(`${s.name}: ai-crawler`));
    if (kind === 'search-crawler') searchCrawlersApart++;
  }
  const automatedByKind: Record<string, { n: number; asAi: number }> = {};
  let automatedAsAi = 0;
  for (const s of AUTOMATED_SAMPLES) {
    const kind = (automatedByKind[s.kind] ??= { n: 0, asAi: 0 });
    kind.n++;
    if (classify(s.ua).kind === 'ai-crawler') (kind.asAi++, automatedAsAi++, wrong.push(`${s.name}: ai-crawler`));
  }
  const countedAsAi = recognised + browsersAsAi + searchCrawlersAsAi + automatedAsAi;
  const byPlatform: AgentsReport['byPlatform'] = {};
  const platformOf = (id: string) => (byPlatform[id] ??= { n: 0, predicted: 0, correct: 0 });
  for (const s of ai) platformOf(s.expect.platformId ?? 'unknown').n++;
  for (const s of [...ai, ...browsers, ...search, ...AUTOMATED_SAMPLES]) {
    const r = classify(s.ua);
    if (r.kind !== 'ai-crawler') continue;
    platformOf(r.platformId).predicted++;
    if ('expect' in s && s.expect.kind === 'ai-crawler' && (s.expect.platformId ?? 'unknown') === r.platformId) platformOf(r.platformId).correct++;
  }
  return {
    aiAgents: ai.length, recognised, attributed, browsers: browsers.length, browsersAsAi, searchCrawlers: search.length, searchCrawlersAsAi, searchCrawlersApart,
    automated: AUTOMATED_SAMPLES.length, automatedAsAi, automatedByKind, precision: countedAsAi ? recognised / countedAsAi : NaN, byPlatform,
    spoofing: measureSpoofing(ai), longTail: measureLongTail(classify), wrong,
  };
}

/** Held out from ai.robots.txt: a registry's AI agents it does not name (a name both registries list counts once). */
export function longTailSamples(): Array<{ name: string; source: string; ua: string }> {
  const known = new Set((aiRobotsTxt as VendoredAiCrawlers).agents.map((a) => a.name.toLowerCase()));
  const out: Array<{ name: string; source: string; ua: string }> = [];
  for (const [source, list] of [['device-detector', deviceDetector], ['crawler-user-agents', crawlerUserAgents]] as const) {
    for (const agent of (list as VendoredAiCrawlers).agents) {
      if (known.has(agent.name.toLowerCase())) continue;
      known.add(agent.name.toLowerCase());
      out.push({ name: agent.name, source, ua: agent.example ?? `Mozilla/5.0 (compatible; ${agent.name}/1.0; +https://example.com/bot)` });
    }
  }
  return out;
}

function measureLongTail(classify: Classify): AgentsReport['longTail'] {
  const r: AgentsReport['longTail'] = { n: 0, recognised: 0, bySource: {}, missed: [] };
  for (const s of longTailSamples()) {
    const source = (r.bySource[s.source] ??= { n: 0, recognised: 0 });
    const kind = classify(s.ua).kind;
    r.n++, source.n++;
    if (kind === 'ai-crawler') r.recognised++, source.recognised++;
    else r.missed.push(`${s.name} (${kind})`);
  }
  return r;
}

/** Outside every vendor's list (TEST-NET-3, RFC 5737). */
const OUTSIDE_ADDRESS = '203.0.113.7';

/** The fixture mirror's lists per vendor, as the daily refresh would store them. */
function fixtureMatchers(): Map<string, { matcher: AddressMatcher; inside: string }> {
  const root = join(ROOT, 'test', 'fixtures', 'crawler-addresses');
  const out = new Map<string, { matcher: AddressMatcher; inside: string }>();
  for (const list of PUBLISHED_ADDRESS_LISTS) {
    const ranges = list.urls.flatMap((url) => {
      const file = join(root, new URL(url).host, new URL(url).pathname);
      return existsSync(file) ? parsePrefixList(readFileSync(file, 'utf8')) : [];
    });
    const v4 = ranges.find((r) => !r.includes(':'));
    if (v4) out.set(list.vendor, { matcher: addressMatcher(ranges), inside: v4.split('/')[0] });
  }
  return out;
}

function measureSpoofing(ai: ReadonlyArray<UserAgentSample & { ua: string }>): AgentsReport['spoofing'] {
  const lists = fixtureMatchers();
  let claims = 0;
  let genuineCounted = 0;
  let spoofedCounted = 0;
  for (const s of ai) {
    const verdict = classifyUserAgent(s.ua);
    const covering = publishedListFor(verdict.token);
    const list = covering ? lists.get(covering.vendor) : undefined;
    if (verdict.kind !== 'ai-crawler' || !list) continue;
    claims++;
    // Counted unless verified is false (app/visits/record.ts).
    if (list.matcher(list.inside)) genuineCounted++;
    if (list.matcher(OUTSIDE_ADDRESS)) spoofedCounted++;
  }
  return { claims, genuineCounted, spoofedCounted };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');

export function agentsLines(r: AgentsReport): string[] {
  return [
    `AI agents recognised as AI ${pct(r.recognised, r.aiAgents)} (${r.recognised}/${r.aiAgents}), attributed to the right platform ${pct(r.attributed, r.aiAgents)} (${r.attributed}/${r.aiAgents})`,
    `browsers as AI ${r.browsersAsAi}/${r.browsers}, search crawlers as AI ${r.searchCrawlersAsAi}/${r.searchCrawlers} (${r.searchCrawlersApart} stored apart as search_engine)`,
    `non-AI automated agents as AI ${pct(r.automatedAsAi, r.automated)} (${r.automatedAsAi}/${r.automated}: ${Object.entries(r.automatedByKind).map(([k, v]) => `${k} ${v.asAi}/${v.n}`).join(', ')}); AI class precision ${pct(r.precision, 1)}, recall ${pct(r.recognised, r.aiAgents)}`,
    `per platform, precision / recall (n): ${Object.entries(r.byPlatform).sort(([a], [b]) => a.localeCompare(b)).map(([id, p]) => `${id} ${pct(p.correct, p.predicted)} / ${pct(p.correct, p.n)} (${p.n})`).join(', ')}`,
    `AI-crawler recall on the long tail (second source): ${r.longTail.recognised} of ${r.longTail.n} (${pct(r.longTail.recognised, r.longTail.n)}; ${Object.entries(r.longTail.bySource).map(([s, v]) => `${s} ${v.recognised}/${v.n}`).join(', ')})${r.longTail.missed.length ? `, missed: ${r.longTail.missed.join(', ')}` : ''}`,
    `non-AI agents counted: ${r.automatedAsAi} of ${r.automated}`,
    `claims of a vendor that publishes addresses (${r.spoofing.claims} agents): from its addresses counted ${r.spoofing.genuineCounted}/${r.spoofing.claims}, spoofed from outside counted ${r.spoofing.spoofedCounted}/${r.spoofing.claims}`,
    ...(r.wrong.length ? [`wrong: ${r.wrong.join('; ')}`] : []),
  ];
}

if (require.main === module) for (const line of agentsLines(measureAgents())) console.log(line);
