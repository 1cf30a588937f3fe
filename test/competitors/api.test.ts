/**
 * Competitors through the real local stack: embedded database, API server, the guarded
 * client (ALLOW_PRIVATE_NETWORK=1, so loopback "competitor" sites are reachable while
 * link-local and metadata addresses stay refused) and a local Brave-shaped search server.
 */
import { discoverCompetitors } from '../../functions/app/competitors';
import { artifactKeys } from '../../functions/core/artifacts';
import { UpstreamError } from '../../functions/core/errors';
import { getContainer, setContainer, type Container } from '../../functions/container';
import { competitorEnginesOf } from '../../functions/engines/competitors';
import { startTestStack, type TestStack } from '../support/stack';
import {
  competitorPage, deadOrigin, installContainer, startFakeModel, startSearchServer, startSite,
  type BraveResult, type PageSpec, type SearchServer, type TestSite,
} from './support';

const SEARCH_KEY = 'test-search-key';
const FAVICONS = 'https://icons.example/{domain}.ico';

let stack: TestStack;
let baseConfig: Container['config'];
let search: SearchServer;
let own: TestSite;
const rivals: Array<TestSite & { spec: PageSpec }> = [];
const extra: TestSite[] = [];
let searchResults: BraveResult[] = [];
let ip = 0;
/** A fresh client address per public call, so the 10/minute limit never interferes. */
const client = () => ({ 'X-Forwarded-For': `203.0.113.${++ip}` });

const ADJECTIVES = ['Northbound', 'Copper Kettle', 'Bluebird', 'Ironwood', 'Saltmarsh', 'Juniper', 'Redtail', 'Morning Fog', 'Granite', 'Wild Fern', 'Lantern', 'Harbor', 'Tidewater'];

function rivalSpec(i: number, origin: string): PageSpec {
  const name = `${ADJECTIVES[i]} Coffee`;
  return {
    name,
    tagline: `${name}: fresh roasted coffee`,
    description: `${name} roasts specialty coffee beans and ships them within 24 hours.`,
    products: [`${ADJECTIVES[i]} House Blend`, `${ADJECTIVES[i]} Decaf`],
    claims: [`Free shipping on orders over $${30 + i}.`, `Roasting small-batch coffee since ${2000 + i}.`, 'Our baristas answer every email within a day.'],
    audience: 'Designed for home baristas who care about freshness.',
    origin,
  };
}

async function startRival(i: number) {
  let site: TestSite | undefined;
  const spec = { current: undefined as PageSpec | undefined };
  site = await startSite({ '/': () => ({ body: competitorPage(spec.current!) }) });
  spec.current = rivalSpec(i, site.origin);
  return Object.assign(site, { spec: spec.current });
}

beforeAll(async () => {
  stack = await startTestStack();
  baseConfig = getContainer().config;
  own = await startSite({ '/': { body: competitorPage({ name: 'Acme Coffee', tagline: 'Our own store', description: 'Acme Coffee sells coffee.', products: ['Acme Blend'], claims: ['Free returns.'] }) } });
  for (let i = 0; i < 13; i++) rivals.push(await startRival(i));
  const dead = await deadOrigin();
  searchResults = [
    { title: 'Acme Coffee – our own store', url: `${own.origin}/collections/all` },
    { title: 'Amazon.com: coffee beans', url: 'https://www.amazon.com/s?k=coffee+beans' },
    { title: 'r/Coffee – best roasters?', url: 'https://www.reddit.com/r/Coffee/comments/abc' },
    { title: 'Coffee – Wikipedia', url: 'https://en.wikipedia.org/wiki/Coffee' },
    { title: 'Dead Roasters', url: `${dead}/` },
    ...rivals.slice(0, 12).map((r) => ({ title: `${r.spec.name} | Shop`, url: `${r.origin}/products/house-blend`, description: r.spec.description })),
    { title: 'Northbound again', url: `${rivals[0].origin}/pages/about` },
  ];
  search = await startSearchServer({ key: SEARCH_KEY, results: () => searchResults });
  installContainer(baseConfig, { search: { apiUrl: search.url, apiKey: SEARCH_KEY }, faviconServiceUrl: FAVICONS });
});

afterAll(async () => {
  setContainer(undefined);
  await Promise.all([...rivals, ...extra, own].map((s) => s.close()));
  await search?.close();
  await stack.close();
});

async function createBusiness(org: string, url = own.origin) {
  const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: 'Acme Coffee', url } });
  expect(res.status).toBe(201);
}

function withSearch<T>(settings: Parameters<typeof installContainer>[1], run: () => Promise<T>): Promise<T> {
  const previous = getContainer();
  installContainer(baseConfig, settings);
  return run().finally(() => setContainer(previous));
}

describe('competitor discovery (onboarding step 1b)', () => {
  test('saves at most 10 auto-discovered competitors, never the business, platforms, dead sites or duplicates', async () => {
    await createBusiness('disco');
    const outcome = await discoverCompetitors(getContainer(), 'disco');
    expect(outcome).toMatchObject({ status: 'succeeded', added: 10, total: 10, refinedByModel: false });
    if (outcome.status !== 'succeeded') throw new Error('unreachable');
    expect(outcome.queries).toEqual(['Acme Coffee competitors', 'sites like 127.0.0.1']);
    expect(outcome.failures).toEqual([expect.objectContaining({ reason: expect.stringMatching(/connection refused/) })]);
    expect(search.requests.every((r) => r.token === SEARCH_KEY && r.count === 20)).toBe(true);

    const list = await stack.call('GET', '/api/explore/competitors', { token: await stack.token('disco') });
    expect(list.status).toBe(200);
    expect(list.body.status).toBe('success');
    expect(list.body.count).toBe(10);
    const urls = list.body.competitors.map((c: { url: string }) => c.url);
    expect(new Set(urls).size).toBe(10);
    expect(urls).not.toContain(own.origin);
    expect(urls).toEqual(expect.arrayContaining(rivals.slice(0, 10).map((r) => r.origin)));
    for (const c of list.body.competitors) {
      expect(c).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: expect.stringMatching(/ Coffee$/), url: expect.any(String), favicon_url: 'https://icons.example/127.0.0.1.ico', source: 'auto_discovered' });
    }
    const first = list.body.competitors.find((c: { url: string }) => c.url === rivals[0].origin);
    expect(first.name).toBe('Northbound Coffee');
  });

  test('is idempotent: a re-run adds nothing, and after a removal it only fills the missing slot', async () => {
    const again = await discoverCompetitors(getContainer(), 'disco');
    expect(again).toMatchObject({ status: 'succeeded', added: 0, total: 10 });

    const { repo } = competitorEnginesOf(getContainer());
    const stored = await repo.list('disco');
    await repo.remove('disco', stored[0].id);
    const refill = await discoverCompetitors(getContainer(), 'disco');
    expect(refill).toMatchObject({ status: 'succeeded', added: 1, total: 10 });
    const after = await repo.list('disco');
    expect(after).toHaveLength(10);
    expect(new Set(after.map((c) => c.domain)).size).toBe(10);
  });

  test('the 10 auto-discovered do not count toward the 2 user-added', async () => {
    const token = await stack.token('disco');
    const res = await stack.call('POST', '/api/explore/add-competitor', { token, body: { url: rivals[12].origin } });
    expect(res.status).toBe(201);
    expect(res.body.competitor.source).toBe('user_added');
    const list = await stack.call('GET', '/api/explore/competitors', { token });
    expect(list.body.count).toBe(11);
  });

  test('queries come from the stored narrative (industry, categories) when there is one', async () => {
    await createBusiness('narrated');
    await getContainer().artifacts.put(artifactKeys.narrative('narrated'), { industry: 'specialty coffee', categories: ['Coffee beans', 'Brewing gear'] });
    const outcome = await discoverCompetitors(getContainer(), 'narrated');
    expect(outcome).toMatchObject({ status: 'succeeded', added: 10, queries: ['best specialty coffee online stores', 'buy Coffee beans online', 'Acme Coffee competitors', 'sites like 127.0.0.1'] });
  });

  test('when every search query fails, the step fails with the provider\'s error (retryable), saving nothing', async () => {
    await createBusiness('searchdown');
    const err = await withSearch({ search: { apiUrl: search.url, apiKey: 'wrong' } }, () => discoverCompetitors(getContainer(), 'searchdown')).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toMatch(/rejected the API key/);
    expect(await competitorEnginesOf(getContainer()).repo.list('searchdown')).toEqual([]);
  });

  test('without a search API the step is skipped with its reason and saves nothing', async () => {
    await createBusiness('nosearch');
    const outcome = await withSearch({}, () => discoverCompetitors(getContainer(), 'nosearch'));
    expect(outcome).toEqual({ status: 'skipped', reason: 'no search API configured (SEARCH_API_URL)' });
    const list = await stack.call('GET', '/api/explore/competitors', { token: await stack.token('nosearch') });
    expect(list.body).toEqual({ status: 'success', competitors: [], count: 0 });
  });

  test('with a model configured, it keeps only the candidates the model picks (an invented domain is dropped)', async () => {
    await createBusiness('refined');
    const picks = [rivals[3], rivals[1], rivals[7]].map((r) => r.origin.replace('http://', ''));
    const model = await startFakeModel((user) => {
      expect(user).toContain(picks[0]);
      return JSON.stringify({ competitors: [...picks, 'invented-rival.example'] });
    });
    try {
      const outcome = await withSearch({ search: { apiUrl: search.url, apiKey: SEARCH_KEY }, llm: { baseUrl: model.baseUrl, apiKey: 'k', model: 'test-model' } },
        () => discoverCompetitors(getContainer(), 'refined'));
      expect(outcome).toMatchObject({ status: 'succeeded', added: 3, total: 3, refinedByModel: true });
      expect(model.calls).toBe(1);
      const stored = await competitorEnginesOf(getContainer()).repo.list('refined');
      expect(stored.map((c) => c.domain).sort()).toEqual([...picks].sort());
    } finally {
      await model.close();
    }
  });
});

describe('POST /api/explore/add-competitor', () => {
  let token: string;
  beforeAll(async () => {
    await createBusiness('adder');
    token = await stack.token('adder');
  });

  test('crawls the site, extracts its fields and saves it as user_added', async () => {
    const rival = rivals[0];
    const res = await stack.call('POST', '/api/explore/add-competitor', { token, body: { url: `${rival.origin}/collections/all?utm_source=x` } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 'success',
      competitor: {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        name: 'Northbound Coffee',
        url: rival.origin,
        description: rival.spec.description,
        favicon_url: 'https://icons.example/127.0.0.1.ico',
        source: 'user_added',
      },
    });
    const stored = await competitorEnginesOf(getContainer()).repo.get('adder', res.body.competitor.id);
    expect(stored).toMatchObject({
      products: ['Northbound House Blend', 'Northbound Decaf'],
      targetMarket: 'home baristas who care about freshness',
      domain: `127.0.0.1:${rival.port}`,
    });
  });

  test('the same website again (other path, trailing slash) is a 409 "competitor already exists"', async () => {
    const res = await stack.call('POST', '/api/explore/add-competitor', { token, body: { url: `${rivals[0].origin}/` } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/^competitor already exists/) });
  });

  test('the second user-added competitor is accepted, the third is a 409 telling the user to remove one first', async () => {
    const second = await stack.call('POST', '/api/explore/add-competitor', { token, body: { url: rivals[1].origin } });
    expect(second.status).toBe(201);
    const before = rivals[2].requests.length;
    const third = await stack.call('POST', '/api/explore/add-competitor', { token, body: { url: rivals[2].origin } });
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ status: 'error', error: expect.stringMatching(/remove one first/) });
    expect(rivals[2].requests.length).toBe(before); // refused before any crawl
    const list = await stack.call('GET', '/api/explore/competitors', { token });
    expect(list.body.count).toBe(2);
  });

  test('5 concurrent adds of different websites keep exactly 2; only the 3 over the cap are told so', async () => {
    await createBusiness('racer');
    const racer = await stack.token('racer');
    const results = await Promise.all([4, 5, 6, 7, 8].map((i) => stack.call('POST', '/api/explore/add-competitor', { token: racer, body: { url: rivals[i].origin } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ status: 'error', error: expect.stringMatching(/remove one first/) });
    const stored = await competitorEnginesOf(getContainer()).repo.list('racer');
    expect(stored.map((c) => c.url).sort()).toEqual(results.filter((r) => r.status === 201).map((r) => r.body.competitor.url).sort());
    expect((await stack.call('GET', '/api/explore/competitors', { token: racer })).body.count).toBe(2);
  });

  test('concurrent adds of one website keep it once; the others are "competitor already exists"', async () => {
    await createBusiness('twin-racer');
    const twin = await stack.token('twin-racer');
    const urls = [rivals[9].origin, `${rivals[9].origin}/`, `${rivals[9].origin}/products/x`, `${rivals[9].origin}/?utm_source=y`];
    const results = await Promise.all(urls.map((url) => stack.call('POST', '/api/explore/add-competitor', { token: twin, body: { url } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ status: 'error', error: expect.stringMatching(/^competitor already exists/) });
    expect(await competitorEnginesOf(getContainer()).repo.list('twin-racer')).toHaveLength(1);
    // The slot the losers briefly contended for is not lost: a second website still fits.
    expect((await stack.call('POST', '/api/explore/add-competitor', { token: twin, body: { url: rivals[10].origin } })).status).toBe(201);
  });

  test('the business\'s own website is a 400', async () => {
    await createBusiness('own-check');
    const res = await stack.call('POST', '/api/explore/add-competitor', { token: await stack.token('own-check'), body: { url: `${own.origin}/products/x` } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/^url: 127\.0\.0\.1:\d+ is your own website/) });
  });

  describe('errors (org with free slots)', () => {
    let t2: string;
    beforeAll(async () => {
      await createBusiness('adder2');
      t2 = await stack.token('adder2');
    });

    test('an unreachable site is a 502 after the live crawl fallback', async () => {
      const dead = await deadOrigin();
      const res = await stack.call('POST', '/api/explore/add-competitor', { token: t2, body: { url: dead } });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/could not read 127\.0\.0\.1:\d+: .*connection refused.*live crawl fallback/) });
    });

    test.each([
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254.*not allowed/],
      ['http://[fd00:ec2::254]/', /not allowed/],
      ['http://[fe80::1]/', /not allowed/],
    ])('link-local or metadata address %s is a 400 from the guarded client', async (url, message) => {
      const res = await stack.call('POST', '/api/explore/add-competitor', { token: t2, body: { url } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(message) });
    });

    test('a site that redirects to the metadata address is refused on that hop (400)', async () => {
      const sneaky = await startSite({ '/': { status: 302, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } } });
      extra.push(sneaky);
      const res = await stack.call('POST', '/api/explore/add-competitor', { token: t2, body: { url: sneaky.origin } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/169\.254\.169\.254/);
    });

    test.each([
      [{ url: 'ftp://rival.example' }, /url must use http or https/],
      [{ url: 'not a domain' }, /url/],
      [{ url: '' }, /url is required/],
      [{}, /url is required/],
    ])('invalid body %j is a 400 naming url', async (body, message) => {
      const res = await stack.call('POST', '/api/explore/add-competitor', { token: t2, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(message) });
    });

    test('live crawl fallback: a blocked home page is read from the sitemap\'s pages', async () => {
      let origin = '';
      const shy = await startSite({
        '/': { status: 403, body: '<html><head><title>Access denied</title></head><body>Forbidden</body></html>' },
        '/robots.txt': () => ({ type: 'text/plain', body: `User-agent: *\nDisallow: /cart\nSitemap: ${origin}/sitemap_index.xml\n` }),
        '/sitemap_index.xml': () => ({ type: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap_pages_1.xml</loc></sitemap></sitemapindex>` }),
        '/sitemap_pages_1.xml': () => ({ type: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/pages/missing</loc></url><url><loc>${origin}/pages/about</loc><lastmod>2024-05-01</lastmod></url></urlset>` }),
        '/pages/about': () => ({ body: competitorPage({ name: 'Shy Roasters', tagline: 'About us', description: 'Shy Roasters is a tiny roastery in Maine.', products: [], claims: [], origin }) }),
      });
      origin = shy.origin;
      extra.push(shy);
      const res = await stack.call('POST', '/api/explore/add-competitor', { token: t2, body: { url: shy.origin } });
      expect(res.status).toBe(201);
      expect(res.body.competitor).toMatchObject({ name: 'Shy Roasters', url: shy.origin, description: 'Shy Roasters is a tiny roastery in Maine.' });
      expect(shy.requests).toEqual(expect.arrayContaining(['/', '/robots.txt', '/sitemap_index.xml', '/sitemap_pages_1.xml', '/pages/about']));
    });

    test('a token whose organization has no business is a 404', async () => {
      const res = await stack.call('POST', '/api/explore/add-competitor', { token: await stack.token('no-business'), body: { url: rivals[3].origin } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/not found/) });
    });

    test('no token is a 401', async () => {
      const res = await stack.call('POST', '/api/explore/add-competitor', { body: { url: rivals[3].origin } });
      expect(res.status).toBe(401);
    });
  });
});

describe('GET /api/explore/competitors and /api/explore/competitor/{competitor_id}', () => {
  test('detail has description, scraped content and created_at', async () => {
    const token = await stack.token('adder');
    const list = await stack.call('GET', '/api/explore/competitors', { token });
    expect(list.body.competitors.map((c: { source: string }) => c.source)).toEqual(['user_added', 'user_added']);
    const id = list.body.competitors[0].id;
    const res = await stack.call('GET', `/api/explore/competitor/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.competitor).toMatchObject({
      id, name: 'Northbound Coffee', url: rivals[0].origin, description: rivals[0].spec.description,
      favicon_url: 'https://icons.example/127.0.0.1.ico', source: 'user_added', created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(res.body.competitor.scraped_content).toContain('# Northbound Coffee: fresh roasted coffee');
    expect(res.body.competitor.scraped_content).toContain('- Free shipping on orders over $30.');
    expect(res.body.competitor.scraped_content).not.toContain('dataLayer');
  });

  test('another organization\'s competitor and an unknown id are 404 "competitor not found"; a non-UUID is 400', async () => {
    const adderList = await stack.call('GET', '/api/explore/competitors', { token: await stack.token('adder') });
    const id = adderList.body.competitors[0].id;
    const other = await stack.token('disco');
    const res = await stack.call('GET', `/api/explore/competitor/${id}`, { token: other });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', error: 'competitor not found' });
    const unknown = await stack.call('GET', '/api/explore/competitor/00000000-0000-4000-8000-000000000000', { token: other });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 'error', error: 'competitor not found' });
    const bad = await stack.call('GET', '/api/explore/competitor/not-a-uuid', { token: other });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/competitor_id.*UUID/);
  });

  test('an organization without a business gets 404 on both', async () => {
    const token = await stack.token('ghost-org');
    expect((await stack.call('GET', '/api/explore/competitors', { token })).status).toBe(404);
    expect((await stack.call('GET', '/api/explore/competitor/00000000-0000-4000-8000-000000000000', { token })).status).toBe(404);
  });
});

describe('POST /api/competitor-research (public)', () => {
  test('top 5 competitors with strengths taken from their own pages', async () => {
    const res = await stack.call('POST', `/api/competitor-research?url=${encodeURIComponent(own.origin)}`, { headers: client() });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const competitors = res.body.data.competitors as Array<{ name: string; website: string; strengths: string[]; favicon_url: string }>;
    expect(competitors).toHaveLength(5);
    expect(competitors.map((c) => c.website)).not.toContain(own.origin);
    for (const c of competitors) {
      const rival = rivals.find((r) => r.origin === c.website)!;
      expect(rival).toBeDefined();
      expect(c.name).toBe(rival.spec.name);
      expect(c.favicon_url).toBe('https://icons.example/127.0.0.1.ico');
      expect(c.strengths.length).toBeGreaterThan(0);
      const pageTextClaims = [rival.spec.description, ...rival.spec.claims, rival.spec.audience];
      for (const s of c.strengths) expect(pageTextClaims.some((t) => t?.includes(s))).toBe(true);
    }
    expect(search.requests.at(-1)?.query).toMatch(/^(Acme Coffee competitors|sites like 127\.0\.0\.1)$/);
  });

  test('without a search API: 503 {success:false, error}', async () => {
    const res = await withSearch({}, () => stack.call('POST', `/api/competitor-research?url=${encodeURIComponent(own.origin)}`, { headers: client() }));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ success: false, error: 'competitor research is not available: no search API configured' });
  });

  test('a rejected search API key: 502 {success:false, error}', async () => {
    const res = await withSearch({ search: { apiUrl: search.url, apiKey: 'wrong' } },
      () => stack.call('POST', `/api/competitor-research?url=${encodeURIComponent(own.origin)}`, { headers: client() }));
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, error: expect.stringMatching(/rejected the API key/) });
  });

  test.each([
    ['', /url is required/],
    ['?url=', /url is required/],
    ['?url=ftp%3A%2F%2Fx.example', /http or https/],
    ['?url=http%3A%2F%2F169.254.169.254%2F', /not allowed/],
  ])('bad url %s: 400 {success:false, error}', async (query, message) => {
    const res = await stack.call('POST', `/api/competitor-research${query}`, { headers: client() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.stringMatching(message) });
  });
});
