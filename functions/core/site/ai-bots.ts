/**
 * AI crawler identification by User-Agent (reference/web-protocols.md §10). Shared by the
 * browser tracking script (`tracking-script.ts` compiles this table into it) and, later, by
 * the server-side webhook, so both classify a visit the same way.
 *
 * Mapping rule: `platformId` names the consumer assistant whose OWN crawler or fetcher sent
 * the request; training, search and user-fetch bots of a vendor all map to it (`purpose`
 * tells them apart). Every other AI or search bot is `unknown`; `altPlatformId` carries the
 * looser mapping of §10 for when a product decision wants it (Googlebot → platform_8,
 * bingbot → platform_5, facebookexternalhit → platform_7, ...).
 *
 * Platforms 5 (the desktop-software assistant) and 8 (the search engine's AI overview) have
 * no User-Agent of their own, so nothing maps to them primarily. Google-Extended is a
 * robots.txt token, never a User-Agent. Browser agents that use a stock Chrome UA (and
 * HeadlessChrome) are not recognisable here: the server side should look at
 * `Signature-Agent` headers first.
 *
 * Match order (§10): vendor bot tokens (case-insensitive substring), then social in-app
 * browsers (a human), then a generic bot pattern (→ `unknown`), else a human.
 */
import type { PlatformKey } from '../constants';

export type BotPlatformId = PlatformKey | 'unknown';
export type BotPurpose = 'training' | 'search' | 'user-fetch' | 'agent' | 'crawler';

export interface AiBotPattern {
  /** Product token as it appears in the User-Agent. */
  token: string;
  /** Case-insensitive; matched against the whole User-Agent. */
  pattern: RegExp;
  platformId: BotPlatformId;
  altPlatformId?: PlatformKey;
  vendor: string;
  purpose: BotPurpose;
  /** False when the vendor does not document the token (it may be spoofed or stale). */
  documented: boolean;
}

/** Display names, keyed like the visibility results; `unknown` is the spec's `Unknown`. */
export const PLATFORM_NAMES: Readonly<Record<BotPlatformId, string>> = {
  platform_1: 'ChatGPT',
  platform_2: 'Claude',
  platform_3: 'Gemini',
  platform_4: 'Perplexity',
  platform_5: 'Copilot',
  platform_6: 'DeepSeek',
  platform_7: 'Grok',
  platform_8: 'AI Overviews',
  unknown: 'Unknown',
};

function token(
  name: string,
  platformId: BotPlatformId,
  vendor: string,
  purpose: BotPurpose,
  extra: { altPlatformId?: PlatformKey; documented?: boolean; pattern?: RegExp } = {},
): AiBotPattern {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    token: name,
    pattern: extra.pattern ?? new RegExp(escaped, 'i'),
    platformId,
    ...(extra.altPlatformId ? { altPlatformId: extra.altPlatformId } : {}),
    vendor,
    purpose,
    documented: extra.documented ?? true,
  };
}

/** Ordered: the first matching entry wins. Platform tokens come before the `unknown` ones. */
export const AI_BOT_PATTERNS: readonly AiBotPattern[] = [
  // platform_1: the general chat assistant's vendor.
  token('OAI-SearchBot', 'platform_1', 'OpenAI', 'search'),
  token('ChatGPT-User', 'platform_1', 'OpenAI', 'user-fetch'),
  token('GPTBot', 'platform_1', 'OpenAI', 'training'),
  // platform_2: the second chat assistant's vendor.
  token('Claude-SearchBot', 'platform_2', 'Anthropic', 'search'),
  token('Claude-User', 'platform_2', 'Anthropic', 'user-fetch'),
  token('ClaudeBot', 'platform_2', 'Anthropic', 'training'),
  token('Claude-Web', 'platform_2', 'Anthropic', 'user-fetch', { documented: false }),
  token('anthropic-ai', 'platform_2', 'Anthropic', 'training', { documented: false }),
  // platform_3: the large search company's assistant (its own fetcher only; Googlebot is not it).
  token('Gemini-Deep-Research', 'platform_3', 'Google', 'user-fetch'),
  // platform_4: the answer engine.
  token('Perplexity-User', 'platform_4', 'Perplexity', 'user-fetch'),
  token('PerplexityBot', 'platform_4', 'Perplexity', 'search'),
  // platform_6: the open-model assistant ("DeepseekBot"/"DeepSeekBot" casing varies).
  token('DeepSeekBot', 'platform_6', 'DeepSeek', 'crawler'),
  // platform_7: the social network's assistant; its vendor documents no crawler.
  token('xAI-Bot', 'platform_7', 'xAI', 'crawler', { documented: false }),

  // Outside the 8 platforms: unknown, with the looser mapping where §10 gives one.
  token('Googlebot', 'unknown', 'Google', 'search', { altPlatformId: 'platform_8' }),
  token('Google-CloudVertexBot', 'unknown', 'Google', 'crawler'),
  token('DuckAssistBot', 'unknown', 'DuckDuckGo', 'user-fetch', { altPlatformId: 'platform_8' }),
  token('bingbot', 'unknown', 'Microsoft', 'search', { altPlatformId: 'platform_5' }),
  token('BingPreview', 'unknown', 'Microsoft', 'user-fetch', { altPlatformId: 'platform_5' }),
  token('MicrosoftPreview', 'unknown', 'Microsoft', 'user-fetch', { altPlatformId: 'platform_5' }),
  token('facebookexternalhit', 'unknown', 'Meta', 'user-fetch', { altPlatformId: 'platform_7' }),
  token('meta-externalagent', 'unknown', 'Meta', 'training'),
  token('meta-externalfetcher', 'unknown', 'Meta', 'user-fetch'),
  token('FacebookBot', 'unknown', 'Meta', 'training'),
  token('YouBot', 'unknown', 'You.com', 'search', { altPlatformId: 'platform_4' }),
  token('PhindBot', 'unknown', 'Phind', 'search', { altPlatformId: 'platform_4' }),
  token('iAskBot', 'unknown', 'iAsk', 'search', { altPlatformId: 'platform_4', pattern: /iask(?:bot|spider)/i }),
  token('Andibot', 'unknown', 'Andi', 'search', { altPlatformId: 'platform_4' }),
  token('ChatGLM-Spider', 'unknown', 'Zhipu', 'crawler', { altPlatformId: 'platform_6' }),
  token('Applebot', 'unknown', 'Apple', 'crawler'),
  token('Amazonbot', 'unknown', 'Amazon', 'crawler'),
  token('Bytespider', 'unknown', 'ByteDance', 'training'),
  token('CCBot', 'unknown', 'Common Crawl', 'training'),
  token('cohere-ai', 'unknown', 'Cohere', 'user-fetch'),
  token('Diffbot', 'unknown', 'Diffbot', 'crawler'),
  token('AI2Bot', 'unknown', 'Ai2', 'crawler'),
  token('Timpibot', 'unknown', 'Timpi', 'crawler'),
];

/** Social in-app browsers: a human in an app's web view (checked after the bot tokens). */
export const IN_APP_BROWSER_PATTERN = /FBAN|FBAV|FB_IAB|Instagram/i;

/**
 * Anything else that names itself a bot, crawler or spider. `(?![a-z])` keeps words such as
 * "bottle" out; "CUBOT" (an Android phone brand) is excluded by `GENERIC_BOT_EXCEPTIONS`.
 */
export const GENERIC_BOT_PATTERN = /(?:bot|crawler|spider|scraper|crawl|slurp|fetcher)(?![a-z])/i;
export const GENERIC_BOT_EXCEPTIONS = /cubot/i;

export interface UserAgentClass {
  platformId: BotPlatformId;
  platformName: string;
  isBot: boolean;
  /** The table entry's token, or `generic` for the generic pattern; absent for humans. */
  token?: string;
  altPlatformId?: PlatformKey;
  purpose?: BotPurpose;
}

const HUMAN: UserAgentClass = { platformId: 'unknown', platformName: PLATFORM_NAMES.unknown, isBot: false };

/** Classifies a User-Agent string. A missing or empty User-Agent is treated as not a bot. */
export function classifyUserAgent(userAgent: string | null | undefined): UserAgentClass {
  const ua = (userAgent ?? '').trim();
  if (!ua) return { ...HUMAN };
  for (const entry of AI_BOT_PATTERNS) {
    if (entry.pattern.test(ua)) {
      return {
        platformId: entry.platformId,
        platformName: PLATFORM_NAMES[entry.platformId],
        isBot: true,
        token: entry.token,
        ...(entry.altPlatformId ? { altPlatformId: entry.altPlatformId } : {}),
        purpose: entry.purpose,
      };
    }
  }
  if (IN_APP_BROWSER_PATTERN.test(ua)) return { ...HUMAN };
  if (GENERIC_BOT_PATTERN.test(ua) && !GENERIC_BOT_EXCEPTIONS.test(ua)) {
    return { platformId: 'unknown', platformName: PLATFORM_NAMES.unknown, isBot: true, token: 'generic' };
  }
  return { ...HUMAN };
}
