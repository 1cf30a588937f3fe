/**
 * AI crawler identification by User-Agent (reference/web-protocols.md §10). One table shared
 * by the browser tracking script (`tracking-script.ts` compiles it in), the recording webhook
 * and the server-side recorders (AI-site host, CDN proxy, access-log ingest), so every path
 * classifies a visit the same way.
 *
 * Mapping rule: `platformId` names the consumer assistant whose OWN crawler or fetcher sent
 * the request; training, search and user-fetch bots of a vendor all map to it (`purpose`
 * tells them apart). Every other AI or search bot is `unknown`; `altPlatformId` carries the
 * looser mapping of §10 for when a product decision wants it (Googlebot → platform_8,
 * bingbot → platform_5, YouBot → platform_4, ...).
 *
 * Vendors (D160): platform_1 OpenAI, platform_2 Anthropic, platform_3 Google (Gemini and
 * the company's other AI agents), platform_4 Perplexity, platform_5 Microsoft (Copilot, incl.
 * GitHub Copilot), platform_6 DeepSeek, platform_7 xAI (Grok). Platform 8 (the search
 * engine's AI overview) has no User-Agent of its own: Googlebot is classic search crawling.
 * Google-Extended and Applebot-Extended are robots.txt tokens, never User-Agents. Browser agents that use a stock
 * Chrome UA (and HeadlessChrome) are not recognisable by UA: a server that sees the request
 * headers passes `Signature-Agent` (the ChatGPT agent sends `"https://chatgpt.com"`).
 *
 * What a request is (`kind`), in this order (§10 match order, first match wins):
 *   1. `Signature-Agent` of a known agent                       → `ai-crawler`
 *   2. a vendor AI bot or agent token (AI_BOT_PATTERNS)         → `ai-crawler`
 *   2b. a classic search-engine crawler (SEARCH_CRAWLER_PATTERNS: Googlebot, Storebot-Google,
 *      bingbot, Applebot, DuckDuckBot, YandexBot, Baiduspider, ...) → `search-crawler`
 *      (stored apart from AI visits, never in `total` or `by_platform`; D160); a crawler
 *      "compatible with Googlebot" is not Googlebot (the claim is read out first)
 *   3. a link previewer (Slack, X, Facebook, Discord, WhatsApp, Telegram, LinkedIn, iMessage...)
 *                                                               → `link-preview` (not AI)
 *   4. a social in-app browser (FBAN, Instagram, ...)           → `human`
 *   5. a known non-AI tool (SEO crawlers, uptime and synthetic monitors, feed readers, ad
 *      checkers, scanners)                                      → `non-ai-bot` (not AI)
 *   6. an AI crawler a maintained public list names (listed-ai-crawlers.ts, vendored:
 *      ai.robots.txt, and the AI entries of device-detector and crawler-user-agents)
 *                                                               → `ai-crawler`, `unknown`
 *   7. a generic HTTP client (curl, python-requests, Go-http-client, axios ...) or a headless
 *      browser                                                  → `automated` (not stored)
 *   7b. a crawler that names itself and no table or list knows ("AcmeResearchCrawler/0.3
 *      (+https://acme.example/bot)"), not a monitor, previewer, feed reader or scanner
 *                                                               → `unidentified-bot`: stored
 *      as the spec says (platform `unknown`, `Unknown`), apart: never in `total`,
 *      `by_platform`, the funnel or the AiVisits metric (issue 46)
 *   7c. anything else the maintained `isbot` pattern or a name ending in bot, crawler or
 *      spider calls automated                                   → `automated` (not stored)
 *   8. everything else                                          → `human`
 * Only `ai-crawler` visits are recorded as AI recommendations (positive identification,
 * issue 35: a bot is an AI visit only when the table or the list names it); `search-crawler`
 * visits are recorded in their own class; `automated`, `non-ai-bot` and `link-preview`
 * requests are not recorded.
 */
import { getPattern as isbotPattern } from 'isbot';
import type { PlatformKey } from '../constants';
import { listedAiCrawler } from './listed-ai-crawlers';

export type BotPlatformId = PlatformKey | 'unknown';
/** What the vendor says the bot is for; `crawler` when the vendor does not say. */
export type BotPurpose = 'training' | 'search' | 'user-fetch' | 'agent' | 'crawler';
export type UserAgentKind = 'ai-crawler' | 'search-crawler' | 'link-preview' | 'non-ai-bot' | 'unidentified-bot' | 'automated' | 'human';
/** What an `automated` agent is, as its token says. */
export type AutomationToken = 'generic-client' | 'headless-browser' | 'automation';
/** How a stored visit is counted: an AI visit (total, by_platform) or classic search crawling (apart, D160). */
export type VisitClass = 'ai' | 'search_engine' | 'unidentified';

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

/** A bot that is not an AI crawler: a link previewer or a known non-AI tool. */
export interface OtherBotPattern {
  token: string;
  pattern: RegExp;
  vendor: string;
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

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function token(
  name: string,
  platformId: BotPlatformId,
  vendor: string,
  purpose: BotPurpose,
  extra: { altPlatformId?: PlatformKey; documented?: boolean; pattern?: RegExp } = {},
): AiBotPattern {
  return {
    token: name,
    pattern: extra.pattern ?? new RegExp(escape(name), 'i'),
    platformId,
    ...(extra.altPlatformId ? { altPlatformId: extra.altPlatformId } : {}),
    vendor,
    purpose,
    documented: extra.documented ?? true,
  };
}

const other = (name: string, vendor: string, pattern?: RegExp): OtherBotPattern =>
  ({ token: name, pattern: pattern ?? new RegExp(escape(name), 'i'), vendor });

/**
 * Ordered: the first matching entry wins. Platform tokens come before the `unknown` ones.
 * Each token is documented at its vendor's crawler page (the fixture
 * test/fixtures/ai-user-agents.ts lists the source beside every string).
 */
export const AI_BOT_PATTERNS: readonly AiBotPattern[] = [
  // platform_1: OpenAI (https://platform.openai.com/docs/bots).
  token('OAI-SearchBot', 'platform_1', 'OpenAI', 'search'),
  token('ChatGPT-User', 'platform_1', 'OpenAI', 'user-fetch'),
  token('GPTBot', 'platform_1', 'OpenAI', 'training'),
  token('ChatGPT-Browser', 'platform_1', 'OpenAI', 'agent', { documented: false }),
  // platform_2: Anthropic (support.claude.com, "Does Anthropic crawl data from the web").
  token('Claude-SearchBot', 'platform_2', 'Anthropic', 'search'),
  token('Claude-User', 'platform_2', 'Anthropic', 'user-fetch'),
  token('ClaudeBot', 'platform_2', 'Anthropic', 'training'),
  token('Claude-Web', 'platform_2', 'Anthropic', 'user-fetch', { documented: false }),
  token('Anthropic-Claude', 'platform_2', 'Anthropic', 'user-fetch', { documented: false }),
  token('anthropic-ai', 'platform_2', 'Anthropic', 'training', { documented: false }),
  // platform_3: Google's AI agents (developers.google.com, user-triggered fetchers and common
  // crawlers). Googlebot and Storebot-Google are classic search (SEARCH_CRAWLER_PATTERNS).
  token('Gemini-Deep-Research', 'platform_3', 'Google', 'user-fetch'),
  token('GoogleAgent-Mariner', 'platform_3', 'Google', 'agent'),
  token('GoogleAgent-Search', 'platform_3', 'Google', 'agent'),
  token('Google-Agent', 'platform_3', 'Google', 'agent'),
  token('Google-GeminiNotebook', 'platform_3', 'Google', 'user-fetch', { pattern: /Google-?GeminiNotebook|GeminiNotebook/i }),
  token('Google-NotebookLM', 'platform_3', 'Google', 'user-fetch'),
  token('Google-Gemini-CLI', 'platform_3', 'Google', 'agent', { documented: false, pattern: /Google-Gemini-CLI|\bGeminiCLI\//i }),
  token('Gemini-AI', 'platform_3', 'Google', 'user-fetch', { documented: false, pattern: /\b(?:Bard|Gemini)-AI\b/i }),
  token('Google-CloudVertexBot', 'platform_3', 'Google', 'crawler'),
  // platform_4: Perplexity (https://docs.perplexity.ai/guides/bots); the user fetcher is also
  // seen without its hyphen.
  token('Perplexity-User', 'platform_4', 'Perplexity', 'user-fetch', { pattern: /Perplexity-?User/i }),
  token('PerplexityBot', 'platform_4', 'Perplexity', 'search'),
  // platform_5: Microsoft (Copilot). bingbot is classic search; BingPreview a link previewer.
  token('GitHubCopilotChat', 'platform_5', 'Microsoft', 'agent', { documented: false, pattern: /GitHubCopilot(?:Chat)?/i }),
  // platform_6: DeepSeek ("DeepseekBot"/"DeepSeekBot" casing varies); undocumented.
  token('DeepSeekBot', 'platform_6', 'DeepSeek', 'crawler', { documented: false }),
  // platform_7: xAI (Grok); its vendor documents no crawler.
  token('xAI-Bot', 'platform_7', 'xAI', 'crawler', { documented: false }),

  // Outside the 8 platforms: unknown, with the looser mapping where §10 gives one.
  token('GoogleOther', 'unknown', 'Google', 'crawler'),
  token('DuckAssistBot', 'unknown', 'DuckDuckGo', 'user-fetch', { altPlatformId: 'platform_8' }),
  token('meta-externalagent', 'unknown', 'Meta', 'training'),
  token('meta-externalfetcher', 'unknown', 'Meta', 'user-fetch'),
  token('meta-webindexer', 'unknown', 'Meta', 'search'),
  token('FacebookBot', 'unknown', 'Meta', 'training'),
  // Mistral AI (https://docs.mistral.ai/robots).
  token('MistralAI-User', 'unknown', 'Mistral AI', 'user-fetch'),
  token('MistralAI-Index', 'unknown', 'Mistral AI', 'search'),
  token('MistralAI-Training', 'unknown', 'Mistral AI', 'training'),
  token('YouBot', 'unknown', 'You.com', 'search', { altPlatformId: 'platform_4' }),
  token('PhindBot', 'unknown', 'Phind', 'search', { altPlatformId: 'platform_4' }),
  token('iAskBot', 'unknown', 'iAsk', 'search', { altPlatformId: 'platform_4', pattern: /iask(?:bot|spider)/i }),
  token('Andibot', 'unknown', 'Andi', 'search', { altPlatformId: 'platform_4' }),
  token('ChatGLM-Spider', 'unknown', 'Zhipu', 'crawler', { altPlatformId: 'platform_6' }),
  // Amazon (https://developer.amazon.com/amazonbot; AWS Bedrock AgentCore and Nova Act docs).
  token('Amzn-SearchBot', 'unknown', 'Amazon', 'search'),
  token('Amzn-User', 'unknown', 'Amazon', 'user-fetch'),
  token('Amazonbot', 'unknown', 'Amazon', 'crawler'),
  token('Amazon-Bedrock-AgentCore-Browser', 'unknown', 'Amazon', 'agent'),
  token('AmazonBuyForMe', 'unknown', 'Amazon', 'agent'),
  token('NovaAct', 'unknown', 'Amazon', 'agent', { pattern: /\bNova-?Act\b/i }),
  token('Bytespider', 'unknown', 'ByteDance', 'training'),
  token('TikTokSpider', 'unknown', 'ByteDance', 'crawler'),
  token('CCBot', 'unknown', 'Common Crawl', 'training'),
  token('cohere-training-data-crawler', 'unknown', 'Cohere', 'training'),
  token('cohere-ai', 'unknown', 'Cohere', 'user-fetch', { documented: false }),
  token('Diffbot', 'unknown', 'Diffbot', 'crawler'),
  token('AI2Bot', 'unknown', 'Ai2', 'training'),
  token('Timpibot', 'unknown', 'Timpi', 'crawler'),
  token('ImagesiftBot', 'unknown', 'ImageSift', 'crawler'),
  token('Kangaroo Bot', 'unknown', 'Kangaroo LLM', 'training'),
  // Webz.io (https://webz.io/bot.html): omgili and omgilibot feed its AI data sets.
  token('Webzio-Extended', 'unknown', 'Webz.io', 'training'),
  token('omgili', 'unknown', 'Webz.io', 'training', { pattern: /\bomgili(?:bot)?\b/i }),
  token('img2dataset', 'unknown', 'img2dataset', 'training'),
];

/**
 * Classic search-engine crawlers: stored as their own class (`search_engine`), shown beside
 * AI visits, never in `total` or `by_platform` (D160). `altPlatformId` keeps §10's looser
 * mapping (Googlebot feeds the AI overview, bingbot Copilot) for a product decision that wants it.
 */
export const SEARCH_CRAWLER_PATTERNS: readonly AiBotPattern[] = [
  // https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers
  token('Googlebot', 'unknown', 'Google', 'search', { altPlatformId: 'platform_8', pattern: /Googlebot/i }),
  token('Storebot-Google', 'unknown', 'Google', 'search', { altPlatformId: 'platform_8' }),
  // https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0
  token('bingbot', 'unknown', 'Microsoft', 'search', { altPlatformId: 'platform_5', pattern: /\b(?:bingbot|msnbot)\b/i }),
  // https://support.apple.com/en-us/119829 (search for Siri/Spotlight; Applebot-Extended is the AI control)
  token('Applebot', 'unknown', 'Apple', 'search'),
  token('DuckDuckBot', 'unknown', 'DuckDuckGo', 'search'),
  token('YandexBot', 'unknown', 'Yandex', 'search', { pattern: /\bYandex(?:Bot|Mobile(?:Bot)?|Images)\b/i }),
  token('Baiduspider', 'unknown', 'Baidu', 'search'),
  token('Yahoo! Slurp', 'unknown', 'Yahoo', 'search', { pattern: /Yahoo! Slurp/i }),
  token('PetalBot', 'unknown', 'Huawei', 'search'),
  token('SeznamBot', 'unknown', 'Seznam', 'search'),
  token('Yeti', 'unknown', 'Naver', 'search', { pattern: /\bYeti\/\d/i }),
  token('Qwantbot', 'unknown', 'Qwant', 'search', { pattern: /Qwantb?ot/i }),
  token('MojeekBot', 'unknown', 'Mojeek', 'search'),
  token('Sogou web spider', 'unknown', 'Sogou', 'search', { pattern: /Sogou (?:web|inst) spider/i }),
  token('coccocbot', 'unknown', 'Coc Coc', 'search', { pattern: /coccocbot/i }),
  // https://kagi.com/bot: Kagi's search index (its AI fetcher, kagi-fetcher, is on the list).
  token('Kagibot', 'unknown', 'Kagi', 'search'),
];

/**
 * Agents that sign their requests (Web Bot Auth, RFC 9421) and name themselves in the
 * `Signature-Agent` header, for browser agents whose User-Agent is a stock browser's.
 * The signature itself is not verified here.
 */
export const SIGNATURE_AGENTS: ReadonlyArray<{ agent: string; token: string; platformId: BotPlatformId; vendor: string; purpose: BotPurpose }> = [
  { agent: 'https://chatgpt.com', token: 'ChatGPT agent', platformId: 'platform_1', vendor: 'OpenAI', purpose: 'agent' },
];

/**
 * Link previewers: a person shared or pasted a link and an app fetched it for a card. Not an
 * AI crawler, whatever its vendor (facebookexternalhit is Meta's previewer; iMessage sends
 * `facebookexternalhit/1.1 Facebot Twitterbot/1.0`).
 */
export const LINK_PREVIEW_PATTERNS: readonly OtherBotPattern[] = [
  other('Slackbot-LinkExpanding', 'Slack'),
  other('Slack-ImgProxy', 'Slack'),
  other('Slackbot', 'Slack'),
  // Before Twitterbot: Telegram's previewer says "TelegramBot (like TwitterBot)".
  other('TelegramBot', 'Telegram'),
  other('Twitterbot', 'X'),
  other('facebookexternalhit', 'Meta'),
  other('Facebot', 'Meta'),
  other('Discordbot', 'Discord'),
  other('WhatsApp', 'Meta', /\bWhatsApp\//i),
  other('LinkedInBot', 'LinkedIn'),
  other('Pinterestbot', 'Pinterest'),
  other('redditbot', 'Reddit'),
  other('Snap URL Preview Service', 'Snap'),
  other('SkypeUriPreview', 'Microsoft'),
  other('Iframely', 'Iframely'),
  other('Embedly', 'Embedly'),
  other('vkShare', 'VK'),
  other('Viber', 'Viber'),
  other('Mastodon', 'Mastodon', /\bMastodon\//i),
  other('Cardyb', 'Bluesky'),
  other('Google-PageRenderer', 'Google'),
  other('GroupMeBot', 'GroupMe'),
  other('SteamChatURLLookup', 'Valve'),
  // Bing's and Microsoft's page previewers (https://aka.ms/MicrosoftPreview): a card, not AI.
  other('BingPreview', 'Microsoft'),
  other('MicrosoftPreview', 'Microsoft'),
];

/** Social in-app browsers: a human in an app's web view (checked after the bot tokens). */
export const IN_APP_BROWSER_PATTERN = /FBAN|FBAV|FB_IAB|Instagram|LinkedInApp|BytedanceWebview|musical_ly|Snapchat/i;

/** Bots that are no AI crawler: SEO tools, uptime and synthetic monitors, feed readers, ad checkers, scanners. */
export const NON_AI_BOT_PATTERNS: readonly OtherBotPattern[] = [
  other('AhrefsBot', 'Ahrefs', /Ahrefs(?:Bot|SiteAudit)/i),
  other('SemrushBot', 'Semrush', /SemrushBot|SiteAuditBot|SplitSignalBot/i),
  other('MJ12bot', 'Majestic'),
  other('DotBot', 'Moz', /\bDotBot\b|rogerbot/i),
  other('BLEXBot', 'WebMeUp'),
  other('DataForSeoBot', 'DataForSEO'),
  other('serpstatbot', 'Serpstat'),
  other('Screaming Frog SEO Spider', 'Screaming Frog'),
  other('BrightEdge Crawler', 'BrightEdge'),
  other('Barkrowler', 'Babbar'),
  other('UptimeRobot', 'UptimeRobot'),
  other('Pingdom', 'SolarWinds', /Pingdom/i),
  other('StatusCake', 'StatusCake'),
  other('Site24x7', 'Zoho'),
  other('Better Uptime Bot', 'Better Stack'),
  other('FreshpingBot', 'Freshworks'),
  other('HetrixTools', 'HetrixTools'),
  other('DatadogSynthetics', 'Datadog', /Datadog\/?Synthetics/i),
  other('NewRelicSynthetics', 'New Relic', /NewRelicSynthetics|New Relic Synthetics/i),
  other('Checkly', 'Checkly', /\bCheckly\b/i),
  other('GoogleStackdriverMonitoring', 'Google', /GoogleStackdriverMonitoring/i),
  other('meta-externalads', 'Meta', /meta-externalads/i),
  other('RuxitSynthetic', 'Dynatrace'),
  other('GTmetrix', 'GTmetrix'),
  other('Chrome-Lighthouse', 'Google'),
  other('Google-InspectionTool', 'Google'),
  other('AdsBot-Google', 'Google'),
  other('Mediapartners-Google', 'Google'),
  other('AdIdxBot', 'Microsoft'),
  other('OAI-AdsBot', 'OpenAI'),
  // Ad verification (brand safety): device-detector files it under "AI Data Scraper",
  // crawler-user-agents under advertising; it feeds ad placement, not an AI answer.
  other('IAS crawler', 'Integral Ad Science', /\bIAS (?:crawler|Wombles)\b|\bias_(?:crawler|wombles)\b/i),
  other('Feedfetcher-Google', 'Google'),
  other('Feedly', 'Feedly'),
  other('Feedbin', 'Feedbin'),
  other('NewsBlur', 'NewsBlur'),
  other('Inoreader', 'Inoreader'),
  other('CensysInspect', 'Censys'),
  other('Expanse', 'Palo Alto Networks', /\bExpanse\b/),
  other('InternetMeasurement', 'Driftnet'),
  other('BitSightBot', 'BitSight'),
  other('zgrab', 'ZMap'),
];

/** HTTP libraries and command-line clients: a script, never an AI agent by itself. */
export const GENERIC_CLIENT_PATTERN = /^(?:curl|Wget|python-requests|Python-urllib|python-httpx|aiohttp|Go-http-client|axios|node-fetch|undici|got|okhttp|Java|Apache-HttpClient|libwww-perl|GuzzleHttp|PostmanRuntime|insomnia|HTTPie|Ruby|Faraday|Dart|Deno|Bun|node)\b/i;
/** Browsers driven by a program: HeadlessChrome, PhantomJS, Puppeteer and Playwright defaults. */
export const HEADLESS_BROWSER_PATTERN = /HeadlessChrome|PhantomJS|\bPuppeteer\b|\bPlaywright\b/i;

/**
 * Anything else that declares itself automated: the maintained `isbot` pattern (HTTP
 * libraries, headless browsers, names without the word "bot"), or a name ending in bot,
 * crawler or spider (`(?![a-z])` keeps "bottle" out). "CUBOT" (an Android phone brand) is
 * excluded by `GENERIC_BOT_EXCEPTIONS`. It tells `automated` from `human`, never AI from not
 * (positive identification), so `/tracking.js`, which reports AI visits only, does not need it.
 */
export const GENERIC_BOT_PATTERN = new RegExp(`${isbotPattern().source}|(?:bot|crawler|spider|scraper|crawl|slurp|fetcher)(?![a-z])`, 'i');
export const GENERIC_BOT_EXCEPTIONS = /cubot/i;

/** A product token that names a crawler: "AcmeResearchCrawler/0.3", "SISTRIX Crawler", "LinkpadBot/2.4". */
export const NAMED_CRAWLER = /(?:^|[\s;(])((?:[A-Za-z][\w.-]*\s)?[A-Za-z][\w.-]*?(?:bot|crawler|spider|scraper|archiver)(?:[-_][\w]+)?)(?=[\/\s;)+,]|$)/i;
/**
 * Automation that names itself but is no crawler of content: uptime and synthetic monitors,
 * health checks, link previewers and chat unfurlers, feed readers, security scanners, test
 * drivers. These stay unrecorded (issue 46: monitors, previewers and clients are not visits).
 */
export const NOT_A_CRAWLER = /uptime|monitor|health|check|status|ping|synthetic|canary|probe|alert|newrelic|datadog|sentry|appsignal|dynatrace|solarwinds|nagios|zabbix|prometheus|validator|preview|unfurl|expand|keybase|mattermost|synapse|summaly|bitly|slack|discord|telegram|whatsapp|feed|rss|reader|scan|secur|nessus|qualys|detectify|nuclei|selenium|cypress|puppeteer|playwright|test/i;

/** "compatible; bot" or a lone "Crawler" says nothing of who it is. */
export const BARE_CRAWLER_WORD = /^(?:bot|crawler|spider|scraper|archiver)$/i;

/** The name of a self-declared crawler no table or list knows, or null. */
function unidentifiedCrawler(ua: string): string | null {
  if (GENERIC_BOT_EXCEPTIONS.test(ua) || NOT_A_CRAWLER.test(ua)) return null;
  const named = NAMED_CRAWLER.exec(ua)?.[1];
  return named && !BARE_CRAWLER_WORD.test(named) ? named.replace(/^compatible\s/i, '') : null;
}

export interface UserAgentClass {
  platformId: BotPlatformId;
  platformName: string;
  kind: UserAgentKind;
  /** Any bot: an AI crawler, a search crawler, a link previewer, a non-AI tool or other automation. */
  isBot: boolean;
  /** What is recorded as an AI recommendation (`kind === 'ai-crawler'`). */
  isAiCrawler: boolean;
  /** What is stored at all, and in which class: `ai`, `search_engine` (classic search crawling), or null (not stored). */
  visitClass: VisitClass | null;
  /** The table entry's or the list's token, an AutomationToken for an `automated` agent; absent for humans. */
  token?: string;
  vendor?: string;
  altPlatformId?: PlatformKey;
  purpose?: BotPurpose;
  /** False for tokens the vendor does not document. */
  documented?: boolean;
}

export interface ClassifyOptions {
  /** The request's `Signature-Agent` header, when the caller saw the headers. */
  signatureAgent?: string | null;
}

const HUMAN: Readonly<UserAgentClass> = { platformId: 'unknown', platformName: PLATFORM_NAMES.unknown, kind: 'human', isBot: false, isAiCrawler: false, visitClass: null };

type VerdictFields = Omit<UserAgentClass, 'platformId' | 'platformName' | 'kind' | 'isBot' | 'isAiCrawler' | 'visitClass'>;

const aiCrawler = (platformId: BotPlatformId, fields: VerdictFields): UserAgentClass =>
  ({ platformId, platformName: PLATFORM_NAMES[platformId], kind: 'ai-crawler', isBot: true, isAiCrawler: true, visitClass: 'ai', ...fields });

const notAi = (kind: 'link-preview' | 'non-ai-bot', entry: OtherBotPattern): UserAgentClass =>
  ({ platformId: 'unknown', platformName: PLATFORM_NAMES.unknown, kind, isBot: true, isAiCrawler: false, visitClass: null, token: entry.token, vendor: entry.vendor });

const automated = (token: AutomationToken): UserAgentClass =>
  ({ platformId: 'unknown', platformName: PLATFORM_NAMES.unknown, kind: 'automated', isBot: true, isAiCrawler: false, visitClass: null, token, documented: false });

const tableFields = (entry: AiBotPattern): VerdictFields => ({
  token: entry.token,
  vendor: entry.vendor,
  ...(entry.altPlatformId ? { altPlatformId: entry.altPlatformId } : {}),
  purpose: entry.purpose,
  documented: entry.documented,
});

/** A structured-field string (`"https://chatgpt.com"`) or a bare value → lower case, no quotes, no trailing slash. */
function signatureAgentOf(value: string | null | undefined): string {
  return (value ?? '').trim().replace(/^"|"$/g, '').trim().toLowerCase().replace(/\/+$/, '');
}

/**
 * A crawler that says it is "compatible with Googlebot" (SentiBot) names Googlebot's rules,
 * not itself: the claim is read out before the search-crawler table, so the crawler is what
 * its own name and the lists say. Googlebot's own UA says "compatible; Googlebot/2.1".
 */
const COMPATIBILITY_CLAIM = /\bcompatible with\s+[\w.\/-]+/gi;

function withoutCompatibilityClaims(ua: string): string {
  return ua.replace(COMPATIBILITY_CLAIM, '');
}

/** Classifies a User-Agent string (and, when known, the Signature-Agent header). A missing or empty User-Agent is a human. */
export function classifyUserAgent(userAgent: string | null | undefined, options: ClassifyOptions = {}): UserAgentClass {
  const signed = signatureAgentOf(options.signatureAgent);
  if (signed) {
    const agent = SIGNATURE_AGENTS.find((a) => a.agent === signed);
    if (agent) return aiCrawler(agent.platformId, { token: agent.token, vendor: agent.vendor, purpose: agent.purpose, documented: true });
  }
  const ua = (userAgent ?? '').trim();
  if (!ua) return { ...HUMAN };
  const ai = AI_BOT_PATTERNS.find((e) => e.pattern.test(ua));
  if (ai) return aiCrawler(ai.platformId, tableFields(ai));
  const ownName = withoutCompatibilityClaims(ua);
  const search = SEARCH_CRAWLER_PATTERNS.find((e) => e.pattern.test(ownName));
  if (search) {
    return { platformId: 'unknown', platformName: PLATFORM_NAMES.unknown, kind: 'search-crawler', isBot: true, isAiCrawler: false, visitClass: 'search_engine', ...tableFields(search) };
  }
  const preview = LINK_PREVIEW_PATTERNS.find((e) => e.pattern.test(ua));
  if (preview) return notAi('link-preview', preview);
  if (IN_APP_BROWSER_PATTERN.test(ua)) return { ...HUMAN };
  const tool = NON_AI_BOT_PATTERNS.find((e) => e.pattern.test(ua));
  if (tool) return notAi('non-ai-bot', tool);
  const listed = listedAiCrawler(ua);
  if (listed) return aiCrawler('unknown', { token: listed.name, vendor: `listed by ${listed.listedBy.join(', ')}`, documented: false });
  // Automated, but nothing says it is an AI agent: never an AI visit, never a human either.
  if (GENERIC_CLIENT_PATTERN.test(ua)) return automated('generic-client');
  if (HEADLESS_BROWSER_PATTERN.test(ua)) return automated('headless-browser');
  const unnamed = unidentifiedCrawler(ua);
  if (unnamed) return { platformId: 'unknown', platformName: PLATFORM_NAMES.unknown, kind: 'unidentified-bot', isBot: true, isAiCrawler: false, visitClass: 'unidentified', token: unnamed, documented: false };
  if (GENERIC_BOT_PATTERN.test(ua) && !GENERIC_BOT_EXCEPTIONS.test(ua)) return automated('automation');
  return { ...HUMAN };
}
