import { classifyUserAgent } from '../../../functions/core/site/ai-bots';
import {
  longerToken, regexNames, vendoredCrawlerUserAgents, vendoredDeviceDetector, type VendoredAiCrawlers,
} from '../../../functions/core/site/ai-crawler-lists';
import { LISTED_AI_CRAWLER_PATTERN, VENDORED_LISTS, listedAiCrawler } from '../../../functions/core/site/listed-ai-crawlers';
import deviceDetector from '../../../functions/core/site/vendored/device-detector.json';
import crawlerUserAgents from '../../../functions/core/site/vendored/crawler-user-agents.json';
import { measureAgents } from '../../../bench/agents';
import { AUTOMATED_SAMPLES } from '../../fixtures/automated-user-agents';

const AT = { commit: 'c0ffee', committedAt: '2026-01-01T00:00:00Z', refreshedAt: '2026-01-02' };

describe('the long tail of AI crawlers (issue 46): registries vendored beside ai.robots.txt', () => {
  it.each([
    // device-detector's own fixtures (Tests/fixtures/bots.yml), unless a bare token.
    ['KimiBot/1.0', 'KimiBot', 'device-detector'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; KimiBot/1.0; +https://www.kimi.com/policies/kimi-crawlers', 'KimiBot', 'device-detector'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; Kimi-SearchBot/1.0; +https://www.kimi.com/policies/kimi-crawlers', 'Kimi-SearchBot', 'device-detector'],
    ['ProRataInc (The ProRata Fair Use Crawler; https://prorata.ai; support@prorata.ai)', 'ProRataInc', 'device-detector'],
    ['Mozilla/5.0 (compatible; GoGuidesCrawler/2.0; +https://www.goguides.com/crawler)', 'GoGuidesCrawler', 'device-detector'],
    ['Mozilla/5.0 (compatible; IbouBot/1.0; +bot@ibou.io; +https://ibou.io/iboubot.html)', 'IbouBot', 'device-detector'],
    ['webzio (+https://webz.io/bot.html)', 'webzio', 'device-detector'],
    // Says it follows Googlebot's rules; that does not make it Googlebot.
    ['SentiBot www.sentibot.eu (compatible with Googlebot)', 'SentiBot', 'device-detector'],
    // crawler-user-agents' instances.
    ['linkReader/1.0 (+https://gochitchat.ai)', 'linkReader', 'crawler-user-agents'],
    ['Spawning-AI', 'Spawning-AI', 'crawler-user-agents'],
    ['Novellum', 'Novellum', 'crawler-user-agents'],
    ['ImageMind', 'ImageMind', 'crawler-user-agents'],
    ['Mozilla/5.0 (compatible; ExteContextCrawl/1.0; +http://crawl001.exte.ai)', 'ExteContextCrawl', 'crawler-user-agents'],
    ['crawl4ai-adapter/1.0', 'crawl4ai-adapter', 'crawler-user-agents'],
  ])('%s is an AI crawler (%s, listed by %s)', (ua, token, list) => {
    const verdict = classifyUserAgent(ua);
    expect(verdict).toMatchObject({ kind: 'ai-crawler', isAiCrawler: true, visitClass: 'ai', platformId: 'unknown', token, documented: false });
    expect(verdict.vendor).toContain(list);
    // The tracking script carries the same names.
    expect(LISTED_AI_CRAWLER_PATTERN.test(ua)).toBe(true);
  });

  it('a name several lists give remembers each of them, ai.robots.txt first', () => {
    expect(listedAiCrawler('Mozilla/5.0 (compatible; PanguBot;pangubot@huawei.com)')).toEqual({ name: 'PanguBot', listedBy: ['ai.robots.txt', 'device-detector'] });
    expect(listedAiCrawler('Mozilla/5.0 (compatible; NotKimiBotAtAll/1.0)')).toBeNull();
    expect(VENDORED_LISTS.map((l) => l.label)).toEqual(['ai.robots.txt', 'device-detector', 'crawler-user-agents']);
  });

  it.each([
    // Registered only as search engines (device-detector "Search bot", crawler-user-agents "search-engine").
    'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.1 (KHTML, like Gecko) Chrome/21.0.1180.89 Safari/537.1; 360Spider',
    'Mozilla/5.0 (compatible; Linux x86_64; Mail.RU_Bot/2.0; +http://go.mail.ru/help/robots)',
    'Aboundex/0.2 (http://www.aboundex.com/crawler/)',
    'Mozilla/5.0 (compatible; woriobot +http://worio.com)',
  ])('a crawler a registry lists only as a search engine is no AI visit: %s', (ua) => {
    expect(classifyUserAgent(ua)).toMatchObject({ isAiCrawler: false });
    expect(classifyUserAgent(ua).visitClass).not.toBe('ai');
  });

  it('the project\'s own tables win over a registry: Applebot stays search, the IAS ad checker stays non-AI', () => {
    expect(classifyUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Applebot/0.1)'))
      .toMatchObject({ kind: 'search-crawler', visitClass: 'search_engine' });
    expect(classifyUserAgent('IAS Crawler (ias_crawler; http://integralads.com/site-indexing-policy/)')).toMatchObject({ kind: 'non-ai-bot', visitClass: null });
  });

  it('the vendored registries hold their AI entries only, each with its own category', () => {
    for (const agent of (deviceDetector as VendoredAiCrawlers).agents) expect([agent.name, agent.function]).toEqual([agent.name, expect.stringMatching(/^AI /)]);
    for (const agent of (crawlerUserAgents as VendoredAiCrawlers).agents) expect([agent.name, agent.function]).toEqual([agent.name, expect.stringContaining('ai-crawler')]);
    for (const list of VENDORED_LISTS) expect(list.list.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('every agent of the 310-agent non-AI corpus still gets no AI visit class', () => {
    expect(AUTOMATED_SAMPLES.length).toBeGreaterThanOrEqual(310);
    const asAi = AUTOMATED_SAMPLES.filter((s) => classifyUserAgent(s.ua).visitClass === 'ai').map((s) => s.name);
    expect(asAi).toEqual([]);
  });

  it('the bench: long-tail recall at least 95% (the issue\'s goal), no non-AI agent counted', () => {
    const r = measureAgents();
    expect(r.longTail.n).toBeGreaterThanOrEqual(40);
    expect(r.longTail.recognised / r.longTail.n).toBeGreaterThanOrEqual(0.95);
    expect(r.automatedAsAi).toBe(0);
  });
});

describe('vendoring a registry (ai-crawler-lists.ts)', () => {
  it.each([
    ['KimiBot', ['KimiBot']],
    ['(GoGuides(?:Crawler|DiscoveryBot))', ['GoGuidesCrawler', 'GoGuidesDiscoveryBot']],
    ['(360Spider(?:-Image|-Video)?)', ['360Spider-Image', '360Spider-Video', '360Spider']],
    ['bigsur\\.ai', ['bigsur.ai']],
    ['[cC]laude[bB]ot', ['ClaudeBot']],
    ['PerplexityBot\\/', ['PerplexityBot']],
    ['ClaudeBot|Anthropic-Claude', ['ClaudeBot', 'Anthropic-Claude']],
    ['.+diffbot', []],
    ['Spider[\\s\\S]*spider\\.com', []],
    ['^Seekbot', []],
  ])('regexNames(%s) is %j', (regex, names) => {
    expect(regexNames(regex)).toEqual(names);
  });

  it('an example that spells the name as the start of a longer token adds that token; a numeric id does not', () => {
    expect(longerToken('ProRata', 'ProRataInc (The ProRata Fair Use Crawler; https://prorata.ai)')).toBe('ProRataInc');
    expect(longerToken('crawl4ai', 'crawl4ai-adapter/1.0')).toBe('crawl4ai-adapter');
    expect(longerToken('TSM-turingos', 'Mozilla/5.0 (Macintosh; TSM-turingos-1253296984) Chrome/119.0.0.0')).toBeNull();
    expect(longerToken('KimiBot', 'Mozilla/5.0 (compatible; KimiBot/1.0)')).toBeNull();
  });

  it('device-detector: only the "AI ..." categories, examples from its fixtures', () => {
    const list = vendoredDeviceDetector(
      [
        { regex: 'AcoonBot', name: 'Acoon', category: 'Search bot' },
        { regex: 'KimiBot', name: 'KimiBot', category: 'AI Data Scraper' },
        { regex: '(GoGuides(?:Crawler|DiscoveryBot))', name: '$1', category: 'AI Search Crawler' },
      ],
      [
        { user_agent: 'Mozilla/5.0 (compatible; KimiBot/1.0)', bot: { name: 'KimiBot', category: 'AI Data Scraper' } },
        { user_agent: 'GoGuidesDiscoveryBot/1.0 (+https://www.goguides.com/crawler)', bot: { name: 'GoGuidesDiscoveryBot', category: 'AI Search Crawler' } },
      ],
      AT,
    );
    expect(list).toMatchObject({ commit: 'c0ffee', committed_at: AT.committedAt, refreshed_at: AT.refreshedAt, source: expect.stringContaining('matomo-org/device-detector') });
    expect(list.agents).toEqual([
      { name: 'KimiBot', function: 'AI Data Scraper', regex: 'KimiBot', example: 'Mozilla/5.0 (compatible; KimiBot/1.0)' },
      { name: 'GoGuidesCrawler', function: 'AI Search Crawler', regex: '(GoGuides(?:Crawler|DiscoveryBot))', example: 'GoGuidesDiscoveryBot/1.0 (+https://www.goguides.com/crawler)' },
      { name: 'GoGuidesDiscoveryBot', function: 'AI Search Crawler', regex: '(GoGuides(?:Crawler|DiscoveryBot))', example: 'GoGuidesDiscoveryBot/1.0 (+https://www.goguides.com/crawler)' },
    ]);
  });

  it('crawler-user-agents: only entries tagged "ai-crawler"; one tagged only "search-engine" stays out', () => {
    const list = vendoredCrawlerUserAgents(
      [
        { pattern: 'IbouBot', instances: ['Mozilla/5.0 (compatible; IbouBot/1.0)'], tags: ['search-engine'] },
        { pattern: 'linkReader\\/', instances: ['linkReader/1.0 (+https://gochitchat.ai)'], tags: ['ai-crawler'] },
        { pattern: 'AISearchBot', tags: ['search-engine', 'ai-crawler'] },
      ],
      AT,
    );
    expect(list.agents).toEqual([
      { name: 'linkReader', function: 'ai-crawler', regex: 'linkReader\\/', example: 'linkReader/1.0 (+https://gochitchat.ai)' },
      { name: 'AISearchBot', function: 'search-engine, ai-crawler', regex: 'AISearchBot' },
    ]);
  });
});
