/**
 * The live DNS lookups of the domain connection against real DNS servers on loopback
 * (functions/local/fakes/dns-server.ts): one stands in for the recursive resolvers
 * (`DNS_RESOLVERS`), two more are the zone's authoritative nameservers (127.0.0.1 and
 * 127.0.0.2, same port), whose answers may differ from the resolvers' (propagation).
 */
import { createSocket } from 'node:dgram';
import { createDnsChecker, DEFAULT_DNS_RESOLVERS, resolverServers } from '../../functions/adapters/external/dns';
import { analyzeDomain, part2Records, restoreRecords, type DomainAnalysis } from '../../functions/core/domain/analysis';
import { AMAZON, LETS_ENCRYPT } from '../../functions/core/domain/caa';
import { absoluteName, type CapturedByName, type DnsChecker, type DnsRecord } from '../../functions/core/domain/records';
import { UpstreamError } from '../../functions/core/errors';
import { startDnsTestServer, type DnsTestServer, type TestNameRecords } from '../../functions/local/fakes/dns-server';

const LE = { flags: 0, tag: 'issue', value: 'letsencrypt.org' };
const ZONES = ['shop.test', 'locked.test', 'amazon-only.test', 'nocaa.test', 'acme-dns.test', 'nons.test'];

/** What the resolvers see. */
function resolverView(): Record<string, TestNameRecords> {
  return {
    'shop.test': {
      A: ['192.0.2.10', '192.0.2.11'],
      AAAA: ['2001:db8::10'],
      CAA: [LE, { flags: 0, tag: 'iodef', value: 'mailto:security@shop.test' }],
      NS: ['ns1.shop.test', 'ns2.shop.test'],
      TXT: ['v=spf1 -all'],
    },
    'www.shop.test': { CNAME: 'stores.platform.example' },
    'ns1.shop.test': { A: ['127.0.0.1'] },
    'ns2.shop.test': { A: ['127.0.0.2'] },
    'deep.sub.shop.test': { A: ['192.0.2.20'] },
    '_acme-challenge.deleg.shop.test': { CNAME: 'token1.acme-dns.test' },
    'locked.test': { CAA: [{ flags: 0, tag: 'issue', value: 'digicert.com' }] },
    'a.b.locked.test': { A: ['192.0.2.30'] },
    'amazon-only.test': { CAA: [{ flags: 0, tag: 'issue', value: 'amazon.com' }] },
    'nocaa.test': { A: ['192.0.2.40'] },
    'acme-dns.test': { NS: ['ns.acme-dns.test'] },
    'ns.acme-dns.test': { A: ['127.0.0.1'] },
    'www.nons.test': { TXT: ['resolver-only'] },
    '_acme-challenge.nons.test': { CNAME: 'token3.acme-dns.test' },
  };
}

/** What the authoritative servers hold: the challenge TXT records already (the resolvers lag). */
function authoritativeView(second: boolean): Record<string, TestNameRecords> {
  return {
    ...resolverView(),
    '_acme-challenge.www.shop.test': { TXT: ['key-auth-www', 'other-value'] },
    // only the first nameserver has this one yet
    ...(second ? {} : { '_acme-challenge.shop.test': { TXT: ['key-auth-apex'] }, '_acme-challenge.new.shop.test': { CNAME: 'token2.acme-dns.test' } }),
    'token1.acme-dns.test': { TXT: ['delegated-key-auth'] },
  };
}

let resolver: DnsTestServer;
let ns1: DnsTestServer;
let ns2: DnsTestServer;
let dns: DnsChecker;

beforeAll(async () => {
  resolver = await startDnsTestServer({ zones: [...ZONES, 'test'], records: resolverView() }); // the TLD too: no CAA there
  ns1 = await startDnsTestServer({ zones: ZONES, records: authoritativeView(false), address: '127.0.0.1' });
  ns2 = await startDnsTestServer({ zones: ZONES, records: authoritativeView(true), address: '127.0.0.2', port: ns1.port });
  dns = createDnsChecker({ resolvers: [resolver.endpoint], nameserverPort: ns1.port, timeoutMs: 500, tries: 1 });
});

afterAll(async () => {
  await Promise.all([resolver?.close(), ns1?.close(), ns2?.close()]);
});

beforeEach(() => {
  resolver.queries.length = 0;
  ns1.queries.length = 0;
  ns2.queries.length = 0;
});

describe('DNS_RESOLVERS', () => {
  test('host:port entries, IPv6 in brackets; the public resolvers by default', () => {
    expect(resolverServers(['127.0.0.1:5353', ' 1.1.1.1 ', '[::1]:53', '2001:db8::53'])).toEqual(['127.0.0.1:5353', '1.1.1.1', '[::1]:53', '2001:db8::53']);
    expect(resolverServers([])).toEqual(DEFAULT_DNS_RESOLVERS);
    expect(resolverServers(undefined)).toEqual(['8.8.8.8', '8.8.4.4', '1.1.1.1', '1.0.0.1']);
  });

  test('an entry that is not an address (or a bad port) is refused by name', () => {
    expect(() => resolverServers(['dns.google'])).toThrow(/"dns.google" is not an IP address/);
    expect(() => resolverServers(['127.0.0.1:99999'])).toThrow(/invalid port/);
    expect(() => createDnsChecker({ resolvers: ['resolver.local:53'] })).toThrow(/DNS_RESOLVERS/);
  });
});

describe('captureRecords', () => {
  test('A, AAAA and CAA of a name', async () => {
    expect(await dns.captureRecords('shop.test')).toEqual({
      A: ['192.0.2.10', '192.0.2.11'],
      AAAA: ['2001:db8::10'],
      CNAME: null,
      CAA: [LE, { flags: 0, tag: 'iodef', value: 'mailto:security@shop.test' }],
    });
    expect(resolver.queries.map((q) => q.type).sort()).toEqual(['A', 'AAAA', 'CAA', 'CNAME']);
  });

  test('a CNAME alone (what else the resolvers return belongs to the target)', async () => {
    expect(await dns.captureRecords('WWW.shop.test.')).toEqual({ A: [], AAAA: [], CNAME: 'stores.platform.example', CAA: [] });
  });

  test('a name with nothing: empty lists', async () => {
    expect(await dns.captureRecords('missing.shop.test')).toEqual({ A: [], AAAA: [], CNAME: null, CAA: [] });
  });

  test('a failed lookup throws instead of capturing a partial set', async () => {
    await expect(dns.captureRecords('www.elsewhere.example')).rejects.toThrow(UpstreamError);
    await expect(dns.captureRecords('www.elsewhere.example')).rejects.toThrow(/CNAME lookup of www.elsewhere.example failed \(EREFUSED\)/);
  });

  test('an unreachable or silent resolver is an UpstreamError (refused, timed out)', async () => {
    const dead = createDnsChecker({ resolvers: ['127.0.0.1:9'], timeoutMs: 200, tries: 1 });
    await expect(dead.captureRecords('shop.test')).rejects.toThrow(UpstreamError);
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const mute = createDnsChecker({ resolvers: [`127.0.0.1:${silent.address().port}`], timeoutMs: 200, tries: 1 });
      await expect(mute.captureRecords('shop.test')).rejects.toThrow(/failed \(ETIMEOUT\)/);
      expect((await mute.verifyRecords([{ type: 'TXT', host: 'shop.test', value: 'x' }]))[0]).toMatchObject({ found: false, error: 'ETIMEOUT' });
    } finally {
      silent.close();
    }
  });
});

describe('lookupTxt and verifyRecords (D21: found, expected, actual)', () => {
  test('TXT through the resolvers', async () => {
    expect(await dns.lookupTxt('shop.test')).toEqual(['v=spf1 -all']);
    expect(await dns.lookupTxt('_acme-challenge.www.shop.test')).toEqual([]); // not propagated to the resolvers yet
  });

  test('each record with found/expected/actual; values compared in canonical form', async () => {
    const checks = await dns.verifyRecords([
      { type: 'A', host: '@', value: '192.0.2.10' },
      { type: 'A', host: '@', value: '203.0.113.99' },
      { type: 'AAAA', host: '@', value: '2001:DB8:0:0::10' },
      { type: 'CNAME', host: 'www', value: 'Stores.Platform.Example.' },
      { type: 'CNAME', host: 'shop2', value: 'd111.cloudfront.net' },
      { type: 'TXT', host: '@', value: 'v=spf1 -all' },
      { type: 'TXT', host: '_acme-challenge.www', value: 'key-auth-www' },
      { type: 'CAA', host: '@', value: '0 issue "letsencrypt.org"' },
    ], { zone: 'shop.test' });
    expect(checks).toEqual([
      { type: 'A', host: '@', name: 'shop.test', expected: '192.0.2.10', actual: ['192.0.2.10', '192.0.2.11'], found: true },
      { type: 'A', host: '@', name: 'shop.test', expected: '203.0.113.99', actual: ['192.0.2.10', '192.0.2.11'], found: false },
      { type: 'AAAA', host: '@', name: 'shop.test', expected: '2001:DB8:0:0::10', actual: ['2001:db8::10'], found: true },
      { type: 'CNAME', host: 'www', name: 'www.shop.test', expected: 'Stores.Platform.Example.', actual: ['stores.platform.example'], found: true },
      { type: 'CNAME', host: 'shop2', name: 'shop2.shop.test', expected: 'd111.cloudfront.net', actual: [], found: false },
      { type: 'TXT', host: '@', name: 'shop.test', expected: 'v=spf1 -all', actual: ['v=spf1 -all'], found: true },
      { type: 'TXT', host: '_acme-challenge.www', name: '_acme-challenge.www.shop.test', expected: 'key-auth-www', actual: [], found: false },
      { type: 'CAA', host: '@', name: 'shop.test', expected: '0 issue "letsencrypt.org"', actual: ['0 issue "letsencrypt.org"', '0 iodef "mailto:security@shop.test"'], found: true },
    ]);
    // the same name and type is asked once
    expect(resolver.queries.filter((q) => q.name === 'shop.test' && q.type === 'A')).toHaveLength(1);
  });

  test('fully-qualified hosts without a zone; a failing lookup is reported, not thrown', async () => {
    const checks = await dns.verifyRecords([
      { type: 'A', host: 'deep.sub.shop.test', value: '192.0.2.20' },
      { type: 'A', host: 'x.elsewhere.example', value: '192.0.2.1' },
    ]);
    expect(checks[0]).toMatchObject({ name: 'deep.sub.shop.test', found: true });
    expect(checks[1]).toEqual({ type: 'A', host: 'x.elsewhere.example', name: 'x.elsewhere.example', expected: '192.0.2.1', actual: [], found: false, error: 'EREFUSED' });
  });
});

describe('caaAllows: the closest CAA set applies (RFC 8659)', () => {
  test('a set that allows Let\'s Encrypt but not Amazon', async () => {
    const check = await dns.caaAllows('shop.test', [LETS_ENCRYPT, AMAZON]);
    expect(check).toMatchObject({ name: 'shop.test', relevantName: 'shop.test', allowed: false });
    expect(check.issuers.map((i) => [i.label, i.allowed])).toEqual([["Let's Encrypt", true], ['Amazon certificate manager', false]]);
    expect((await dns.caaAllows('shop.test', [LETS_ENCRYPT])).allowed).toBe(true);
  });

  test('inherited from the parent: a name without CAA uses the closest ancestor\'s set', async () => {
    const check = await dns.caaAllows('deep.sub.shop.test', [LETS_ENCRYPT]);
    expect(check).toMatchObject({ relevantName: 'shop.test', allowed: true, records: [LE, expect.objectContaining({ tag: 'iodef' })] });
    expect(resolver.queries.filter((q) => q.type === 'CAA').map((q) => q.name)).toEqual(['deep.sub.shop.test', 'sub.shop.test', 'shop.test']);
  });

  test('another CA only: both Let\'s Encrypt and Amazon are forbidden, inherited two levels down', async () => {
    const check = await dns.caaAllows('a.b.locked.test', [LETS_ENCRYPT, AMAZON]);
    expect(check).toMatchObject({ relevantName: 'locked.test', allowed: false });
    expect(check.issuers.every((i) => !i.allowed && /allows only digicert\.com/.test(i.reason))).toBe(true);
  });

  test('Amazon only: Let\'s Encrypt is forbidden with the record to add', async () => {
    const check = await dns.caaAllows('www.amazon-only.test', [LETS_ENCRYPT, AMAZON]);
    expect(check.issuers).toEqual([
      { label: "Let's Encrypt", allowed: false, reason: 'CAA "issue" allows only amazon.com; add issue "letsencrypt.org" for Let\'s Encrypt' },
      { label: 'Amazon certificate manager', allowed: true, reason: expect.any(String) },
    ]);
  });

  test('no CAA anywhere up the tree: allowed, no relevant name', async () => {
    expect(await dns.caaAllows('www.nocaa.test', [LETS_ENCRYPT, AMAZON])).toMatchObject({ relevantName: null, records: [], allowed: true });
  });

  test('a failing CAA lookup is not "allowed" (CAs refuse to issue then)', async () => {
    const check = await dns.caaAllows('www.elsewhere.example', [LETS_ENCRYPT]);
    expect(check).toMatchObject({ allowed: false, error: 'EREFUSED', relevantName: 'www.elsewhere.example' });
    expect(check.issuers[0].reason).toMatch(/failed \(EREFUSED\)/);
  });
});

describe('authoritative first: TXT read from the zone\'s own nameservers', () => {
  test('the record is on every authoritative server although the resolvers do not have it yet', async () => {
    const detail = await dns.lookupTxtAuthoritative('_acme-challenge.www.shop.test');
    expect(detail).toEqual({
      name: '_acme-challenge.www.shop.test',
      queriedName: '_acme-challenge.www.shop.test',
      zone: 'shop.test',
      servers: [
        { nameserver: 'ns1.shop.test', address: '127.0.0.1', values: ['key-auth-www', 'other-value'] },
        { nameserver: 'ns2.shop.test', address: '127.0.0.2', values: ['key-auth-www', 'other-value'] },
      ],
    });
    // the zone was found by walking up (NS of the name, then of its parents), the TXT asked of each nameserver
    expect(resolver.queries.filter((q) => q.type === 'NS').map((q) => q.name)).toEqual(['_acme-challenge.www.shop.test', 'www.shop.test', 'shop.test']);
    expect(resolver.queries.some((q) => q.type === 'TXT')).toBe(false);
    expect(ns1.queries).toEqual([{ name: '_acme-challenge.www.shop.test', type: 'TXT' }]);
    expect(ns2.queries).toEqual([{ name: '_acme-challenge.www.shop.test', type: 'TXT' }]);
    expect(await dns.txtOnAuthoritative('_acme-challenge.www.shop.test', 'key-auth-www')).toMatchObject({ found: true, source: 'authoritative' });
  });

  test('one nameserver still lacks the value: not found (completing now would break the order)', async () => {
    const check = await dns.txtOnAuthoritative('_acme-challenge.shop.test', 'key-auth-apex');
    expect(check.found).toBe(false);
    expect(check.detail.servers.map((s) => [s.nameserver, s.values])).toEqual([['ns1.shop.test', ['key-auth-apex']], ['ns2.shop.test', []]]);
    expect(await dns.txtOnAuthoritative('_acme-challenge.www.shop.test', 'wrong-value')).toMatchObject({ found: false });
  });

  test('a delegated challenge (CNAME to another zone) is followed to the target zone\'s servers', async () => {
    const check = await dns.txtOnAuthoritative('_acme-challenge.deleg.shop.test', 'delegated-key-auth');
    expect(check).toMatchObject({ found: true, source: 'authoritative' });
    expect(check.detail).toMatchObject({ queriedName: 'token1.acme-dns.test', zone: 'acme-dns.test', servers: [{ nameserver: 'ns.acme-dns.test', address: '127.0.0.1' }] });
  });

  test('an unreachable nameserver counts as not found, with the error', async () => {
    const other = createDnsChecker({ resolvers: [resolver.endpoint], nameserverPort: 9, timeoutMs: 200, tries: 1 });
    const check = await other.txtOnAuthoritative('_acme-challenge.www.shop.test', 'key-auth-www');
    expect(check.found).toBe(false);
    expect(check.detail.servers.every((s) => s.values === null && typeof s.error === 'string')).toBe(true);
  });

  test('no NS set up to the registrable domain: the resolvers decide', async () => {
    const check = await dns.txtOnAuthoritative('www.nons.test', 'resolver-only');
    expect(check).toEqual({
      found: true,
      source: 'resolver',
      resolverValues: ['resolver-only'],
      detail: { name: 'www.nons.test', queriedName: 'www.nons.test', zone: null, servers: [] },
    });
    expect(resolver.queries.filter((q) => q.type === 'NS').map((q) => q.name)).toEqual(['www.nons.test', 'nons.test']);
  });
});

describe('a delegated challenge\'s CNAME (D203), read from the zone\'s own nameservers', () => {
  test('on every authoritative server: found, and the CNAME is not followed', async () => {
    const check = await dns.cnameOnAuthoritative('_acme-challenge.deleg.shop.test', 'TOKEN1.acme-dns.test.');
    expect(check).toEqual({ found: true, source: 'authoritative', actual: ['token1.acme-dns.test'] });
    const asked = [...ns1.queries, ...ns2.queries];
    expect(asked.map((q) => `${q.type} ${q.name}`)).toEqual(['CNAME _acme-challenge.deleg.shop.test', 'CNAME _acme-challenge.deleg.shop.test']);
  });

  test('another target, or one nameserver without it yet: not found, with what they answer', async () => {
    expect(await dns.cnameOnAuthoritative('_acme-challenge.deleg.shop.test', 'other.acme-dns.test')).toEqual({ found: false, source: 'authoritative', actual: ['token1.acme-dns.test'] });
    expect(await dns.cnameOnAuthoritative('_acme-challenge.new.shop.test', 'token2.acme-dns.test')).toEqual({ found: false, source: 'authoritative', actual: ['token2.acme-dns.test'] });
    expect(await dns.cnameOnAuthoritative('_acme-challenge.none.shop.test', 'token2.acme-dns.test')).toEqual({ found: false, source: 'authoritative', actual: [] });
  });

  test('no NS set up to the registrable domain: the resolvers decide', async () => {
    expect(await dns.cnameOnAuthoritative('_acme-challenge.nons.test', 'token3.acme-dns.test')).toEqual({ found: true, source: 'resolver', actual: ['token3.acme-dns.test'] });
  });
});

describe('connect and disconnect against live DNS: the captured records come back exactly', () => {
  /** The one-click widget, played on the resolver's data: delete, then add. */
  function apply(server: DnsTestServer, zone: string, remove: readonly DnsRecord[], add: readonly DnsRecord[]) {
    const key = { A: 'A', AAAA: 'AAAA', CNAME: 'CNAME', TXT: 'TXT', CAA: 'CAA' } as const;
    for (const r of remove) {
      const name = absoluteName(r.host, zone);
      const entry = server.records.get(name) ?? {};
      if (r.type === 'CNAME') server.set(name, 'CNAME', undefined);
      else if (r.type === 'CAA') server.set(name, 'CAA', (entry.CAA ?? []).filter((c) => `${c.flags} ${c.tag} "${c.value}"` !== r.value));
      else server.set(name, key[r.type], ((entry[key[r.type]] as string[] | undefined) ?? []).filter((v) => v !== r.value));
    }
    for (const r of add) {
      const name = absoluteName(r.host, zone);
      const entry = server.records.get(name) ?? {};
      if (r.type === 'CNAME') server.set(name, 'CNAME', r.value);
      else if (r.type === 'CAA') {
        const m = /^(\d+) (\S+) "(.*)"$/.exec(r.value)!;
        server.set(name, 'CAA', [...(entry.CAA ?? []), { flags: Number(m[1]), tag: m[2], value: m[3] }]);
      } else server.set(name, key[r.type], [...((entry[key[r.type]] as string[] | undefined) ?? []), r.value]);
    }
  }

  test('www business URL: capture both names, switch, verify, restore, capture again', async () => {
    const result = analyzeDomain('https://www.shop.test/', { apexGatewayIps: ['198.51.100.1', '198.51.100.2'] });
    if (!result.ok) throw new Error(result.reason);
    const a: DomainAnalysis = result.analysis;
    const captured: CapturedByName = {};
    for (const name of a.certificateNames) captured[name] = await dns.captureRecords(name);
    expect(captured['www.shop.test'].CNAME).toBe('stores.platform.example');
    expect(captured['shop.test'].A).toEqual(['192.0.2.10', '192.0.2.11']);

    const part2 = part2Records(a, { cdnDomain: 'd123.cdn.test', apexGatewayIps: ['198.51.100.1', '198.51.100.2'], captured });
    if (!part2.ok) throw new Error(part2.reason);
    apply(resolver, a.nakedDomain, part2.remove, part2.records);
    const checks = await dns.verifyRecords(part2.records, { zone: a.nakedDomain });
    expect(checks.map((c) => [c.type, c.host, c.found])).toEqual([['CNAME', 'www', true], ['A', '@', true], ['A', '@', true]]);
    expect(await dns.captureRecords('shop.test')).toMatchObject({ A: ['198.51.100.1', '198.51.100.2'], AAAA: [] }); // no IPv6 bypass left

    const plan = restoreRecords(a, captured, part2.records);
    apply(resolver, a.nakedDomain, plan.remove, plan.restore.filter((r) => r.type !== 'CAA')); // CAA was never removed
    for (const name of a.certificateNames) expect(await dns.captureRecords(name)).toEqual(captured[name]);
    const back = await dns.verifyRecords(plan.restore, { zone: a.nakedDomain });
    expect(back.every((c) => c.found)).toBe(true);
  });
});
