/**
 * DNS-01 challenges in a Route 53 zone the service owns (issue 37): the adapter through the
 * official @aws-sdk/client-route-53 against the local Route 53 fake (functions/local/fakes/
 * route53.ts, written from the API reference), and a delegated issuance and renewal against
 * Pebble: the customer adds one CNAME, `_acme-challenge.<domain>` → a name in the service's
 * zone, and every later challenge TXT is written through Route 53 with no step of theirs.
 */
import * as https from 'node:https';
import { Route53Client } from '@aws-sdk/client-route-53';
import * as acme from 'acme-client';
import { createRoute53ChallengeDns } from '../../functions/adapters/aws/route53-challenge-dns';
import { startRoute53Fake, type Route53Fake } from '../../functions/local/fakes/route53';
import { pebbleAvailable, startPebble, type PebbleServer } from '../support/pebble';

const ZONE_ID = 'Z0ACMEZONE000001';
const ZONE = 'acme-zone.test';
const clientOf = (fake: Route53Fake) => new Route53Client({ region: 'us-east-1', endpoint: fake.url, credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' } });

describe('the Route 53 challenge writer against the local Route 53 API', () => {
  let fake: Route53Fake;
  beforeAll(async () => { fake = await startRoute53Fake({ zones: { [ZONE_ID]: ZONE } }); });
  afterAll(() => fake.close());
  const sleeps: number[] = [];
  const dns = () => createRoute53ChallengeDns({ client: clientOf(fake), hostedZoneId: ZONE_ID, pollMs: 5, sleep: async (ms) => { sleeps.push(ms); } });

  test('a TXT is upserted quoted, and the write waits for INSYNC', async () => {
    await dns().putTxt(`abc.${ZONE}`, ['token-1']);
    expect(fake.recordSets(ZONE_ID)).toEqual([{ name: `abc.${ZONE}.`, type: 'TXT', ttl: 60, values: ['"token-1"'] }]);
    // PENDING on the first read, INSYNC on the second: one wait between them.
    expect(fake.calls()).toMatchObject({ ChangeResourceRecordSets: 1, GetChange: 2 });
    expect(sleeps).toEqual([5]);
  });

  test('writing again replaces the value (a renewal, or a repeated task); deleting twice is fine', async () => {
    await dns().putTxt(`abc.${ZONE}`, ['token-2', 'token-3']);
    expect(fake.recordSets(ZONE_ID)).toEqual([{ name: `abc.${ZONE}.`, type: 'TXT', ttl: 60, values: ['"token-2"', '"token-3"'] }]);
    await dns().deleteTxt(`abc.${ZONE}`, ['token-2', 'token-3']);
    expect(fake.recordSets(ZONE_ID)).toEqual([]);
    await expect(dns().deleteTxt(`abc.${ZONE}`, ['token-2', 'token-3'])).resolves.toBeUndefined();
  });

  test('Route 53\'s refusals come back named: a name outside the zone, an unknown zone', async () => {
    await expect(dns().putTxt('_acme-challenge.shop.example.test', ['x'])).rejects.toMatchObject({ name: 'InvalidChangeBatch', message: expect.stringMatching(/not permitted in zone acme-zone\.test/) });
    const other = createRoute53ChallengeDns({ client: clientOf(fake), hostedZoneId: 'ZUNKNOWN', pollMs: 1 });
    await expect(other.putTxt(`abc.${ZONE}`, ['x'])).rejects.toMatchObject({ name: 'NoSuchHostedZone' });
    expect(fake.recordSets(ZONE_ID)).toEqual([]);
  });

  test('a change that never gets in sync fails with the name and the change after the wait', async () => {
    const stuck = new Route53Client({ region: 'us-east-1', endpoint: fake.url, credentials: { accessKeyId: 'A', secretAccessKey: 'B' } });
    // Every GetChange answered PENDING: the middleware rewrites the status the fake gives.
    stuck.middlewareStack.add((next) => async (args) => {
      const out = await next(args) as { output: { ChangeInfo?: { Status?: string } } };
      if (out.output.ChangeInfo) out.output.ChangeInfo.Status = 'PENDING';
      return out as never;
    }, { step: 'initialize', name: 'alwaysPending' });
    const writer = createRoute53ChallengeDns({ client: stuck, hostedZoneId: ZONE_ID, pollMs: 10, timeoutMs: 30, sleep: async () => undefined });
    await expect(writer.putTxt(`stuck.${ZONE}`, ['v'])).rejects.toThrow(/the TXT at stuck\.acme-zone\.test was not in sync .* \(change \/change\/C[0-9A-F]+\)/);
  });
});

const describeWithPebble = pebbleAvailable ? describe : describe.skip;

describeWithPebble('delegated DNS-01 against Pebble: one CNAME from the customer, then no DNS step of theirs', () => {
  let pebble: PebbleServer;
  let fake: Route53Fake;
  beforeAll(async () => {
    pebble = await startPebble();
    // The zone the service owns, as the CA's resolver (pebble-challtestsrv) answers it.
    fake = await startRoute53Fake({
      zones: { [ZONE_ID]: ZONE },
      onChange: async (_zone, set) => {
        await pebble.clearTxt(set.name);
        for (const value of set.values) await pebble.setTxt(set.name, value.slice(1, -1));
      },
    });
  }, 60_000);
  afterAll(async () => { await fake?.close(); await pebble?.stop(); });

  /** One issuance for `domain`, its challenge TXT written only through Route 53 at `delegatedTo`. */
  async function issue(domain: string, delegatedTo: string): Promise<string> {
    const dns = createRoute53ChallengeDns({ client: clientOf(fake), hostedZoneId: ZONE_ID, pollMs: 1 });
    const client = new acme.Client({ directoryUrl: pebble.directoryUrl, accountKey: await acme.crypto.createPrivateKey() });
    (acme as unknown as { axios: { defaults: { httpsAgent: https.Agent } } }).axios.defaults.httpsAgent = new https.Agent({ ca: pebble.caPem });
    const [, csr] = await acme.crypto.createCsr({ commonName: domain });
    return client.auto({
      csr, email: 'ops@example.test', termsOfServiceAgreed: true, challengePriority: ['dns-01'], skipChallengeVerification: true,
      challengeCreateFn: async (_authz, _challenge, keyAuthorization) => dns.putTxt(delegatedTo, [keyAuthorization]),
      challengeRemoveFn: async (_authz, _challenge, keyAuthorization) => dns.deleteTxt(delegatedTo, [keyAuthorization]),
    });
  }

  test('the first certificate and a renewal are issued with the TXT written through Route 53 only', async () => {
    const domain = 'shop.delegated.test';
    const delegatedTo = `k3f9.${ZONE}`;
    // The customer's one step.
    await pebble.setCname(`_acme-challenge.${domain}`, delegatedTo);

    const first = await issue(domain, delegatedTo);
    expect(first).toMatch(/-----BEGIN CERTIFICATE-----/);
    // Cleaned up after validation, as a renewal will write its own.
    expect(fake.recordSets(ZONE_ID)).toEqual([]);

    const renewal = await issue(domain, delegatedTo);
    expect(renewal).toMatch(/-----BEGIN CERTIFICATE-----/);
    expect(renewal).not.toBe(first);
    expect(fake.calls().ChangeResourceRecordSets).toBe(4); // two writes and two removals, nothing else
  }, 60_000);

  test('without the customer\'s CNAME the CA finds no TXT: the order fails, nothing is issued', async () => {
    await expect(issue('nocname.delegated.test', `n0c.${ZONE}`)).rejects.toThrow();
  }, 60_000);
});
