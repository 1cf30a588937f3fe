import {
  buildIndexNowSubmissions,
  indexNowKeyLocation,
  indexNowUrls,
  INDEXNOW_MAX_URLS_PER_SUBMISSION,
  isValidIndexNowKey,
  planIndexNowSubmissions,
} from '../../functions/core/indexnow/submission';
import { isPubliclyReachableHost } from '../../functions/core/indexnow/submission';
import { ValidationError } from '../../functions/core/errors';

const KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const HOST = 'acme.ai.example.net';
const KEY_LOCATION = `https://${HOST}/${KEY}.txt`;

const urlsOn = (host: string, n: number, offset = 0) => Array.from({ length: n }, (_, i) => `https://${host}/page-${i + offset}/`);

describe('buildIndexNowSubmissions', () => {
  test('a 25,001-URL list becomes 3 submissions of at most 10,000, all for the one host and key', () => {
    const urls = urlsOn(HOST, 25_001);
    const { submissions, refused, duplicates } = buildIndexNowSubmissions({ host: HOST, key: KEY, keyLocation: KEY_LOCATION, urls });
    expect(submissions.map((s) => s.urlList.length)).toEqual([10_000, 10_000, 5_001]);
    expect(INDEXNOW_MAX_URLS_PER_SUBMISSION).toBe(10_000);
    for (const s of submissions) {
      expect(Object.keys(s).sort()).toEqual(['host', 'key', 'keyLocation', 'urlList']);
      expect(s).toMatchObject({ host: HOST, key: KEY, keyLocation: KEY_LOCATION });
    }
    expect(submissions.flatMap((s) => s.urlList)).toEqual(urls);
    expect(refused).toEqual([]);
    expect(duplicates).toBe(0);
  });

  test('exactly 10,000 URLs is one submission; none is no submission', () => {
    expect(buildIndexNowSubmissions({ host: HOST, key: KEY, keyLocation: KEY_LOCATION, urls: urlsOn(HOST, 10_000) }).submissions).toHaveLength(1);
    expect(buildIndexNowSubmissions({ host: HOST, key: KEY, keyLocation: KEY_LOCATION, urls: [] }).submissions).toEqual([]);
  });

  test('a smaller batch size is honoured but never more than 10,000', () => {
    const urls = urlsOn(HOST, 25);
    expect(buildIndexNowSubmissions({ host: HOST, key: KEY, keyLocation: KEY_LOCATION, urls, maxUrlsPerSubmission: 10 }).submissions.map((s) => s.urlList.length)).toEqual([10, 10, 5]);
    expect(buildIndexNowSubmissions({ host: HOST, key: KEY, keyLocation: KEY_LOCATION, urls: urlsOn(HOST, 10_001), maxUrlsPerSubmission: 50_000 }).submissions).toHaveLength(2);
  });

  test('duplicates are dropped after parsing (fragments ignored, first occurrence kept)', () => {
    const { submissions, duplicates } = buildIndexNowSubmissions({
      host: HOST,
      key: KEY,
      keyLocation: KEY_LOCATION,
      urls: [`https://${HOST}/a/`, `https://${HOST}/b/`, `https://${HOST}/a/#top`, `https://${HOST.toUpperCase()}/a/`, `  https://${HOST}/b/ `],
    });
    expect(submissions).toHaveLength(1);
    expect(submissions[0]!.urlList).toEqual([`https://${HOST}/a/`, `https://${HOST}/b/`]);
    expect(duplicates).toBe(3);
  });

  test('one host per submission: URLs of another host (a subdomain, www against the naked domain) are refused with a reason, never sent', () => {
    const { submissions, refused } = buildIndexNowSubmissions({
      host: 'example.com',
      key: KEY,
      keyLocation: 'https://example.com/indexing-key.txt',
      urls: ['https://example.com/a', 'https://www.example.com/b', 'https://shop.example.com/c', 'https://other.org/d', 'http://example.com/e'],
    });
    expect(submissions).toHaveLength(1);
    expect(submissions[0]!.urlList).toEqual(['https://example.com/a', 'http://example.com/e']);
    expect(refused.map((r) => r.url)).toEqual(['https://www.example.com/b', 'https://shop.example.com/c', 'https://other.org/d']);
    for (const r of refused) expect(r.reason).toMatch(/another host/);
  });

  test('only absolute http(s) URLs without credentials are sent', () => {
    const { submissions, refused } = buildIndexNowSubmissions({
      host: HOST,
      key: KEY,
      keyLocation: KEY_LOCATION,
      urls: ['/relative/path', 'ftp://acme.ai.example.net/x', `https://user:pw@${HOST}/x`, 'not a url', `https://${HOST}/ok`],
    });
    expect(submissions[0]!.urlList).toEqual([`https://${HOST}/ok`]);
    expect(refused.map((r) => r.reason)).toEqual(['not an absolute URL', 'not an http(s) URL (ftp:)', 'carries credentials', 'not an absolute URL']);
  });

  test('a key file in a sub-directory only validates URLs under that directory', () => {
    const { submissions, refused } = buildIndexNowSubmissions({
      host: HOST,
      key: KEY,
      keyLocation: `https://${HOST}/ai/${KEY}.txt`,
      urls: [`https://${HOST}/ai/x/`, `https://${HOST}/llms.txt`],
    });
    expect(submissions[0]!.urlList).toEqual([`https://${HOST}/ai/x/`]);
    expect(refused[0]).toEqual({ url: `https://${HOST}/llms.txt`, reason: expect.stringMatching(/outside \/ai\//) });
  });

  test('a host with a port (the local AI-site host) matches URLs on that port only', () => {
    const { submissions, refused } = buildIndexNowSubmissions({
      host: 'acme.localhost:8081',
      key: KEY,
      keyLocation: `http://acme.localhost:8081/${KEY}.txt`,
      urls: ['http://acme.localhost:8081/a/', 'http://acme.localhost:9999/b/'],
    });
    expect(submissions[0]!.urlList).toEqual(['http://acme.localhost:8081/a/']);
    expect(refused).toHaveLength(1);
  });

  test('the key is 8-128 characters of a-zA-Z0-9-', () => {
    expect(isValidIndexNowKey('abcd-123')).toBe(true);
    expect(isValidIndexNowKey('A'.repeat(128))).toBe(true);
    expect(isValidIndexNowKey('abc-123')).toBe(false);
    expect(isValidIndexNowKey('A'.repeat(129))).toBe(false);
    expect(isValidIndexNowKey('abcd_1234')).toBe(false);
    expect(isValidIndexNowKey('abcd 1234')).toBe(false);
    expect(() => buildIndexNowSubmissions({ host: HOST, key: 'short', keyLocation: KEY_LOCATION, urls: [] })).toThrow(ValidationError);
    expect(() => buildIndexNowSubmissions({ host: HOST, key: 'key_with_underscore', keyLocation: KEY_LOCATION, urls: [] })).toThrow(/8-128/);
  });

  test('the host has no scheme or path; the key location is on the host', () => {
    expect(() => buildIndexNowSubmissions({ host: `https://${HOST}`, key: KEY, keyLocation: KEY_LOCATION, urls: [] })).toThrow(/without scheme or path/);
    expect(() => buildIndexNowSubmissions({ host: `${HOST}/ai`, key: KEY, keyLocation: KEY_LOCATION, urls: [] })).toThrow(/without scheme or path/);
    expect(() => buildIndexNowSubmissions({ host: HOST, key: KEY, keyLocation: `https://other.org/${KEY}.txt`, urls: [] })).toThrow(/not on the host/);
    expect(() => buildIndexNowSubmissions({ host: HOST, key: KEY, keyLocation: `/${KEY}.txt`, urls: [] })).toThrow(/keyLocation/);
    expect(buildIndexNowSubmissions({ host: HOST.toUpperCase(), key: KEY, keyLocation: KEY_LOCATION, urls: [`https://${HOST}/a`] }).submissions[0]!.host).toBe(HOST);
  });
});

describe('indexNowUrls: URL forms per D28', () => {
  const aiSiteOrigin = 'https://acme.ai.example.net';

  test('without a customer domain: the AI-site host, articles at /<slug>/, AI paths where the files are, store URLs excluded', () => {
    const plan = indexNowUrls({
      aiSiteOrigin,
      articlePaths: ['/best-running-shoes-2026/', 'how-to-clean-suede', '/gift-guide/index.html', '/ai/why-merino/'],
      aiPaths: ['/llms.txt', '/llms/trail-runner.txt', '/ai/products/trail-runner/index.html', '/pages/about-us.md', '/sitemap.xml'],
      changedUrls: ['https://acme-store.com/products/trail-runner', '/collections/all'],
    });
    expect(plan).toMatchObject({ origin: aiSiteOrigin, host: 'acme.ai.example.net', customerDomain: false });
    expect(plan.urls).toEqual([
      `${aiSiteOrigin}/best-running-shoes-2026/`,
      `${aiSiteOrigin}/how-to-clean-suede/`,
      `${aiSiteOrigin}/gift-guide/`,
      `${aiSiteOrigin}/why-merino/`,
      `${aiSiteOrigin}/llms.txt`,
      `${aiSiteOrigin}/llms/trail-runner.txt`,
      `${aiSiteOrigin}/ai/products/trail-runner/`,
      `${aiSiteOrigin}/pages/about-us.md`,
      `${aiSiteOrigin}/sitemap.xml`,
    ]);
    expect(plan.excluded.map((e) => e.url)).toEqual(['https://acme-store.com/products/trail-runner', '/collections/all']);
    expect(plan.excluded[0]!.reason).toMatch(/without a customer domain/);
  });

  test('with a customer domain: that host, articles at /ai/<slug>/, routed paths as they are, other AI paths under /ai, store URLs of that host included', () => {
    const plan = indexNowUrls({
      aiSiteOrigin,
      publicOrigin: 'https://www.acme-store.com',
      articlePaths: ['/best-running-shoes-2026/', '/ai/why-merino/'],
      aiPaths: ['/llms.txt', '/llms/trail-runner.txt', '/ai/products/trail-runner/index.html', '/pages/about-us.md', '/robots.txt', '/indexing-key.txt'],
      changedUrls: [
        'https://www.acme-store.com/products/trail-runner',
        'https://acme-store.com/products/naked-domain',
        'https://acme.myshopify.com/products/x',
        'https://www.acme-store.com/llms.txt',
        '/collections/all',
        '/ai/anything',
      ],
    });
    expect(plan).toMatchObject({ origin: 'https://www.acme-store.com', host: 'www.acme-store.com', customerDomain: true });
    expect(plan.urls).toEqual([
      'https://www.acme-store.com/ai/best-running-shoes-2026/',
      'https://www.acme-store.com/ai/why-merino/',
      'https://www.acme-store.com/llms.txt',
      'https://www.acme-store.com/llms/trail-runner.txt',
      'https://www.acme-store.com/ai/products/trail-runner/',
      'https://www.acme-store.com/ai/pages/about-us.md',
      'https://www.acme-store.com/robots.txt',
      'https://www.acme-store.com/indexing-key.txt',
      'https://www.acme-store.com/products/trail-runner',
      'https://www.acme-store.com/collections/all',
    ]);
    expect(plan.excluded).toEqual([
      { url: 'https://acme-store.com/products/naked-domain', reason: expect.stringMatching(/not the customer domain www\.acme-store\.com/) },
      { url: 'https://acme.myshopify.com/products/x', reason: expect.stringMatching(/another host/) },
      { url: 'https://www.acme-store.com/llms.txt', reason: expect.stringMatching(/routes this path to the AI site/) },
      { url: '/ai/anything', reason: expect.stringMatching(/routes this path to the AI site/) },
    ]);
  });

  test('a publicOrigin that is the AI-site host itself is no customer domain', () => {
    const plan = indexNowUrls({ aiSiteOrigin, publicOrigin: `${aiSiteOrigin}/`, articlePaths: ['/a/'] });
    expect(plan.customerDomain).toBe(false);
    expect(plan.urls).toEqual([`${aiSiteOrigin}/a/`]);
  });

  test('inputs that are not articles or AI paths are excluded with a reason; duplicates across inputs collapse', () => {
    const plan = indexNowUrls({
      aiSiteOrigin,
      articlePaths: ['/ai/products/x/', '/', '/a/b/c/', '/dup/', 'dup'],
      aiPaths: ['llms.txt', '/dup/'],
    });
    expect(plan.urls).toEqual([`${aiSiteOrigin}/dup/`]);
    expect(plan.excluded.map((e) => e.url)).toEqual(['/ai/products/x/', '/', '/a/b/c/', 'llms.txt']);
  });

  test('the key location: /indexing-key.txt on a customer domain (routed there), /<key>.txt on the AI-site host', () => {
    expect(indexNowKeyLocation({ origin: 'https://www.acme-store.com', key: KEY, customerDomain: true })).toBe('https://www.acme-store.com/indexing-key.txt');
    expect(indexNowKeyLocation({ origin: `${aiSiteOrigin}/`, key: KEY, customerDomain: false })).toBe(`${aiSiteOrigin}/${KEY}.txt`);
  });

  test('planIndexNowSubmissions: everything one business sends, with the key location of its host', () => {
    const withDomain = planIndexNowSubmissions({
      key: KEY,
      aiSiteOrigin,
      publicOrigin: 'https://www.acme-store.com',
      articlePaths: ['/a/'],
      changedUrls: ['https://www.acme-store.com/products/x', 'https://acme-store.com/y'],
    });
    expect(withDomain.submissions).toEqual([{
      host: 'www.acme-store.com',
      key: KEY,
      keyLocation: 'https://www.acme-store.com/indexing-key.txt',
      urlList: ['https://www.acme-store.com/ai/a/', 'https://www.acme-store.com/products/x'],
    }]);
    expect(withDomain.excluded).toHaveLength(1);

    const withoutDomain = planIndexNowSubmissions({ key: KEY, aiSiteOrigin: 'http://acme.localhost:8081', articlePaths: ['/a/'], changedUrls: ['https://acme-store.com/y'] });
    expect(withoutDomain.submissions).toEqual([{ host: 'acme.localhost:8081', key: KEY, keyLocation: `http://acme.localhost:8081/${KEY}.txt`, urlList: ['http://acme.localhost:8081/a/'] }]);

    expect(planIndexNowSubmissions({ key: KEY, aiSiteOrigin, changedUrls: ['https://acme-store.com/y'] }).submissions).toEqual([]);
  });
});

describe('isPubliclyReachableHost', () => {
  it.each([
    ['shop.example.com', true], ['demo.ai-sites.io:443', true], ['93.184.216.34', true],
    ['localhost', false], ['demo-store.localhost:8081', false], ['127.0.0.1:8080', false], ['10.0.0.7', false],
    ['[::1]', false], ['shop.test', false], ['shop.example', false], ['printer.local', false], ['intranet', false],
  ])('%s → %p', (host, expected) => expect(isPubliclyReachableHost(host)).toBe(expected));
});
