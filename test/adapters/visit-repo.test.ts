/**
 * The visit repository's boundary race, with the interleaving forced: two sightings of one
 * visit either side of a 5-minute boundary both find nothing in the neighbouring bucket, and
 * one writes its whole visit before the other's put even lands. Exactly one is recorded and
 * counted, whichever side is slow (a check after one's own put cannot decide this alone).
 */
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createVisitRepository } from '../../functions/adapters/dynamodb/visit-repo';
import { visitBuckets, visitDedupeKey } from '../../functions/core/visits/dedupe';
import type { VisitRecord } from '../../functions/core/visits/visit';
import { useEmbeddedTable } from '../support/embedded-table';

const TABLE = 'visit-repo-test';
const ORG = 'race-shop';
const table = useEmbeddedTable(TABLE);

const clock = { now: () => new Date('2026-03-01T12:00:00Z') };

/** A client whose put of the slow sighting's visit waits until `release` resolves. */
function holdingVisitPut(slowSource: string, release: Promise<unknown>): DynamoDBDocumentClient {
  return new Proxy(table.db, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver);
      return async (command: any) => {
        if (command instanceof PutCommand && command.input.Item?.type === 'visit' && command.input.Item?.source === slowSource) await release;
        return target.send(command);
      };
    },
  });
}

function visitAt(at: Date, source: 'server' | 'beacon', path: string): { visit: VisitRecord; dedupe: { key: string; bucket: string; neighbour: string } } {
  const key = visitDedupeKey({ orgSlug: ORG, path, family: 'gptbot', address: '203.0.113.50' });
  const { bucket, neighbour } = visitBuckets(at);
  const visit = {
    id: `${source}-${path}`, created_at: at.toISOString(), entity_id: 'b1', ai_site_id: ORG, platform_id: 'platform_1', platform_name: 'ChatGPT',
    page_url: `https://x.example${path}`, page_type: 'ai_site', page_title: null, user_agent: 'GPTBot/1.1', ip_address: '203.0.113.50',
    referrer: null, screen_width: null, screen_height: null, language: null, timezone: null, source, sources: [source],
    bot: 'GPTBot', purpose: 'training', vendor: 'OpenAI', alt_platform_id: null, host: 'x.example', path, via: 'ai_site_host', visit_class: 'ai', verified: true,
  } as unknown as VisitRecord;
  return { visit, dedupe: { key, bucket, neighbour } };
}

describe.each([
  ['the earlier bucket', 'server'],
  ['the later bucket', 'beacon'],
])('one visit across a boundary, %s writing last', (_, slowSource) => {
  test('exactly one is recorded and counted; the other joins it', async () => {
    const boundary = Date.parse(slowSource === 'server' ? '2026-03-01T10:05:00Z' : '2026-03-01T11:05:00Z');
    const path = `/ai/race-${slowSource}/`;
    const earlier = visitAt(new Date(boundary - 1000), 'server', path);
    const later = visitAt(new Date(boundary + 1000), 'beacon', path);
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    const slowRepo = createVisitRepository(holdingVisitPut(slowSource, released), TABLE, clock);
    const fastRepo = createVisitRepository(table.db, TABLE, clock);
    const [slow, fast] = slowSource === 'server' ? [earlier, later] : [later, earlier];

    const slowOutcome = slowRepo.record(ORG, slow.visit, slow.dedupe);
    // The fast sighting's whole record runs while the slow one's put waits (its neighbour check already found nothing).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const fastOutcome = await fastRepo.record(ORG, fast.visit, fast.dedupe);
    release();
    const outcomes = [fastOutcome.outcome, (await slowOutcome).outcome];

    expect(outcomes.filter((o) => o === 'recorded')).toHaveLength(1);
    const day = new Date(boundary).toISOString().slice(0, 10);
    const listed = (await fastRepo.list(ORG, { from: day, to: day }, { limit: 100 })).visits.filter((v) => v.path === path);
    expect(listed).toHaveLength(1);
    expect(listed[0].sources).toEqual(['beacon', 'server']);
  });
});

test('the day counter counts each raced visit once', async () => {
  const counts = await createVisitRepository(table.db, TABLE, clock).counts(ORG, { from: '2026-03-01', to: '2026-03-01' });
  expect(counts.total).toBe(2);
});
