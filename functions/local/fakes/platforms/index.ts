/**
 * Local fakes of the eight AI platforms, each speaking its vendor's wire format on a real
 * HTTP server (server.ts, vendors.ts). Tests start one (`startFakePlatform`) or all
 * (`startPlatformFakes`); the local runtime (`npm start`) can start all and point the
 * service at them through the returned `env` (PLATFORM_<n>_API_URL / _API_KEY / _MODEL)
 * and, for platform_6's search, `searchEnv` (SEARCH_API_URL / SEARCH_API_KEY: the
 * platform_6 fake also serves the Brave-shaped search API).
 *
 * Answers are deterministic: `answerFor(prompt, platform)` decides the text (which brands it
 * names) and the cited URLs; by default a neutral answer naming no particular store.
 */
import { PLATFORM_KEYS, type PlatformKey } from '../../../core/constants';
import { startFakeVendor, type AnswerFor, type FakePlatformServer } from './server';
import { VENDOR_FORMATS } from './vendors';

export type { AnswerFor, FakeAnswer, FakePlatformServer, RecordedRequest } from './server';
export { VENDOR_FORMATS } from './vendors';

/** Keys the fakes accept unless told otherwise; dev values, never valid anywhere real. */
export const FAKE_PLATFORM_KEYS: Record<PlatformKey, string | undefined> = {
  platform_1: 'fake-p1-key-0f3a9c2e71',
  platform_2: 'fake-p2-key-5b8d1e4f20',
  platform_3: 'fake-p3-key-9c7e2a6b13',
  platform_4: 'fake-p4-key-2d6f8b0c94',
  platform_5: 'fake-p5-key-7a1c3e5d86',
  /** The open-model server needs no key (as local model servers usually do not). */
  platform_6: undefined,
  platform_7: 'fake-p7-key-4e9b7d2a58',
  platform_8: 'fake-p8-key-1f5c8a3b67',
};
export const FAKE_SEARCH_KEY = 'fake-search-key-6d2e9f4a11';

/** The model each fake reports (and the value put in PLATFORM_<n>_MODEL). */
export const FAKE_PLATFORM_MODELS: Record<PlatformKey, string> = {
  platform_1: 'gpt-4.1-mini',
  platform_2: 'claude-sonnet-5-5',
  platform_3: 'gemini-3.5-flash-lite',
  platform_4: 'perplexity/sonar',
  platform_5: 'parallel',
  platform_6: 'open-model-8b',
  platform_7: 'grok-4.3',
  platform_8: '',
};

/** A neutral answer: names two made-up shops and cites two example.com pages. */
export const defaultAnswerFor: AnswerFor = (prompt) => ({
  text: `Here is what I found for "${prompt.slice(0, 120)}". Popular choices include Example Outfitters and Sample Goods Co., both well reviewed.`,
  citations: ['https://example.com/guide', 'https://sample.example/reviews'],
});

export interface FakePlatformStartOptions {
  answerFor?: AnswerFor;
  /** Default FAKE_PLATFORM_KEYS[platform]; `null`: no key required. */
  key?: string | null;
  /** platform_6's search API key. Default FAKE_SEARCH_KEY; `null`: none required. */
  searchKey?: string | null;
  model?: string;
  port?: number;
  host?: string;
}

export async function startFakePlatform(platform: PlatformKey, options: FakePlatformStartOptions = {}): Promise<FakePlatformServer> {
  return startFakeVendor(platform, VENDOR_FORMATS[platform], {
    answerFor: options.answerFor ?? defaultAnswerFor,
    key: options.key === null ? undefined : options.key ?? FAKE_PLATFORM_KEYS[platform],
    searchKey: platform === 'platform_6' ? (options.searchKey === null ? undefined : options.searchKey ?? FAKE_SEARCH_KEY) : undefined,
    model: options.model ?? FAKE_PLATFORM_MODELS[platform],
    port: options.port,
    host: options.host,
  });
}

export interface PlatformFakesOptions {
  /** Decides every platform's answers. Default defaultAnswerFor. */
  answerFor?: AnswerFor;
  keys?: Partial<Record<PlatformKey, string | null>>;
  searchKey?: string | null;
  /** Fixed ports (e.g. for `npm start`); default any free port. */
  ports?: Partial<Record<PlatformKey, number>>;
  host?: string;
}

export interface PlatformFakes {
  servers: Record<PlatformKey, FakePlatformServer>;
  /** PLATFORM_<n>_API_URL of each fake. */
  urls: Record<PlatformKey, string>;
  /** PLATFORM_<n>_API_URL, _API_KEY (when the fake requires one) and _MODEL for all eight. */
  env: Record<string, string>;
  /** SEARCH_API_URL (and SEARCH_API_KEY) of the search API served by the platform_6 fake. */
  searchEnv: Record<string, string>;
  /** Total requests the fakes received. */
  requestCount(): number;
  stop(): Promise<void>;
}

export async function startPlatformFakes(options: PlatformFakesOptions = {}): Promise<PlatformFakes> {
  const started: FakePlatformServer[] = [];
  try {
    for (const platform of PLATFORM_KEYS) {
      started.push(await startFakePlatform(platform, {
        answerFor: options.answerFor,
        key: options.keys?.[platform],
        searchKey: options.searchKey,
        port: options.ports?.[platform],
        host: options.host,
      }));
    }
  } catch (err) {
    await Promise.all(started.map((s) => s.close()));
    throw err;
  }
  const servers = Object.fromEntries(started.map((s) => [s.platform, s])) as Record<PlatformKey, FakePlatformServer>;
  const env: Record<string, string> = {};
  for (const s of started) {
    const n = s.platform.slice('platform_'.length);
    env[`PLATFORM_${n}_API_URL`] = s.url;
    if (s.key) env[`PLATFORM_${n}_API_KEY`] = s.key;
    if (s.model) env[`PLATFORM_${n}_MODEL`] = s.model;
  }
  const p6 = servers.platform_6;
  return {
    servers,
    urls: Object.fromEntries(started.map((s) => [s.platform, s.url])) as Record<PlatformKey, string>,
    env,
    searchEnv: { SEARCH_API_URL: p6.origin, ...(p6.searchKey ? { SEARCH_API_KEY: p6.searchKey } : {}) },
    requestCount: () => started.reduce((n, s) => n + s.requestCount(), 0),
    stop: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}

/**
 * `npm start` with DEMO_PLATFORMS=1: the 8 fakes, answering like a mixed market (each
 * platform names the store's business for some prompts and not others, decided by a hash of
 * prompt and platform, so a re-run gives the same answers), and the PLATFORM_* settings that
 * are not set already pointed at them. Once `products()` lists the store's products, a
 * recommending answer names one of them and cites its page, and some other answers cite a
 * product page without naming it, so the per-product funnel has something to show. The search
 * API is left alone (onboarding would crawl its made-up results as competitors), so platform_6
 * stays unconfigured unless SEARCH_API_* is set.
 */
export async function startDemoPlatforms(
  env: NodeJS.ProcessEnv,
  businessName = 'Harbor & Pine Coffee Co.',
  products: () => ReadonlyArray<{ name: string; url: string }> = () => [],
): Promise<PlatformFakes> {
  const fakes = await startPlatformFakes({
    answerFor: (prompt, platform) => {
      let h = 0;
      for (const c of `${platform}|${prompt}`) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      const listed = products();
      const product = listed.length ? listed[h % listed.length] : null;
      if (h % 3 === 0) {
        return product
          ? { text: `For "${prompt.slice(0, 120)}", good options are:\n1. ${businessName}'s ${product.name}, well reviewed for freshness.\n2. Example Outfitters.`, citations: [product.url] }
          : { text: `For "${prompt.slice(0, 120)}", good options are:\n1. ${businessName}, well reviewed for freshness.\n2. Example Outfitters.`, citations: ['https://example.com/guide'] };
      }
      const answer = defaultAnswerFor(prompt, platform);
      return answer && product && h % 5 === 1 ? { ...answer, citations: [...(answer.citations ?? []), product.url] } : answer;
    },
  });
  for (const [name, value] of Object.entries(fakes.env)) env[name] ??= value;
  return fakes;
}
