import * as vm from 'node:vm';
import { AI_BOT_PATTERNS, PLATFORM_NAMES, classifyUserAgent } from '../../../functions/core/site/ai-bots';
import { buildTrackingScript } from '../../../functions/core/site/tracking-script';
import { TRACKING_ENDPOINT } from './fixtures';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const UAS = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  chatgptUser: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  oaiSearch: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  claudeBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  claudeUser: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  perplexityBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  perplexityUser: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
  deepseek: 'Mozilla/5.0 (compatible; DeepseekBot/1.0; +https://www.deepseek.com/bot)',
  googlebot: 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.201 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  metaExternal: 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  facebookHit: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  semrush: 'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.6367.60 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  facebookApp: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.34.109;FBBV/588119999;FBDV/iPhone15,2]',
  cubot: 'Mozilla/5.0 (Linux; Android 11; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
};

describe('classifyUserAgent', () => {
  it.each([
    ['GPTBot', UAS.gptbot, 'platform_1', 'training'],
    ['ChatGPT-User', UAS.chatgptUser, 'platform_1', 'user-fetch'],
    ['OAI-SearchBot behind a Chrome prefix', UAS.oaiSearch, 'platform_1', 'search'],
    ['ClaudeBot', UAS.claudeBot, 'platform_2', 'training'],
    ['Claude-User', UAS.claudeUser, 'platform_2', 'user-fetch'],
    ['PerplexityBot', UAS.perplexityBot, 'platform_4', 'search'],
    ['Perplexity-User', UAS.perplexityUser, 'platform_4', 'user-fetch'],
    ['DeepseekBot (casing varies)', UAS.deepseek, 'platform_6', 'crawler'],
  ])('%s → its platform', (_, ua, platformId, purpose) => {
    const result = classifyUserAgent(ua);
    expect(result).toMatchObject({ isBot: true, platformId, purpose });
    expect(result.platformName).toBe(PLATFORM_NAMES[platformId as keyof typeof PLATFORM_NAMES]);
  });

  it.each([
    ['Googlebot (AI Overviews has no UA; Google-Extended is only a robots token)', UAS.googlebot, 'platform_8'],
    ['bingbot (Copilot has no UA of its own)', UAS.bingbot, 'platform_5'],
    ['facebookexternalhit', UAS.facebookHit, 'platform_7'],
  ])('%s → unknown bot with the looser mapping as altPlatformId', (_, ua, alt) => {
    expect(classifyUserAgent(ua)).toMatchObject({ isBot: true, platformId: 'unknown', platformName: 'Unknown', altPlatformId: alt });
  });

  it('meta-externalagent is an AI bot outside the 8 platforms → unknown', () => {
    expect(classifyUserAgent(UAS.metaExternal)).toMatchObject({ isBot: true, platformId: 'unknown', token: 'meta-externalagent' });
    expect(classifyUserAgent(UAS.metaExternal).altPlatformId).toBeUndefined();
  });

  it('a generic bot → unknown', () => {
    expect(classifyUserAgent(UAS.semrush)).toEqual({ isBot: true, platformId: 'unknown', platformName: 'Unknown', token: 'generic' });
  });

  it.each([
    ['desktop Chrome', CHROME],
    ['HeadlessChrome (browser agents look like this too; not identifiable by UA)', UAS.headless],
    ['iPhone Safari', UAS.iphone],
    ['Facebook in-app browser', UAS.facebookApp],
    ['a CUBOT phone', UAS.cubot],
    ['empty', ''],
    ['missing', undefined],
  ])('%s → not a bot', (_, ua) => {
    expect(classifyUserAgent(ua)).toEqual({ isBot: false, platformId: 'unknown', platformName: 'Unknown' });
  });

  it('no token of the table is reachable only by a later entry (first match wins)', () => {
    for (const [i, entry] of AI_BOT_PATTERNS.entries()) {
      const firstMatch = AI_BOT_PATTERNS.findIndex((e) => e.pattern.test(`Mozilla/5.0 (compatible; ${entry.token}/1.0)`));
      expect([entry.token, firstMatch]).toEqual([entry.token, i]);
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
    ['a generic bot', UAS.semrush],
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

  it('agrees with classifyUserAgent on every sample', () => {
    for (const ua of [...Object.values(UAS), CHROME]) {
      const sent = runTracker(ua);
      expect([ua, sent.beacon.length]).toEqual([ua, classifyUserAgent(ua).isBot ? 1 : 0]);
    }
  });

  it.each([
    ['Chrome', CHROME],
    ['HeadlessChrome', UAS.headless],
    ['the Facebook app', UAS.facebookApp],
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
