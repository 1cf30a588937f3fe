/** The AI-site builders: pure functions that render every file of a store's AI site. */
export * from './build';
export { aiHref, hrefForFile, isRoutedPath, pageReplicaSlug, productSlugs, slugify, SITE_PATHS, urlPathOfFile } from './paths';
export { classifyUserAgent, AI_BOT_PATTERNS, PLATFORM_NAMES } from './ai-bots';
export type { AiBotPattern, BotPlatformId, UserAgentClass } from './ai-bots';
export { buildTrackingScript } from './tracking-script';
export { buildLlmsTxt } from './llms';
export { buildDataJson } from './structured-data';
