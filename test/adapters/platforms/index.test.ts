/** createPlatformClients: the 8 clients in PLATFORM_KEYS order, unconfigured ones naming their missing settings; end to end against all 8 fakes. */
import { createPlatformClients } from '../../../functions/adapters/external/platforms';
import { loadConfig } from '../../../functions/config';
import { PLATFORM_KEYS, type PlatformKey } from '../../../functions/core/constants';
import { PLATFORM_NUMBERS } from '../../../functions/core/provider-settings';
import { startPlatformFakes, FAKE_PLATFORM_KEYS } from '../../../functions/local/fakes/platforms';
import { expectFailure, expectOk, testDeps } from './support';

const KINDS = [
  'general chat assistant', 'second chat assistant', 'assistant of a large search company', 'answer engine',
  'assistant of a desktop-software company', 'open-model assistant', 'assistant of a social network', 'AI overview of a web search engine',
];

test('nothing configured: 8 clients in order, each unconfigured with the settings it lacks, no request made', async () => {
  const t = testDeps();
  const clients = createPlatformClients({ platforms: PLATFORM_NUMBERS.map((n) => ({ n })), search: {} }, t.deps);
  expect(clients.map((c) => c.platform)).toEqual([...PLATFORM_KEYS]);
  expect(clients.map((c) => c.kind)).toEqual(KINDS);
  const reasons = await Promise.all(clients.map(async (c) => expectFailure(await c.ask('q'), 'unconfigured').reason));
  expect(reasons).toEqual([
    'PLATFORM_1_API_URL and PLATFORM_1_API_KEY are not set',
    'PLATFORM_2_API_URL and PLATFORM_2_API_KEY are not set',
    'PLATFORM_3_API_URL and PLATFORM_3_API_KEY are not set',
    'PLATFORM_4_API_URL and PLATFORM_4_API_KEY are not set',
    'PLATFORM_5_API_URL and PLATFORM_5_API_KEY are not set',
    'PLATFORM_6_API_URL, PLATFORM_6_MODEL and SEARCH_API_URL are not set',
    'PLATFORM_7_API_URL and PLATFORM_7_API_KEY are not set',
    'PLATFORM_8_API_URL and PLATFORM_8_API_KEY are not set',
  ]);
  expect(clients.map((c) => c.unconfigured)).toEqual(reasons);
  expect(t.urls).toEqual([]);
});

test('partly configured: a URL without the key, a key without the URL, a bad URL, missing entries', async () => {
  const t = testDeps();
  const clients = createPlatformClients({
    platforms: [
      { n: 3, apiUrl: 'https://generativelanguage.googleapis.com' },
      { n: 1, apiKey: 'k-123456' },
      { n: 4, apiUrl: 'not a url', apiKey: 'k-123456' },
      { n: 6, apiUrl: 'http://127.0.0.1:11434/v1', model: 'llama' },
    ],
    search: {},
  }, t.deps);
  expect(clients.map((c) => c.unconfigured)).toEqual([
    'PLATFORM_1_API_URL is not set',
    'PLATFORM_2_API_URL and PLATFORM_2_API_KEY are not set',
    'PLATFORM_3_API_KEY is not set',
    'PLATFORM_4_API_URL is not an absolute http(s) URL',
    'PLATFORM_5_API_URL and PLATFORM_5_API_KEY are not set',
    'SEARCH_API_URL is not set',
    'PLATFORM_7_API_URL and PLATFORM_7_API_KEY are not set',
    'PLATFORM_8_API_URL and PLATFORM_8_API_KEY are not set',
  ]);
  expect(clients.map((c) => c.model)).toEqual(['gpt-4.1-mini', 'claude-sonnet-5-5', 'gemini-3.5-flash-lite', 'perplexity/sonar', 'parallel', 'llama', 'grok-4.3', null]);
});

test('end to end: startPlatformFakes env → loadConfig → createPlatformClients; each platform names the brands its fake was told to', async () => {
  const brandsOf: Record<PlatformKey, string[]> = {
    platform_1: ['Harbor & Pine Coffee Co.'],
    platform_2: ['Rival Roasters'],
    platform_3: ['Harbor & Pine Coffee Co.', 'Rival Roasters'],
    platform_4: [],
    platform_5: ['Harbor & Pine Coffee Co.'],
    platform_6: ['Rival Roasters'],
    platform_7: ['Harbor & Pine Coffee Co.'],
    platform_8: ['Harbor & Pine Coffee Co.'],
  };
  const fakes = await startPlatformFakes({
    answerFor: (prompt, platform) => ({
      text: brandsOf[platform].length ? `For ${prompt}: ${brandsOf[platform].join(' and ')}.` : `For ${prompt}: many roasters sell online.`,
      citations: brandsOf[platform].includes('Harbor & Pine Coffee Co.') ? ['https://harborpine.example/'] : ['https://rival.example/'],
    }),
  });
  try {
    expect(Object.keys(fakes.env).sort()).toEqual([
      ...PLATFORM_NUMBERS.flatMap((n) => [`PLATFORM_${n}_API_URL`, ...(FAKE_PLATFORM_KEYS[`platform_${n}` as PlatformKey] ? [`PLATFORM_${n}_API_KEY`] : []), ...(n === 8 ? [] : [`PLATFORM_${n}_MODEL`])]),
    ].sort());
    const config = loadConfig({ ...fakes.env, ...fakes.searchEnv });
    const t = testDeps();
    const clients = createPlatformClients({ platforms: config.platforms, search: config.search }, t.deps);
    expect(clients.every((c) => c.unconfigured === null)).toBe(true);
    const answers = await Promise.all(clients.map(async (c) => expectOk(await c.ask('where to buy espresso beans'))));
    answers.forEach((a, i) => {
      const platform = PLATFORM_KEYS[i];
      expect(a.platform).toBe(platform);
      for (const brand of brandsOf[platform]) expect(a.text).toContain(brand);
      if (!brandsOf[platform].length) expect(a.text).toContain('many roasters sell online');
      expect(a.citations[0]).toBe(brandsOf[platform].includes('Harbor & Pine Coffee Co.') ? 'https://harborpine.example/' : 'https://rival.example/');
    });
    expect(fakes.requestCount()).toBe(9); // platform_6: search + chat
    expect(fakes.servers.platform_6.requests[0].path).toBe('/res/v1/web/search');
  } finally {
    await fakes.stop();
  }
});
