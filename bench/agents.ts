/**
 * The User-Agent classifier (functions/core/site/ai-bots.ts) on the project's corpus with
 * sources (test/fixtures/ai-user-agents.ts), issue 22's figures: share of documented AI
 * agents recognised as AI, share attributed to the right platform (platform_1..8 or
 * `unknown`), and browsers and classic search-engine crawlers counted as AI (both must be 0);
 * issue 35's: the labelled non-AI automated agents (test/fixtures/automated-user-agents.ts:
 * generic clients, monitors, link previewers, headless browsers, other automation, each with
 * its source) counted as AI, by kind, and the AI class's precision and recall over everything.
 * Printed in the `agents` section of `npm run bench`; the targets (≥ 98%, ≥ 95%, 0, 0) are
 * asserted by test/core/site/ai-bots.test.ts. Run alone: `npx tsx bench/agents.ts`.
 */
import { classifyUserAgent, type UserAgentClass } from '../functions/core/site/ai-bots';
import { AI_CRAWLER_SAMPLES, HUMAN_SAMPLES, SEARCH_CRAWLER_SAMPLES, type UserAgentSample } from '../test/fixtures/ai-user-agents';
import { AUTOMATED_SAMPLES } from '../test/fixtures/automated-user-agents';

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
  return {
    aiAgents: ai.length, recognised, attributed, browsers: browsers.length, browsersAsAi, searchCrawlers: search.length, searchCrawlersAsAi, searchCrawlersApart,
    automated: AUTOMATED_SAMPLES.length, automatedAsAi, automatedByKind, precision: countedAsAi ? recognised / countedAsAi : NaN, wrong,
  };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');

export function agentsLines(r: AgentsReport): string[] {
  return [
    `AI agents recognised as AI ${pct(r.recognised, r.aiAgents)} (${r.recognised}/${r.aiAgents}), attributed to the right platform ${pct(r.attributed, r.aiAgents)} (${r.attributed}/${r.aiAgents})`,
    `browsers as AI ${r.browsersAsAi}/${r.browsers}, search crawlers as AI ${r.searchCrawlersAsAi}/${r.searchCrawlers} (${r.searchCrawlersApart} stored apart as search_engine)`,
    `non-AI automated agents as AI ${pct(r.automatedAsAi, r.automated)} (${r.automatedAsAi}/${r.automated}: ${Object.entries(r.automatedByKind).map(([k, v]) => `${k} ${v.asAi}/${v.n}`).join(', ')}); AI class precision ${pct(r.precision, 1)}, recall ${pct(r.recognised, r.aiAgents)}`,
    ...(r.wrong.length ? [`wrong: ${r.wrong.join('; ')}`] : []),
  ];
}

if (require.main === module) for (const line of agentsLines(measureAgents())) console.log(line);
