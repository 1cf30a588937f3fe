/**
 * The certificate engine: free certificates by ACME DNS-01 with acme-client (issue 13, Part 1).
 *
 *   startOrder(names)   one order for every name (www + naked domain together), DNS-01 only;
 *                       returns the TXT records to add and what cert_tmp_* keeps.
 *   completeOrder(tmp)  tells the CA the challenges are ready, waits until they are valid,
 *                       creates a fresh key and CSR, finalizes, downloads the certificate.
 *
 * - Runs in task Lambdas only: acme-client (axios, @peculiar/x509) is far over the route
 *   bundle budget (D20).
 * - Call completeOrder only once the TXT records are visible on the domain's authoritative
 *   servers: a challenge completed too early becomes `invalid` for good and the order is
 *   lost (../shared/reference/domain-security-anchors.md §0.4). An invalid challenge, an
 *   expired or already finalized order, or an order of another CA gives
 *   CertificateOrderInvalidError: start a new order. Transport and CA errors are
 *   UpstreamError (retryable).
 * - The account key is generated once (ECDSA P-256) and kept in the AccountKeyStore
 *   (Secrets Manager on AWS, a file locally); every order reuses the account. The
 *   certificate key is new for every certificate (RSA 2048: what CloudFront accepts for an
 *   imported certificate) and is returned to the caller only, to be imported into the
 *   certificate manager in the same task: never stored in cert_tmp_* nor passed through a
 *   state machine's input/output (execution history would keep it).
 * - ACME_CA_BUNDLE (an extra trusted CA for test servers such as Pebble; PEM text or a file
 *   path): acme-client sends every request through its one exported axios instance, so a
 *   request interceptor on it gives requests to the directory's origin (scheme, host and
 *   port) an https.Agent trusting the public roots plus that CA. Other origins and other
 *   axios users are untouched. NODE_EXTRA_CA_CERTS would work too, but only at process start.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import * as acme from 'acme-client';
import {
  CertificateOrderInvalidError,
  certTmpOf,
  challengeTxtRecord,
  isCertificateOrderExpired,
  normalizeCertificateNames,
  type AccountKeyStore,
  type CertificateChallenge,
  type CertificateOrderStatus,
  type CertificateTmp,
  type IssuedCertificate,
  type StartedCertificateOrder,
} from '../../core/domain/certificate';
import { UpstreamError } from '../../core/errors';
import type { Logger } from '../../logger';

/** ACME_DIRECTORY_URL's default. */
export const DEFAULT_ACME_DIRECTORY_URL = acme.directory.letsencrypt.production;

export interface AcmeEngineOptions {
  /** ACME_DIRECTORY_URL; unset or empty: Let's Encrypt production. */
  directoryUrl?: string;
  /** ACME_CA_BUNDLE: an extra CA (PEM text, or the path of a PEM file) trusted for the directory's HTTPS. */
  caBundle?: string;
  /** ACME_ACCOUNT_EMAIL: the account's contact, for the CA's expiry and incident mail. */
  accountEmail?: string;
  accountKeyStore: AccountKeyStore;
  log: Logger;
  /**
   * How long to wait for the CA (challenge validation, order readiness, issuance): polls
   * with exponential backoff. Default 10 attempts, 2 s to 20 s apart (about 2 minutes).
   */
  backoff?: { attempts?: number; minMs?: number; maxMs?: number };
}

export interface AcmeEngine {
  readonly directoryUrl: string;
  startOrder(names: string[]): Promise<StartedCertificateOrder>;
  completeOrder(tmp: CertificateTmp): Promise<IssuedCertificate>;
}

type Order = acme.Order;
type Authorization = acme.Authorization;
type Challenge = Authorization['challenges'][number];

export function createAcmeEngine(options: AcmeEngineOptions): AcmeEngine {
  const directoryUrl = options.directoryUrl?.trim() || DEFAULT_ACME_DIRECTORY_URL;
  let directory: URL;
  try {
    directory = new URL(directoryUrl);
  } catch {
    throw new Error(`ACME_DIRECTORY_URL is not a URL: ${directoryUrl}`);
  }
  if (directory.protocol !== 'https:') throw new Error(`ACME_DIRECTORY_URL must be https (RFC 8555 §6.1), got ${directoryUrl}`);
  if (options.caBundle?.trim()) trustExtraCa(directory.origin, readCaBundle(options.caBundle));

  const email = options.accountEmail?.trim() || undefined;
  const backoff = {
    backoffAttempts: options.backoff?.attempts ?? 10,
    backoffMin: options.backoff?.minMs ?? 2_000,
    backoffMax: options.backoff?.maxMs ?? 20_000,
  };
  const log = options.log.child({ acme_directory: directory.host });

  let accountKey: Promise<string> | undefined;
  /** The account key, generated and stored on first use. A failed read or write is retried next time. */
  const getAccountKey = (): Promise<string> => {
    accountKey ??= (async () => {
      const stored = await options.accountKeyStore.get();
      if (stored) return stored;
      const pem = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString('utf8');
      await options.accountKeyStore.put(pem);
      log.info('acme account key generated and stored');
      // Two first orders at once may both generate a key: use whichever the store kept.
      return (await options.accountKeyStore.get()) ?? pem;
    })();
    accountKey.catch(() => (accountKey = undefined));
    return accountKey;
  };

  let accountUrl: string | undefined;
  /** A client bound to the account; registers it (or finds it: the key identifies it) when the URL is not known. */
  async function accountClient(knownUrl?: string): Promise<acme.Client> {
    const key = await getAccountKey();
    const url = knownUrl ?? accountUrl;
    const client = new acme.Client({ directoryUrl, accountKey: key, ...(url ? { accountUrl: url } : {}), ...backoff });
    if (!url) {
      await step('account registration', () =>
        client.createAccount({ termsOfServiceAgreed: true, ...(email ? { contact: [`mailto:${email}`] } : {}) }));
      accountUrl = client.getAccountUrl();
      log.info('acme account ready', { account_url: accountUrl });
    }
    return client;
  }

  return {
    directoryUrl,

    async startOrder(names) {
      const identifiers = normalizeCertificateNames(names);
      const client = await accountClient();
      const order = await step('order creation', () => client.createOrder({ identifiers: identifiers.map((value) => ({ type: 'dns', value })) }));
      const authzs = await step('authorization lookup', () => client.getAuthorizations(order));
      const challenges: CertificateChallenge[] = [];
      for (const authz of authzs) {
        const name = authzName(authz);
        if (authz.status === 'valid') continue; // reused: the CA needs no new proof for this name
        if (authz.status !== 'pending') {
          throw new CertificateOrderInvalidError(`the certificate authority gave ${name} an authorization that is ${authz.status}: start a new order`, [name]);
        }
        const challenge = dns01(authz);
        if (!challenge) throw new UpstreamError(`the certificate authority offers no dns-01 challenge for ${name}`);
        const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
        challenges.push({ name, authzUrl: authz.url, challengeUrl: challenge.url, keyAuthorization });
      }
      const started = certTmpOf({
        directoryUrl,
        accountUrl: client.getAccountUrl(),
        orderUrl: order.url,
        names: identifiers,
        challenges,
        status: order.status as CertificateOrderStatus,
        expires: order.expires ?? null,
      });
      log.info('acme order created', { order_url: order.url, names: identifiers, challenges: challenges.length, expires: started.expires });
      return { ...started, records: challenges.map(challengeTxtRecord) };
    },

    async completeOrder(tmp) {
      if (!tmp?.orderUrl) throw new CertificateOrderInvalidError('no certificate order to complete: start one first');
      if (tmp.directoryUrl && tmp.directoryUrl !== directoryUrl) {
        throw new CertificateOrderInvalidError(`the order belongs to ${tmp.directoryUrl}, not to the configured certificate authority ${directoryUrl}: start a new order`);
      }
      if (isCertificateOrderExpired(tmp)) throw new CertificateOrderInvalidError(`the certificate order expired at ${tmp.expires}: start a new order`);
      const orderLog = log.child({ order_url: tmp.orderUrl });
      const client = await accountClient(tmp.accountUrl || undefined);

      let order = await step('order lookup', () => client.getOrder({ url: tmp.orderUrl } as Order));
      const names = order.identifiers.map((i) => i.value);
      if (order.status === 'invalid') {
        const failed = await failedNames(client, order);
        throw invalidOrder(failed.length ? failed : names, describeProblem(order.error));
      }
      if (order.status === 'valid' || order.status === 'processing') {
        // Finalized by an earlier attempt whose key (never stored) is gone: it cannot be used.
        throw new CertificateOrderInvalidError('the certificate order was already finalized by an earlier attempt and its key was not kept: start a new order');
      }

      if (order.status === 'pending') {
        const authzs = await step('authorization lookup', () => client.getAuthorizations(order));
        const invalid = authzs.filter((a) => a.status !== 'valid' && a.status !== 'pending');
        if (invalid.length) throw invalidOrder(invalid.map(authzName), invalid.map(authzProblem).filter(Boolean).join('; '));
        const waiting = authzs.filter((a) => a.status === 'pending');
        // Tell the CA every challenge is ready first, then wait: validations run in parallel.
        for (const authz of waiting) {
          const challenge = dns01(authz);
          if (!challenge) throw new UpstreamError(`the certificate authority offers no dns-01 challenge for ${authzName(authz)}`);
          if (challenge.status === 'invalid') throw invalidOrder([authzName(authz)], describeProblem(challenge.error));
          if (challenge.status === 'pending') await step(`challenge completion for ${authzName(authz)}`, () => client.completeChallenge(challenge));
        }
        // Wait for all of them (none keeps polling after we answer), then report every failure.
        const outcomes = await Promise.allSettled(waiting.map((authz) => client.waitForValidStatus(authz)));
        const unsettled = waiting.filter((_, i) => outcomes[i].status === 'rejected');
        if (unsettled.length) {
          const now = await step('authorization lookup', () => client.getAuthorizations({ ...order, authorizations: unsettled.map((a) => a.url) }));
          const failed = now.filter((a) => a.status !== 'pending' && a.status !== 'valid');
          if (failed.length) throw invalidOrder(failed.map(authzName), failed.map(authzProblem).filter(Boolean).join('; '));
          const first = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
          throw new UpstreamError(`the certificate authority has not validated ${unsettled.map(authzName).join(', ')} yet (${message(first?.reason)}): try again later`);
        }
        orderLog.info('acme challenges valid', { names: waiting.map(authzName) });
        const ready = await step('order readiness', () => client.waitForValidStatus(order));
        order = { ...ready, url: tmp.orderUrl }; // waitForValidStatus returns the bare resource, without its URL
      }

      if (order.status !== 'ready') throw new UpstreamError(`the certificate order is ${order.status}, expected ready`);
      const altNames = csrNames(names, tmp.names?.[0]);
      // The subject's CN holds at most 64 characters: the first name that fits, else none (SANs are what count).
      const commonName = altNames.find((n) => n.length <= 64);
      const key = await acme.crypto.createPrivateRsaKey(2048);
      const [, csr] = await acme.crypto.createCsr({ ...(commonName ? { commonName } : {}), altNames: [...altNames] }, key);
      const finalized = await step('order finalization', () => client.finalizeOrder(order, csr));
      const pem = await step('certificate download', () => client.getCertificate(finalized));
      const [leaf, ...chain] = acme.crypto.splitPemChain(pem);
      if (!leaf) throw new UpstreamError('the certificate authority returned no certificate');
      const x509 = new X509Certificate(leaf);
      const issued: IssuedCertificate = {
        certificatePem: ensureNewline(leaf),
        chainPem: chain.map(ensureNewline).join(''),
        privateKeyPem: key.toString('utf8'),
        notBefore: new Date(x509.validFrom).toISOString(),
        notAfter: new Date(x509.validTo).toISOString(),
        names: altNames,
      };
      orderLog.info('acme certificate issued', { names: issued.names, not_after: issued.notAfter, serial: x509.serialNumber, chain_length: chain.length });
      return issued;
    },
  };
}

/** The order's names, the one the user asked for first leading (it becomes the common name). */
function csrNames(orderNames: string[], first: string | undefined): string[] {
  return first && orderNames.includes(first) ? [first, ...orderNames.filter((n) => n !== first)] : [...orderNames];
}

function authzName(authz: Authorization): string {
  return authz.wildcard ? `*.${authz.identifier.value}` : authz.identifier.value;
}

function dns01(authz: Authorization): Challenge | undefined {
  return authz.challenges.find((c) => c.type === 'dns-01');
}

function authzProblem(authz: Authorization): string {
  const failed = authz.challenges.find((c) => c.status === 'invalid' && c.error);
  return failed ? describeProblem(failed.error) : '';
}

/** Names of the order whose authorization is not valid (for an invalid order). */
async function failedNames(client: acme.Client, order: Order): Promise<string[]> {
  try {
    const authzs = await client.getAuthorizations(order);
    return authzs.filter((a) => a.status !== 'valid').map(authzName);
  } catch {
    return [];
  }
}

function invalidOrder(names: string[], detail: string): CertificateOrderInvalidError {
  const what = names.length === 1 ? `the DNS-01 challenge for ${names[0]}` : `the DNS-01 challenges for ${names.join(', ')}`;
  return new CertificateOrderInvalidError(
    `${what} failed${detail ? ` (${detail})` : ''}: the certificate authority never retries a failed challenge, so a new order is needed (start the certificate again, then complete it once the TXT records are visible)`,
    names,
  );
}

/** An RFC 7807 problem (`{type, detail}`) as one line. */
function describeProblem(problem: unknown): string {
  if (!problem || typeof problem !== 'object') return '';
  const p = problem as { type?: string; detail?: string };
  return [p.detail, p.type?.replace(/^urn:ietf:params:acme:error:/, '')].filter(Boolean).join(' - ');
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const ensureNewline = (pem: string): string => (pem.endsWith('\n') ? pem : `${pem}\n`);

/** Runs one exchange with the CA; its failure becomes an UpstreamError that names the step. */
async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CertificateOrderInvalidError || err instanceof UpstreamError) throw err;
    throw new UpstreamError(`ACME ${what} failed: ${describeTransportError(err)}`);
  }
}

/** axios TLS failures surface in acme-client as an unhelpful TypeError: name the likely cause. */
function describeTransportError(err: unknown): string {
  const text = message(err);
  const code = (err as { code?: string })?.code;
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/.test(code)) return `${code}: the directory's TLS certificate is not trusted (ACME_CA_BUNDLE)`;
  if (/reading 'config'/.test(text)) return `${text} (usually an HTTPS failure: is the directory reachable, and its CA trusted? ACME_CA_BUNDLE)`;
  return text;
}

// ---------------------------------------------------------------------------------------
// ACME_CA_BUNDLE: extra trust for the directory's origin, on acme-client's axios instance.

const agentsByOrigin = new Map<string, HttpsAgent>();
let interceptorInstalled = false;

function readCaBundle(value: string): string[] {
  const text = value.includes('-----BEGIN') ? value : readBundleFile(value.trim());
  const certs = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!certs.length) throw new Error('ACME_CA_BUNDLE holds no PEM certificate');
  for (const pem of certs) new X509Certificate(pem); // a corrupt bundle fails here, not on the first order
  return certs.map(ensureNewline);
}

function readBundleFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`ACME_CA_BUNDLE: cannot read ${path}: ${message(err)}`);
  }
}

function trustExtraCa(origin: string, certs: string[]): void {
  agentsByOrigin.set(origin, new HttpsAgent({ ca: [...rootCertificates, ...certs] }));
  if (interceptorInstalled) return;
  interceptorInstalled = true;
  acme.axios.interceptors.request.use((config) => {
    const agent = config.url ? agentsByOrigin.get(originOf(config.url)) : undefined;
    if (agent) config.httpsAgent = agent;
    return config;
  });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
