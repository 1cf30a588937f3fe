/**
 * The dedupe rule end to end on the embedded database: the beacon, the AI-site host, the CDN
 * proxy (distribution domain or connected custom domain) and the access logs converge on one
 * visit; the access-log ingest (app and Lambda handler, S3 mocked) with late delivery.
 */
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import type { S3Event } from 'aws-lambda';
import { createCdnDistribution } from '../../functions/app/domain/cdn';
import { recordServedRequest, recordSighting, visitWritesSettled, type Sighting } from '../../functions/app/visits/record';
import { ingestAccessLogLines } from '../../functions/app/visits/ingest';
import { visitRepositoryOf } from '../../functions/engines/visit-repository';
import { getContainer, type Container } from '../../functions/container';
import { createIngestHandler, handler as ingestHandler } from '../../functions/tasks/ingest-access-logs';
import type { VisitRecord } from '../../functions/core/visits/visit';
import { AI_CRAWLER_SAMPLES, HUMAN_SAMPLES, LINK_PREVIEW_SAMPLES, SEARCH_CRAWLER_SAMPLES } from '../fixtures/ai-user-agents';
import { cloudFrontLogFile, cloudFrontLogLine, gzipLogFile } from '../support/cloudfront-log';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let container: Container;
const ORG = 'conv-shop';
const CUSTOM = 'www.conv-shop.example';
let cdnDomain: string;
const AI_HOST = `${ORG}.localhost`;
const sample = (name: string) => [...AI_CRAWLER_SAMPLES, ...HUMAN_SAMPLES, ...LINK_PREVIEW_SAMPLES].find((s) => s.name === name)!.ua!;
const GPTBOT = sample('GPTBot 1.1');
const GPTBOT_12 = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT = sample('ClaudeBot');
const CHROME = sample('desktop Chrome');
const SLACK = sample('Slackbot-LinkExpanding');
const BOT_IP = '203.0.113.50';
const EDGE_IP = '130.176.9.9';

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'warn' });
  const res = await stack.call('POST', '/api/business', { token: await stack.token(ORG), body: { name: 'Conv Shop', url: 'https://conv-shop.example' } });
  expect(res.status).toBe(201);
  container = getContainer();
  cdnDomain = (await createCdnDistribution(container, ORG)).domainName;
  const route = (await container.distributions.findOrg(cdnDomain))!;
  await container.distributions.indexAlias(route, CUSTOM);
}, 60_000);
afterAll(() => stack.close());

let minute = 0;
/** A fresh request time per test (well apart, mid-bucket), so tests never meet each other's visits. */
const freshTime = () => new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + Date.now() % 1_000 + (minute += 60) * 60_000 + 60_000);
const visitsAt = async (at: Date): Promise<VisitRecord[]> => {
  const day = at.toISOString().slice(0, 10);
  return (await visitRepositoryOf(container).list(ORG, { from: day, to: day }, { limit: 500 })).visits
    .filter((v) => Math.abs(Date.parse(v.created_at) - at.getTime()) < 30 * 60_000);
};
const sight = (s: Partial<Sighting> & Pick<Sighting, 'source' | 'at' | 'pageUrl'>) =>
  recordSighting(container, { userAgent: GPTBOT, peer: BOT_IP, ...s }).then((r) => r.response);

describe('one visit, several paths', () => {
  test('server (AI-site host) then beacon: one visit, both sources, the server\'s record kept', async () => {
    const at = freshTime();
    expect((await sight({ source: 'server', at, pageUrl: `http://${AI_HOST}:8081/ai/` })).message).toBe('visit recorded');
    expect((await sight({ source: 'beacon', at: new Date(at.getTime() + 1500), pageUrl: `http://${AI_HOST}:8081/ai/?utm=x`, userAgent: GPTBOT_12 })).message)
      .toBe('visit already recorded (first seen by server)');
    const visits = await visitsAt(at);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ source: 'server', sources: ['beacon', 'server'], platform_id: 'platform_1', path: '/ai/', via: 'ai_site_host' });
  });

  test('through the proxy on the custom domain: the proxy, the AI-site hop and the beacon are one visit, shown on the custom domain', async () => {
    const at = freshTime();
    // The hop to the AI-site host often finishes (and is recorded) first.
    await sight({ source: 'server', at, pageUrl: `https://${AI_HOST}/ai/products/decaf/`, peer: EDGE_IP, forwardedFor: `10.1.1.1, ${BOT_IP}` });
    await sight({ source: 'server', at, pageUrl: `https://${CUSTOM}/ai/products/decaf/` });
    await sight({ source: 'beacon', at: new Date(at.getTime() + 900), pageUrl: `https://${CUSTOM}/ai/products/decaf/` });
    const visits = await visitsAt(at);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ page_url: `https://${CUSTOM}/ai/products/decaf/`, host: CUSTOM, via: 'proxy', sources: ['beacon', 'server'], page_type: 'ai_site' });
    const counts = await visitRepositoryOf(container).counts(ORG, { from: at.toISOString().slice(0, 10), to: at.toISOString().slice(0, 10) });
    expect(counts.byPlatform.platform_1).toBeGreaterThanOrEqual(1);
  });

  test('the distribution domain serves the business too; a store page through the proxy is a boosted page', async () => {
    const at = freshTime();
    expect((await sight({ source: 'server', at, pageUrl: `https://${cdnDomain}/products/mug`, userAgent: CLAUDEBOT })).status).toBe('success');
    expect((await visitsAt(at))[0]).toMatchObject({ page_type: 'boosted_page', via: 'proxy', platform_id: 'platform_2' });
  });

  test('across a bucket boundary (10:04:59 and 10:05:01) it is still one visit, in either order', async () => {
    for (const [first, second] of [[-1000, 1000], [1000, -1000]]) {
      const base = freshTime();
      const boundary = new Date(Math.ceil(base.getTime() / 300_000) * 300_000);
      await sight({ source: 'server', at: new Date(boundary.getTime() + first), pageUrl: `http://${AI_HOST}/ai/edge/` });
      const outcome = await sight({ source: 'beacon', at: new Date(boundary.getTime() + second), pageUrl: `http://${AI_HOST}/ai/edge/` });
      expect(outcome.message).toMatch(/already recorded/);
      expect(await visitsAt(boundary)).toHaveLength(1);
    }
  });

  test('two sightings recorded at the same moment across a bucket boundary: one visit, counted once, in any interleaving', async () => {
    // Twenty races, each on its own path, so the writes interleave differently from one to the next.
    for (let round = 0; round < 20; round += 1) {
      const base = freshTime();
      const boundary = new Date(Math.ceil(base.getTime() / 300_000) * 300_000);
      const day = boundary.toISOString().slice(0, 10);
      const pageUrl = `http://${AI_HOST}/ai/race-${round}/`;
      const before = (await visitRepositoryOf(container).counts(ORG, { from: day, to: day })).total;
      const outcomes = await Promise.all([
        sight({ source: 'server', at: new Date(boundary.getTime() - 1000), pageUrl }),
        sight({ source: 'beacon', at: new Date(boundary.getTime() + 1000), pageUrl }),
      ]);
      expect(outcomes.map((o) => o.message).filter((m) => m === 'visit recorded')).toHaveLength(1);
      const visits = (await visitsAt(boundary)).filter((v) => v.page_url === pageUrl);
      expect(visits).toHaveLength(1);
      expect(visits[0].sources).toEqual(['beacon', 'server']);
      expect((await visitRepositoryOf(container).counts(ORG, { from: day, to: day })).total).toBe(before + 1);
    }
  });

  test('issue 46: KimiBot (a maintained list names it) is an AI visit; an unidentified crawler is stored as unknown, apart, never counted', async () => {
    const at = freshTime();
    const day = at.toISOString().slice(0, 10);
    const before = await visitRepositoryOf(container).counts(ORG, { from: day, to: day });
    const kimi = await sight({ source: 'server', at, pageUrl: `http://${AI_HOST}/ai/kimi/`, userAgent: 'Mozilla/5.0 (compatible; KimiBot/1.0; +https://www.moonshot.cn/)' });
    expect(kimi).toMatchObject({ status: 'success', platform_id: 'unknown', message: 'visit recorded' });
    const acme = await sight({ source: 'beacon', at, pageUrl: `http://${AI_HOST}/ai/acme/`, userAgent: 'AcmeResearchCrawler/0.3 (+https://acme.example/bot)' });
    expect(acme).toMatchObject({ status: 'success', platform_id: 'unknown', platform_name: 'Unknown' });
    expect(acme.message).toMatch(/unidentified bot \(AcmeResearchCrawler\).*not counted.*visit recorded/);
    const after = await visitRepositoryOf(container).counts(ORG, { from: day, to: day });
    expect(after.total).toBe(before.total + 1);
    expect(after.byPlatform.unknown).toBe(before.byPlatform.unknown + 1);
    expect(after.unidentified).toBe(before.unidentified + 1);
    // Listed with the filter only.
    const listed = (await visitRepositoryOf(container).list(ORG, { from: day, to: day }, { limit: 500 })).visits;
    expect(listed.some((v) => v.path === '/ai/acme/')).toBe(false);
    expect(listed.some((v) => v.path === '/ai/kimi/')).toBe(true);
    const apart = (await visitRepositoryOf(container).list(ORG, { from: day, to: day }, { limit: 500, unidentified: true })).visits;
    expect(apart.filter((v) => v.path === '/ai/acme/')).toEqual([expect.objectContaining({ platform_id: 'unknown', platform_name: 'Unknown', visit_class: 'unidentified', bot: 'AcmeResearchCrawler' })]);
    // A monitor, a link previewer and a generic client stay unrecorded.
    for (const userAgent of ['Mozilla/5.0 (compatible; Uptimebot/1.0; +http://www.uptime.com/uptimebot)', 'Mattermost-Bot/1.1', 'python-requests/2.31.0']) {
      expect((await sight({ source: 'server', at, pageUrl: `http://${AI_HOST}/ai/quiet/`, userAgent })).status).toBe('ignored');
    }
  });

  test('another address, another bot or a refetch ten minutes later are other visits', async () => {
    const at = freshTime();
    const url = `http://${AI_HOST}/ai/again/`;
    await sight({ source: 'server', at, pageUrl: url });
    await sight({ source: 'server', at, pageUrl: url, peer: '203.0.113.51' });
    await sight({ source: 'server', at, pageUrl: url, userAgent: CLAUDEBOT });
    await sight({ source: 'server', at: new Date(at.getTime() + 10 * 60_000), pageUrl: url });
    expect(await visitsAt(new Date(at.getTime() + 5 * 60_000))).toHaveLength(4);
  });

  test('server-side recording drops humans, previewers, assets and failures without a write', async () => {
    const at = freshTime();
    const seen = { host: `${AI_HOST}:8081`, method: 'GET', status: 200, contentType: 'text/html', peer: BOT_IP, at, scheme: 'http' as const };
    recordServedRequest(container, { ...seen, path: '/ai/h/', userAgent: CHROME });
    recordServedRequest(container, { ...seen, path: '/ai/p/', userAgent: SLACK });
    recordServedRequest(container, { ...seen, path: '/tracking.js', userAgent: GPTBOT, contentType: 'text/javascript' });
    recordServedRequest(container, { ...seen, path: '/ai/missing/', userAgent: GPTBOT, status: 404 });
    recordServedRequest(container, { ...seen, path: '/ai/counted/?q=1', userAgent: GPTBOT });
    recordServedRequest(() => { throw new Error('no container'); }, { ...seen, path: '/ai/x/', userAgent: GPTBOT });
    await visitWritesSettled();
    expect((await visitsAt(at)).map((v) => [v.path, v.page_url, v.source])).toEqual([['/ai/counted/', `http://${AI_HOST}:8081/ai/counted/`, 'server']]);
  });
});

describe('access-log ingest', () => {
  const lines = (at: Date) => {
    const time = new Date(at.getTime() - 2000).toISOString();
    return [
      // The customer distribution's line and the AI-site distribution's line of the same request.
      cloudFrontLogLine({ time, clientIp: BOT_IP, host: CUSTOM, path: '/ai/collections/all/', userAgent: GPTBOT }),
      cloudFrontLogLine({ time, clientIp: EDGE_IP, host: AI_HOST, path: '/ai/collections/all/', userAgent: GPTBOT, forwardedFor: BOT_IP }),
      // Not counted: a human, a previewer, the tracking script, robots.txt, a 404.
      cloudFrontLogLine({ time, clientIp: '198.51.100.9', host: CUSTOM, path: '/ai/', userAgent: CHROME }),
      cloudFrontLogLine({ time, clientIp: '198.51.100.9', host: CUSTOM, path: '/ai/', userAgent: SLACK }),
      cloudFrontLogLine({ time, clientIp: BOT_IP, host: CUSTOM, path: '/ai/tracking.js', userAgent: GPTBOT, contentType: 'text/javascript' }),
      cloudFrontLogLine({ time, clientIp: BOT_IP, host: CUSTOM, path: '/robots.txt', userAgent: GPTBOT, contentType: 'text/plain' }),
      cloudFrontLogLine({ time, clientIp: BOT_IP, host: CUSTOM, path: '/ai/gone/', userAgent: GPTBOT, status: 404 }),
      // A crawler on a host no business serves.
      cloudFrontLogLine({ time, clientIp: BOT_IP, host: 'd999.cloudfront.net', path: '/', userAgent: CLAUDEBOT }),
      'garbage line',
    ];
  };

  test('a file delivered hours late converges with the beacon that came at request time', async () => {
    const at = freshTime();
    await sight({ source: 'beacon', at, pageUrl: `https://${CUSTOM}/ai/collections/all/` });
    const summary = await ingestAccessLogLines(container, cloudFrontLogFile(lines(at)).split('\n'));
    expect(summary).toEqual({ requests: 8, unreadable: 1, crawlerRequests: 3, recorded: 0, duplicates: 2, ignored: 1, failed: 0 });
    const visits = await visitsAt(at);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ source: 'beacon', sources: ['beacon', 'server'], via: 'proxy' });
  });

  test('classic search crawling in the logs is stored in its own class, counted apart from AI visits (D160)', async () => {
    const at = freshTime();
    const day = at.toISOString().slice(0, 10);
    const googlebot = SEARCH_CRAWLER_SAMPLES.find((s) => s.name === 'Googlebot smartphone')!.ua!;
    const before = await visitRepositoryOf(container).counts(ORG, { from: day, to: day });
    const time = new Date(at.getTime() - 2000).toISOString();
    const summary = await ingestAccessLogLines(container, cloudFrontLogFile([
      cloudFrontLogLine({ time, clientIp: '66.249.66.1', host: CUSTOM, path: '/ai/se/', userAgent: googlebot }),
      cloudFrontLogLine({ time, clientIp: BOT_IP, host: CUSTOM, path: '/ai/se/', userAgent: GPTBOT }),
    ]).split('\n'));
    expect(summary).toMatchObject({ crawlerRequests: 2, recorded: 2 });
    const after = await visitRepositoryOf(container).counts(ORG, { from: day, to: day });
    expect(after.total).toBe(before.total + 1);
    expect(after.byPlatform.platform_1).toBe(before.byPlatform.platform_1 + 1);
    expect(after.byPlatform.unknown).toBe(before.byPlatform.unknown);
    expect(after.searchEngines).toBe(before.searchEngines + 1);
    expect((await visitsAt(at)).map((v) => [v.bot, v.visit_class])).toEqual([['GPTBot', 'ai']]);
  });

  test('the Lambda handler streams a gzip log object from S3 (ObjectCreated event)', async () => {
    const at = freshTime();
    const s3 = mockClient(S3Client);
    try {
      s3.on(GetObjectCommand, { Bucket: 'logs-bucket', Key: 'cloudfront/proxy/E1/E1.2026-01-01-10.abc 1.gz' })
        .resolves({ Body: Readable.from([gzipLogFile(lines(at))]) as never });
      const event = { Records: [{ s3: { bucket: { name: 'logs-bucket' }, object: { key: 'cloudfront/proxy/E1/E1.2026-01-01-10.abc+1.gz' } } }] } as unknown as S3Event;
      const [summary] = await ingestHandler(event);
      expect(summary).toMatchObject({ requests: 8, crawlerRequests: 3, recorded: 1, duplicates: 1, ignored: 1, failed: 0 });
    } finally {
      s3.restore();
    }
    expect(await visitsAt(at)).toEqual([expect.objectContaining({ source: 'server', sources: ['server'], page_url: `https://${CUSTOM}/ai/collections/all/` })]);
  });

  test('plain (not gzip) objects are read too, and a retried event counts nothing twice', async () => {
    const at = freshTime();
    const text = cloudFrontLogFile(lines(at));
    const handler = createIngestHandler(async () => Readable.from([Buffer.from(text)]));
    const event = { Records: [{ s3: { bucket: { name: 'b' }, object: { key: 'cloudfront/site/x' } } }] } as unknown as S3Event;
    expect((await handler(event))[0]).toMatchObject({ recorded: 1, duplicates: 1 });
    expect((await handler(event))[0]).toMatchObject({ recorded: 0, duplicates: 2 });
    const day = at.toISOString().slice(0, 10);
    const before = (await visitsAt(at)).length;
    expect(before).toBe(1);
    expect((await visitRepositoryOf(container).counts(ORG, { from: day, to: day })).total).toBeGreaterThanOrEqual(1);
  });
});
