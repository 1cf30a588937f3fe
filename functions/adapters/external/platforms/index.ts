/**
 * The eight AI-platform clients of the visibility engine, in PLATFORM_KEYS order (spec:
 * "Platform keys"). Each asks one prompt the way that platform answers a user, its native
 * search included, and returns the answer as it came (core/visibility/platform-answer.ts);
 * the judge evaluates it later.
 *
 * | key        | kind                                    | wire format (module)                                  |
 * |------------|-----------------------------------------|-------------------------------------------------------|
 * | platform_1 | general chat assistant                  | Responses API + web_search (platform-1-openai-responses) |
 * | platform_2 | second chat assistant                   | Messages API + web_search tool (platform-2-anthropic-messages) |
 * | platform_3 | assistant of a large search company     | generateContent + google_search (platform-3-gemini)   |
 * | platform_4 | answer engine                           | search-grounded chat completions (platform-4-perplexity) |
 * | platform_5 | assistant of a desktop-software company | web-research Responses API (platform-5-parallel-responses) |
 * | platform_6 | open-model assistant                    | search API results + open model chat (platform-6-open-model) |
 * | platform_7 | assistant of a social network           | Responses API + web_search agent tool (platform-7-xai-responses) |
 * | platform_8 | AI overview of a web search engine      | SERP API ai_overview (platform-8-serpapi-ai-overview) |
 *
 * A platform without its settings is a client whose `ask` answers `unconfigured` with the
 * missing setting's name (`PLATFORM_3_API_URL is not set`); nothing is ever made up.
 * Plain fetch (ProviderFetch), no vendor SDKs: this module is bundled in the task Lambda only.
 */
import type { Config } from '../../../config';
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { createPlatform1Client } from './platform-1-openai-responses';
import { createPlatform2Client } from './platform-2-anthropic-messages';
import { createPlatform3Client } from './platform-3-gemini';
import { createPlatform4Client } from './platform-4-perplexity';
import { createPlatform5Client } from './platform-5-parallel-responses';
import { createPlatform6Client } from './platform-6-open-model';
import { createPlatform7Client } from './platform-7-xai-responses';
import { createPlatform8Client } from './platform-8-serpapi-ai-overview';
import type { PlatformDeps, PlatformSettings } from './shared';

export type { PlatformDeps, PlatformSettings } from './shared';
export {
  createPlatform1Client, createPlatform2Client, createPlatform3Client, createPlatform4Client,
  createPlatform5Client, createPlatform6Client, createPlatform7Client, createPlatform8Client,
};

export interface PlatformClientSettings {
  /** config.platforms: one entry per platform number (missing entries count as unset). */
  platforms: Config['platforms'];
  /** config.search: the web search API platform_6 feeds to its model. */
  search: Config['search'];
}

/** The 8 clients, in PLATFORM_KEYS order. */
export function createPlatformClients(settings: PlatformClientSettings, deps: PlatformDeps): PlatformClient[] {
  const of = (n: number): PlatformSettings | undefined => settings.platforms.find((p) => p.n === n);
  return [
    createPlatform1Client(of(1), deps),
    createPlatform2Client(of(2), deps),
    createPlatform3Client(of(3), deps),
    createPlatform4Client(of(4), deps),
    createPlatform5Client(of(5), deps),
    createPlatform6Client(of(6), settings.search, deps),
    createPlatform7Client(of(7), deps),
    createPlatform8Client(of(8), deps),
  ];
}
