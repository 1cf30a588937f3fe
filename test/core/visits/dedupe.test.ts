import { classifyUserAgent } from '../../../functions/core/site/ai-bots';
import {
  normalizeVisitPath, userAgentFamily, visitBuckets, visitDedupeKey, visitId, VISIT_BUCKET_SECONDS,
} from '../../../functions/core/visits/dedupe';

describe('visitBuckets: 5-minute UTC buckets and the nearer neighbour', () => {
  it.each([
    ['2025-03-01T10:00:00.000Z', '2025-03-01T10:00:00Z', '2025-03-01T09:55:00Z'],
    ['2025-03-01T10:02:29.999Z', '2025-03-01T10:00:00Z', '2025-03-01T09:55:00Z'],
    ['2025-03-01T10:02:30.000Z', '2025-03-01T10:00:00Z', '2025-03-01T10:05:00Z'],
    ['2025-03-01T10:04:59.999Z', '2025-03-01T10:00:00Z', '2025-03-01T10:05:00Z'],
    ['2025-03-01T00:01:00.000Z', '2025-03-01T00:00:00Z', '2025-02-28T23:55:00Z'],
  ])('%s → bucket %s, neighbour %s', (at, bucket, neighbour) => {
    expect(visitBuckets(new Date(at))).toEqual({ bucket, neighbour });
  });

  it('two sightings less than half a bucket apart always share a bucket or see each other across the boundary', () => {
    const half = (VISIT_BUCKET_SECONDS * 1000) / 2;
    const start = Date.parse('2025-03-01T10:00:00Z');
    for (let t = start; t < start + 2 * VISIT_BUCKET_SECONDS * 1000; t += 7_919) {
      for (const gap of [1, 1_000, 60_000, half - 1]) {
        const a = visitBuckets(new Date(t));
        const b = visitBuckets(new Date(t + gap));
        const meet = a.bucket === b.bucket || a.neighbour === b.bucket || b.neighbour === a.bucket;
        expect([t, gap, meet]).toEqual([t, gap, true]);
      }
    }
  });

  it('buckets never cross a UTC day (the day counters follow the bucket date)', () => {
    expect((24 * 3600) % VISIT_BUCKET_SECONDS).toBe(0);
    expect(visitBuckets(new Date('2025-03-01T23:59:59.999Z')).bucket.slice(0, 10)).toBe('2025-03-01');
  });
});

describe('normalizeVisitPath: the beacon\'s location and the log\'s cs-uri-stem agree', () => {
  it.each([
    ['https://shop.example/ai/products/decaf/?utm_source=chat#top', '/ai/products/decaf/'],
    ['/ai/products/decaf/', '/ai/products/decaf/'],
    ['/ai/products/d%C3%A9caf/', '/ai/products/d%C3%A9caf/'],
    ['/ai/products/dé caf/', '/ai/products/d%C3%A9%20caf/'],
    ['/ai/products/d%c3%a9caf/', '/ai/products/d%C3%A9caf/'],
    ['/a%2Fb', '/a%2Fb'],
    ['/llms.txt?x=1', '/llms.txt'],
    ['/p/a:b@c+d,e;f=g$h&i', '/p/a:b@c+d,e;f=g$h&i'],
    ['/p/%25', '/p/%25'],
    ['/bad%zzescape', '/bad%25zzescape'],
    ['relative/path', '/relative/path'],
    ['https://shop.example', '/'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeVisitPath(input)).toBe(expected);
  });
});

describe('userAgentFamily and the key', () => {
  const gpt11 = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot';
  const gpt12 = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

  it('a known bot\'s family is its token, whatever the version or wording', () => {
    expect(userAgentFamily(gpt11, classifyUserAgent(gpt11))).toBe('gptbot');
    expect(userAgentFamily(gpt12, classifyUserAgent(gpt12))).toBe('gptbot');
  });

  it('a generic bot\'s family is its User-Agent without digits', () => {
    const a = 'Mozilla/5.0 (compatible; ExampleBot/1.2)';
    const b = 'Mozilla/5.0 (compatible; ExampleBot/1.3)';
    expect(userAgentFamily(a, classifyUserAgent(a))).toBe(userAgentFamily(b, classifyUserAgent(b)));
    expect(userAgentFamily(a, classifyUserAgent(a))).not.toBe(userAgentFamily('OtherBot/1', classifyUserAgent('OtherBot/1')));
  });

  it('the key depends on organization, path, family and address only', () => {
    const base = { orgSlug: 'acme', path: '/ai/', family: 'gptbot', address: '203.0.113.7' };
    const key = visitDedupeKey(base);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(visitDedupeKey({ ...base })).toBe(key);
    for (const change of [{ orgSlug: 'other' }, { path: '/ai/x' }, { family: 'claudebot' }, { address: '203.0.113.8' }]) {
      expect(visitDedupeKey({ ...base, ...change })).not.toBe(key);
    }
    expect(visitId(key, '2025-03-01T10:00:00Z')).not.toBe(visitId(key, '2025-03-01T10:05:00Z'));
  });
});
