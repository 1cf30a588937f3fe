import * as vm from 'node:vm';
import {
  AI_BOT_PATTERNS, LINK_PREVIEW_PATTERNS, NON_AI_BOT_PATTERNS, PLATFORM_NAMES, classifyUserAgent,
} from '../../../functions/core/site/ai-bots';
import { buildTrackingScript } from '../../../functions/core/site/tracking-script';
import { AI_CRAWLER_SAMPLES, HUMAN_SAMPLES, LINK_PREVIEW_SAMPLES, NON_AI_BOT_SAMPLES, type UserAgentSample } from '../../fixtures/ai-user-agents';
import { TRACKING_ENDPOINT } from './fixtures';

const ALL_SAMPLES: readonly UserAgentSample[] = [...AI_CRAWLER_SAMPLES, ...LINK_PREVIEW_SAMPLES, ...HUMAN_SAMPLES, ...NON_AI_BOT_SAMPLES];
const classified = ALL_SAMPLES.filter((s): s is UserAgentSample & { ua: string } => s.ua !== null);
const byName = (name: string) => classified.find((s) => s.name === name)!.ua;
const CHROME = byName('desktop Chrome');
const UAS = {
  gptbot: byName('GPTBot 1.1'),
  claudeBot: byName('ClaudeBot'),
  perplexityBot: byName('PerplexityBot'),
  metaExternal: byName('meta-externalagent'),
  generic: byName('an unknown crawler (D17: stored as unknown)'),
  headless: byName('HeadlessChrome (browser agents look like this too; not identifiable by UA)'),
  facebookApp: byName('Facebook in-app browser'),
  slack: byName('Slackbot-LinkExpanding'),
  semrush: byName('SemrushBot'),
};

describe('classifyUserAgent on published User-Agent strings (test/fixtures/ai-user-agents.ts)', () => {
  it('every sample names its source', () => {
    for (const sample of ALL_SAMPLES) expect([sample.name, sample.sources.length > 0]).toEqual([sample.name, true]);
  });

  it.each(classified.map((s) => [s.name, s] as const))('%s', (_, sample) => {
    const result = classifyUserAgent(sample.ua);
    expect(result.kind).toBe(sample.expect.kind);
    expect(result.isAiCrawler).toBe(sample.expect.kind === 'ai-crawler');
    expect(result.isBot).toBe(sample.expect.kind !== 'human');
    if (sample.expect.platformId) {
      expect(result.platformId).toBe(sample.expect.platformId);
      expect(result.platformName).toBe(PLATFORM_NAMES[sample.expect.platformId]);
    }
    if (sample.expect.purpose) expect(result.purpose).toBe(sample.expect.purpose);
    if (sample.expect.token) expect(result.token).toBe(sample.expect.token);
  });

  it('covers every platform that has a published User-Agent (1, 2, 3, 4, 6) and documents the ones that have none (5, 7, 8)', () => {
    const platforms = new Set(AI_CRAWLER_SAMPLES.filter((s) => s.ua).map((s) => s.expect.platformId));
    for (const p of ['platform_1', 'platform_2', 'platform_3', 'platform_4', 'platform_6', 'unknown']) expect(platforms).toContain(p);
    expect(AI_CRAWLER_SAMPLES.find((s) => s.expect.platformId === 'platform_7')?.ua).toBeNull();
  });

  it('Googlebot, bingbot and YouBot keep the looser §10 mapping as altPlatformId', () => {
    expect(classifyUserAgent(byName('Googlebot smartphone')).altPlatformId).toBe('platform_8');
    expect(classifyUserAgent(byName('bingbot')).altPlatformId).toBe('platform_5');
    expect(classifyUserAgent(byName('YouBot')).altPlatformId).toBe('platform_4');
    expect(classifyUserAgent(byName('meta-externalagent')).altPlatformId).toBeUndefined();
  });

  it('link previewers are bots but not AI crawlers, whatever their vendor (facebookexternalhit is Meta\'s previewer)', () => {
    expect(classifyUserAgent(byName('facebookexternalhit'))).toEqual({
      platformId: 'unknown', platformName: 'Unknown', kind: 'link-preview', isBot: true, isAiCrawler: false, token: 'facebookexternalhit', vendor: 'Meta',
    });
  });

  it('humans (and missing User-Agents) are humans', () => {
    for (const ua of ['', '   ', undefined, null]) {
      expect(classifyUserAgent(ua)).toEqual({ platformId: 'unknown', platformName: 'Unknown', kind: 'human', isBot: false, isAiCrawler: false });
    }
  });

  it('a Signature-Agent of the ChatGPT agent makes a stock Chrome request platform_1 (agent)', () => {
    expect(classifyUserAgent(CHROME, { signatureAgent: '"https://chatgpt.com"' })).toMatchObject({ kind: 'ai-crawler', platformId: 'platform_1', purpose: 'agent', token: 'ChatGPT agent' });
    expect(classifyUserAgent(CHROME, { signatureAgent: '"https://example.com"' }).kind).toBe('human');
  });

  it('no token of any table is reachable only by a later entry (first match wins)', () => {
    for (const table of [AI_BOT_PATTERNS, LINK_PREVIEW_PATTERNS, NON_AI_BOT_PATTERNS]) {
      for (const [i, entry] of table.entries()) {
        const ua = `Mozilla/5.0 (compatible; ${entry.token}/1.0)`;
        const firstMatch = (table as ReadonlyArray<{ pattern: RegExp }>).findIndex((e) => e.pattern.test(ua));
        expect([entry.token, firstMatch]).toEqual([entry.token, i]);
      }
    }
  });

  it('an AI token wins over the previewer and tool tables; every previewer and tool token is no AI crawler', () => {
    for (const entry of [...LINK_PREVIEW_PATTERNS, ...NON_AI_BOT_PATTERNS]) {
      const result = classifyUserAgent(`Mozilla/5.0 (compatible; ${entry.token}/1.0)`);
      expect([entry.token, result.isAiCrawler]).toEqual([entry.token, false]);
    }
  });
});

interface Sent {
  beacon: Array<{ url: string; body: string }>;
  fetch: Array<{ url: string; init: Record<string, unknown> }>;
}

function runTracker(userAgent: string | (() => string), opts: { beacon?: 'ok' | 'refuse' | 'missing' | 'throw' } = {}): Sent {
  const sent: Sent = { beacon: [], fetch: [] };
  const navigator: Record<string, unknown> = { language: 'en-US' };
  if (typeof userAgent === 'function') Object.defineProperty(navigator, 'userAgent', { get: userAgent });
  else navigator.userAgent = userAgent;
  if (opts.beacon !== 'missing') {
    navigator.sendBeacon = (url: string, body: string) => {
      if (opts.beacon === 'throw') throw new Error('blocked');
      sent.beacon.push({ url, body });
      return opts.beacon !== 'refuse';
    };
  }
  const context = vm.createContext({
    navigator,
    location: { href: 'https://northwind-coffee.example/ai/products/decaf-colombia/' },
    document: { title: 'Decaf | Northwind', referrer: 'https://chat.example/' },
    screen: { width: 1280, height: 800 },
    Intl,
    fetch: (url: string, init: Record<string, unknown>) => {
      sent.fetch.push({ url, init });
      return Promise.resolve({});
    },
  });
  vm.runInContext(buildTrackingScript({ trackingEndpoint: TRACKING_ENDPOINT }), context);
  return sent;
}

describe('/tracking.js', () => {
  const script = buildTrackingScript({ trackingEndpoint: TRACKING_ENDPOINT });

  it('is one IIFE of ES2017 syntax, without dependencies', () => {
    expect(() => new vm.Script(script)).not.toThrow();
    expect(script.trim()).toMatch(/^\/\*[\s\S]*?\*\/\s*\(function \(\) \{[\s\S]*\}\)\(\);$/);
    expect(script).not.toMatch(/\?\.|\?\?|\bimport\b|\brequire\(|\bclass\b|\blet\b|\bconst\b/);
  });

  it.each([
    ['GPTBot', UAS.gptbot],
    ['ClaudeBot', UAS.claudeBot],
    ['PerplexityBot', UAS.perplexityBot],
    ['meta-externalagent', UAS.metaExternal],
    ['an unknown crawler', UAS.generic],
  ])('posts one visit for %s with sendBeacon', (_, ua) => {
    const sent = runTracker(ua);
    expect(sent.fetch).toHaveLength(0);
    expect(sent.beacon).toHaveLength(1);
    expect(sent.beacon[0]!.url).toBe(TRACKING_ENDPOINT);
    expect(JSON.parse(sent.beacon[0]!.body)).toEqual({
      page_url: 'https://northwind-coffee.example/ai/products/decaf-colombia/',
      page_type: 'ai_site',
      page_title: 'Decaf | Northwind',
      user_agent: ua,
      referrer: 'https://chat.example/',
      screen_width: 1280,
      screen_height: 800,
      language: 'en-US',
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it('agrees with classifyUserAgent on every published sample', () => {
    for (const { ua } of classified) {
      const sent = runTracker(ua);
      expect([ua, sent.beacon.length]).toEqual([ua, classifyUserAgent(ua).isAiCrawler ? 1 : 0]);
    }
  });

  it.each([
    ['Chrome', CHROME],
    ['HeadlessChrome', UAS.headless],
    ['the Facebook app', UAS.facebookApp],
    ['a link previewer', UAS.slack],
    ['an SEO crawler', UAS.semrush],
  ])('does nothing for %s', (_, ua) => {
    expect(runTracker(ua)).toEqual({ beacon: [], fetch: [] });
  });

  it.each(['refuse', 'missing', 'throw'] as const)('falls back to fetch keepalive when sendBeacon is %s', (beacon) => {
    const sent = runTracker(UAS.gptbot, { beacon });
    expect(sent.fetch).toHaveLength(1);
    expect(sent.fetch[0]!.url).toBe(TRACKING_ENDPOINT);
    expect(sent.fetch[0]!.init).toMatchObject({ method: 'POST', keepalive: true });
    expect(JSON.parse(sent.fetch[0]!.init.body as string).page_type).toBe('ai_site');
  });

  it('never throws, even when the browser objects do', () => {
    expect(() => runTracker(() => { throw new Error('no UA for you'); })).not.toThrow();
    expect(() => vm.runInContext(script, vm.createContext({}))).not.toThrow();
  });

  it('keeps a hostile endpoint a string literal', () => {
    const odd = buildTrackingScript({ trackingEndpoint: 'https://x.example/a"b</script>\u2028' });
    expect(() => new vm.Script(odd)).not.toThrow();
    expect(odd).not.toContain('</script>');
    expect(() => buildTrackingScript({ trackingEndpoint: 'javascript:alert(1)' })).toThrow();
  });
});
