/**
 * Pebble (Let's Encrypt's ACME test server) and pebble-challtestsrv (its mock DNS server), as
 * Debian's `pebble` package installs them (.ci/run), started by a test file on free ports
 * (../shared/reference/domain-security-anchors.md §2.2-2.4):
 *   - a throwaway CA and a 127.0.0.1/localhost certificate made with openssl for Pebble's HTTPS
 *     (the .deb ships none); the CA is what ACME_CA_BUNDLE must name;
 *   - challtestsrv answers DNS only (HTTP/TLS-ALPN listeners off), TXT records via `set-txt`;
 *   - Pebble resolves through it (`-dnsserver`), validates at once (`PEBBLE_VA_NOSLEEP`),
 *     never reuses an authorization (`PEBBLE_AUTHZREUSE=0`) and rejects no nonce.
 * `stop()` ends the two processes it spawned (by their handles) and removes the directory.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { request as httpsRequest } from 'node:https';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The executable's path on PATH, or null. */
export function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Pebble, its DNS mock and openssl are all there: the Pebble tests can run. */
export const pebbleAvailable = Boolean(onPath('pebble') && onPath('pebble-challtestsrv') && onPath('openssl'));

export interface PebbleServer {
  /** `https://127.0.0.1:<port>/dir`. */
  directoryUrl: string;
  /** The CA of Pebble's HTTPS certificate (PEM), and the file holding it. */
  caPem: string;
  caFile: string;
  /** challtestsrv's DNS server, `127.0.0.1:<port>`. */
  dnsServer: string;
  /** Adds a TXT value at `host` (values accumulate; a trailing dot is added). */
  setTxt(host: string, value: string): Promise<void>;
  /** Removes every TXT value at `host`. */
  clearTxt(host: string): Promise<void>;
  /** Points `host` at `target` with a CNAME (the delegation a user adds once for DNS-01). */
  setCname(host: string, target: string): Promise<void>;
  /** What the two processes wrote, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function startPebble(): Promise<PebbleServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pebble-'));
  const children: ChildProcess[] = [];
  let out = '';
  const stop = async () => {
    await Promise.all(children.map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    })));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await makeCertificates(dir);
    const [acmePort, managementPort, dnsPort, challManagementPort] = await freePorts(4);
    writeFileSync(join(dir, 'pebble.json'), JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: join(dir, 'cert.pem'),
        privateKey: join(dir, 'key.pem'),
        httpPort: 5002,
        tlsPort: 5001,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }));
    const launch = (command: string, args: string[], env: Record<string, string> = {}) => {
      const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      const collect = (chunk: Buffer) => (out = (out + chunk.toString()).slice(-20_000));
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      children.push(child);
      return child;
    };
    launch('pebble-challtestsrv', [
      '-dns01', `127.0.0.1:${dnsPort}`, '-http01', '', '-https01', '', '-tlsalpn01', '',
      '-management', `127.0.0.1:${challManagementPort}`, '-defaultIPv4', '127.0.0.1', '-defaultIPv6', '',
    ]);
    await waitFor(() => canConnect(challManagementPort), 'pebble-challtestsrv', () => out);
    launch('pebble', ['-config', join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${dnsPort}`], {
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_AUTHZREUSE: '0',
      PEBBLE_WFE_NONCEREJECT: '0',
    });
    const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
    const caFile = join(dir, 'ca.pem');
    const caPem = readFileSync(caFile, 'utf8');
    await waitFor(() => answers200(directoryUrl, caPem), 'pebble', () => out);

    const manage = async (path: string, body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${challManagementPort}${path}`, { method: 'POST', body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`challtestsrv ${path}: HTTP ${res.status} ${await res.text()}`);
    };
    const fqdn = (host: string) => (host.endsWith('.') ? host : `${host}.`);
    return {
      directoryUrl,
      caPem,
      caFile,
      dnsServer: `127.0.0.1:${dnsPort}`,
      setTxt: (host, value) => manage('/set-txt', { host: fqdn(host), value }),
      clearTxt: (host) => manage('/clear-txt', { host: fqdn(host) }),
      setCname: (host, target) => manage('/set-cname', { host: fqdn(host), target: fqdn(target) }),
      output: () => out,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A throwaway CA and a leaf for localhost / 127.0.0.1 signed by it. */
async function makeCertificates(dir: string): Promise<void> {
  const at = (name: string) => join(dir, name);
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2',
    '-subj', '/CN=Pebble test HTTPS CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('key.pem'), '-out', at('leaf.csr'), '-subj', '/CN=localhost']);
  writeFileSync(at('leaf.ext'), 'subjectAltName=DNS:localhost,DNS:pebble,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n');
  await run('openssl', ['x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial',
    '-out', at('cert.pem'), '-days', '2', '-extfile', at('leaf.ext')]);
}

/** Ports free for TCP and UDP on 127.0.0.1 (the DNS mock listens on both). */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree && !ports.includes(port)) ports.push(port);
  }
  return ports;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function answers200(url: string, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpsRequest(url, { ca, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.once('error', () => resolve(false));
    req.end();
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, output: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start within ${timeoutMs} ms:\n${output()}`);
}
