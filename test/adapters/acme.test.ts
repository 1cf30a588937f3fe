/**
 * The certificate engine against a real ACME server: Pebble and pebble-challtestsrv (Debian
 * `pebble`, installed by .ci/run), started by this file on free ports, with the real
 * acme-client. Pebble's HTTPS certificate comes from a throwaway CA that only
 * ACME_CA_BUNDLE makes trusted.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACMClient, ImportCertificateCommand } from '@aws-sdk/client-acm';
import * as acme from 'acme-client';
import { mockClient } from 'aws-sdk-client-mock';
import { createAcmeEngine, type AcmeEngine } from '../../functions/adapters/external/acme';
import { importCertificate } from '../../functions/adapters/aws/acm-import';
import { createFsAccountKeyStore } from '../../functions/adapters/local/fs-account-key-store';
import { CertificateOrderInvalidError, certTmpOf, type AccountKeyStore } from '../../functions/core/domain/certificate';
import type { Logger } from '../../functions/logger';
import { pebbleAvailable, startPebble, type PebbleServer } from '../support/pebble';

if (!pebbleAvailable) {
  // CI installs Debian's pebble (.ci/run); without it this suite cannot run at all.
  console.warn('acme.test.ts skipped: pebble / pebble-challtestsrv / openssl not on PATH (apt-get install -y pebble)');
}
const describeWithPebble = pebbleAvailable ? describe : describe.skip;

/** A logger that keeps every line, to prove no key is ever logged. */
function captureLogger(lines: string[] = []): Logger & { lines: string[] } {
  const make = (base: Record<string, unknown>): Logger => {
    const write = (level: string) => (msg: string, fields?: Record<string, unknown>) => lines.push(JSON.stringify({ level, msg, ...base, ...fields }));
    return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: (f) => make({ ...base, ...f }) };
  };
  return Object.assign(make({}), { lines });
}

/** Counts the store's writes. */
function counting(store: AccountKeyStore) {
  const counts = { get: 0, put: 0 };
  return { counts, store: { get: () => (counts.get++, store.get()), put: (pem: string) => (counts.put++, store.put(pem)) } satisfies AccountKeyStore };
}

describeWithPebble('ACME DNS-01 against Pebble', () => {
  let pebble: PebbleServer;
  let keyDir: string;
  let logs: ReturnType<typeof captureLogger>;
  /** acme-client's own axios settings (not in its types). */
  const acmeSettings = (acme.axios.defaults as unknown as { acmeSettings: Record<string, number> }).acmeSettings;
  const retries = { ...acmeSettings };

  const engine = (store: AccountKeyStore, caBundle: string = pebble.caFile): AcmeEngine =>
    createAcmeEngine({
      directoryUrl: pebble.directoryUrl,
      caBundle,
      accountEmail: 'certs@shop.example.test',
      accountKeyStore: store,
      log: logs,
      backoff: { attempts: 30, minMs: 100, maxMs: 500 },
    });

  beforeAll(async () => {
    pebble = await startPebble();
    keyDir = mkdtempSync(join(tmpdir(), 'acme-key-'));
    // acme-client retries network failures 5 times, 5 s apart: not what a test wants.
    Object.assign(acmeSettings, { retryMaxAttempts: 1, retryDefaultDelay: 1 });
  }, 60_000);

  beforeEach(() => {
    logs = captureLogger();
  });

  afterAll(async () => {
    Object.assign(acmeSettings, retries);
    await pebble?.stop();
    if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  });

  test('one order for www + naked domain: TXT records, validation, certificate with both names, imported into ACM', async () => {
    const { store, counts } = counting(createFsAccountKeyStore(keyDir));
    const certs = engine(store);

    const started = await certs.startOrder(['www.shop.example.test', 'Shop.Example.Test.']);
    expect(started.names).toEqual(['www.shop.example.test', 'shop.example.test']);
    expect(started.status).toBe('pending');
    expect(started.orderUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//);
    expect(started.directoryUrl).toBe(pebble.directoryUrl);
    expect(new Date(started.expires!).getTime()).toBeGreaterThan(Date.now());
    // One authorization, one challenge and one TXT record per name: www and the naked domain share nothing.
    expect(started.challenges.map((c) => c.name).sort()).toEqual(['shop.example.test', 'www.shop.example.test']);
    expect(new Set(started.challenges.map((c) => c.authzUrl)).size).toBe(2);
    expect(started.records).toHaveLength(2);
    for (const c of started.challenges) {
      expect(started.records).toContainEqual({ type: 'TXT', host: `_acme-challenge.${c.name}`, value: c.keyAuthorization, ttl: 60 });
      expect(c.keyAuthorization).toMatch(/^[A-Za-z0-9_-]{43}$/); // base64url SHA-256
    }
    expect(new Set(started.records.map((r) => r.value)).size).toBe(2);

    // The account key was generated once, stored (owner-only file), and kept out of cert_tmp_*.
    expect(counts.put).toBe(1);
    const keyFile = join(keyDir, 'acme-account-key.pem');
    expect(readFileSync(keyFile, 'utf8')).toContain('PRIVATE KEY-----');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const tmp = certTmpOf(started);
    expect(JSON.stringify(tmp)).not.toMatch(/PRIVATE KEY/);
    expect(tmp).not.toHaveProperty('records');

    // The user adds the records (here: the test DNS server), then complete-certificate runs.
    for (const r of started.records) await pebble.setTxt(r.host, r.value);
    try {
      // A fresh engine, as in another Lambda: everything it needs comes from cert_tmp_* and the key store.
      const issued = await engine(store).completeOrder(JSON.parse(JSON.stringify(tmp)));

      const leaf = new X509Certificate(issued.certificatePem);
      expect(leaf.subjectAltName?.split(', ').sort()).toEqual(['DNS:shop.example.test', 'DNS:www.shop.example.test']);
      expect(leaf.subject).toContain('CN=www.shop.example.test');
      expect(leaf.issuer).toMatch(/Pebble Intermediate CA/);
      expect(issued.certificatePem.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
      const chain = acme.crypto.splitPemChain(issued.chainPem).map((pem) => new X509Certificate(pem));
      expect(chain.length).toBeGreaterThanOrEqual(1);
      expect(leaf.checkIssued(chain[0])).toBe(true);
      expect(leaf.verify(chain[0].publicKey)).toBe(true);
      expect(leaf.checkPrivateKey(createPrivateKey(issued.privateKeyPem))).toBe(true);
      expect(createPrivateKey(issued.privateKeyPem).asymmetricKeyDetails?.modulusLength).toBe(2048);
      expect(issued.notAfter).toBe(new Date(leaf.validTo).toISOString());
      expect(new Date(issued.notAfter).getTime()).toBeGreaterThan(Date.now());
      expect(issued.names).toEqual(['www.shop.example.test', 'shop.example.test']);
      // The certificate key is fresh, not the account key.
      expect(issued.privateKeyPem).not.toBe(readFileSync(keyFile, 'utf8'));

      // What the engine returns is what the certificate manager import takes (mocked at the SDK level).
      const acm = mockClient(ACMClient);
      try {
        const arn = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-1111-2222-3333-444455556666';
        acm.on(ImportCertificateCommand).resolves({ CertificateArn: arn });
        expect(await importCertificate(issued, { client: new ACMClient({ region: 'us-east-1' }) })).toBe(arn);
        const sent = acm.commandCalls(ImportCertificateCommand)[0].args[0].input;
        expect(Buffer.from(sent.Certificate!).toString()).toBe(issued.certificatePem);
        expect(Buffer.from(sent.CertificateChain!).toString()).toBe(issued.chainPem);
        expect(Buffer.from(sent.PrivateKey!).toString()).toBe(issued.privateKeyPem);
      } finally {
        acm.restore();
      }

      // Still one stored key; no log line carries a key.
      expect(counts.put).toBe(1);
      expect(logs.lines.join('\n')).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
      expect(logs.lines.some((l) => l.includes('acme certificate issued'))).toBe(true);
    } finally {
      for (const r of started.records) await pebble.clearTxt(r.host);
    }
  });

  test('the stored account key is reused: a second engine finds the same account and creates no key', async () => {
    const { store, counts } = counting(createFsAccountKeyStore(keyDir));
    const first = await engine(store).startOrder(['reuse.example.test']);
    const second = await engine(store, pebble.caPem /* the bundle as PEM text works too */).startOrder(['www.reuse.example.test']);
    expect(counts.put).toBe(0); // the first test stored it already
    expect(second.accountUrl).toBe(first.accountUrl);
    expect(second.orderUrl).not.toBe(first.orderUrl);

    // With an empty store: one key generated for the engine's life, one account for both orders.
    const freshDir = mkdtempSync(join(tmpdir(), 'acme-key-'));
    try {
      const fresh = counting(createFsAccountKeyStore(freshDir));
      const other = engine(fresh.store);
      const [a, b] = await Promise.all([other.startOrder(['one.example.test']), other.startOrder(['two.example.test'])]);
      expect(fresh.counts.put).toBe(1);
      expect(b.accountUrl).toBe(a.accountUrl);
      expect(a.accountUrl).not.toBe(first.accountUrl);
    } finally {
      rmSync(freshDir, { recursive: true, force: true });
    }
  });

  test('a challenge whose TXT record is missing fails, and completing that order again says a new order is needed', async () => {
    const certs = engine(createFsAccountKeyStore(keyDir));
    const started = await certs.startOrder(['www.broken.example.test', 'broken.example.test']);
    // Only the www record is added: the naked domain's challenge will be found invalid.
    const www = started.records.find((r) => r.host === '_acme-challenge.www.broken.example.test')!;
    await pebble.setTxt(www.host, www.value);
    try {
      const firstTry = certs.completeOrder(certTmpOf(started));
      await expect(firstTry).rejects.toBeInstanceOf(CertificateOrderInvalidError);
      const err1 = (await firstTry.catch((e: unknown) => e)) as CertificateOrderInvalidError;
      expect(err1.names).toEqual(['broken.example.test']);
      expect(err1.message).toMatch(/DNS-01 challenge for broken\.example\.test failed/);
      expect(err1.message).toMatch(/new order/);
      expect(err1.name).toBe('CertificateOrderInvalid');
      expect(err1.status).toBe(409);

      // The second attempt (e.g. the user added the record late): the CA never retries a failed
      // challenge, so the engine names it and asks for a new order, without touching the challenge.
      await pebble.setTxt('_acme-challenge.broken.example.test', started.records.find((r) => r !== www)!.value);
      const err2 = await engine(createFsAccountKeyStore(keyDir)).completeOrder(certTmpOf(started)).catch((e) => e);
      expect(err2).toBeInstanceOf(CertificateOrderInvalidError);
      expect(err2.names).toEqual(['broken.example.test']);
      expect(err2.message).toMatch(/broken\.example\.test/);
      expect(err2.message).toMatch(/new order/);
      expect(err2.message).not.toMatch(/Cannot update challenge/);
    } finally {
      await pebble.clearTxt(www.host);
      await pebble.clearTxt('_acme-challenge.broken.example.test');
    }
  });

  test('an order of another CA, or one already expired, is refused before any call', async () => {
    const certs = engine(createFsAccountKeyStore(keyDir));
    const base = { accountUrl: 'https://x/acct/1', orderUrl: 'https://x/order/1', names: ['a.example.test'], challenges: [], status: 'pending' as const };
    await expect(certs.completeOrder({ ...base, directoryUrl: 'https://acme-v02.api.letsencrypt.org/directory', expires: null }))
      .rejects.toThrow(/belongs to https:\/\/acme-v02\.api\.letsencrypt\.org\/directory.*new order/);
    await expect(certs.completeOrder({ ...base, directoryUrl: pebble.directoryUrl, expires: '2020-01-01T00:00:00Z' }))
      .rejects.toThrow(/expired.*new order/);
  });
});
