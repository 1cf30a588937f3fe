/**
 * A tiny authoritative DNS server over UDP for tests and local runs of the domain connection
 * (adapters/external/dns.ts is pointed at it through `DNS_RESOLVERS`-style `host:port` lists).
 *
 * It answers A, AAAA, CNAME, TXT, CAA, NS and SOA queries (class IN) for the zones it is
 * given, from records the test can change while it runs:
 * - a name with a CNAME answers any other type with the CNAME, followed by the target's
 *   records when the target is in one of its zones (as an authoritative server does);
 * - an existing name without records of the type (or an empty non-terminal) is NODATA, with
 *   the zone's SOA in the authority section; a missing name inside a zone is NXDOMAIN; a name
 *   outside every zone is REFUSED;
 * - answers carry TTL 0 by default, so resolver caches (c-ares has one) never hide a change.
 *
 * Packets are encoded by hand (RFC 1035 §4, RFC 3596 AAAA, RFC 8659 CAA); no dependency.
 * Queries are recorded in `queries` so a test can see which server was asked what.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIP } from 'node:net';

export interface TestCaaRecord {
  flags: number;
  tag: string;
  value: string;
}

/** Records of one name. A TXT value longer than 255 bytes is split into several strings. */
export interface TestNameRecords {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  TXT?: string[];
  CAA?: TestCaaRecord[];
  NS?: string[];
}

export interface DnsTestServerOptions {
  /** Zone apexes the server is authoritative for (`shop.test`). */
  zones: string[];
  /** Records by fully-qualified name (no trailing dot needed). */
  records?: Record<string, TestNameRecords>;
  /** Listen address (default 127.0.0.1) and port (default 0: any free port). */
  address?: string;
  port?: number;
  /** TTL of the answers (default 0). */
  ttl?: number;
}

export interface DnsTestServer {
  address: string;
  port: number;
  /** `address:port` (IPv6 bracketed), as a `DNS_RESOLVERS` entry. */
  endpoint: string;
  /** The live record set: change it between queries. */
  records: Map<string, TestNameRecords>;
  /** Every query received: name (lower-case) and type mnemonic (or the number). */
  queries: { name: string; type: string }[];
  /** Replaces (or with `undefined` removes) one type of records of a name. */
  set<K extends keyof TestNameRecords>(name: string, type: K, value: TestNameRecords[K] | undefined): void;
  close(): Promise<void>;
}

const TYPES: Record<string, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, TXT: 16, AAAA: 28, CAA: 257 };
const TYPE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [v, k]));
const CLASS_IN = 1;
const RCODE = { NOERROR: 0, FORMERR: 1, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

export async function startDnsTestServer(options: DnsTestServerOptions): Promise<DnsTestServer> {
  const zones = options.zones.map(canonical);
  const records = new Map<string, TestNameRecords>(Object.entries(options.records ?? {}).map(([name, r]) => [canonical(name), r]));
  const queries: { name: string; type: string }[] = [];
  const ttl = options.ttl ?? 0;
  const address = options.address ?? '127.0.0.1';
  const socket: Socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');

  socket.on('message', (message: Buffer, peer: RemoteInfo) => {
    let reply: Buffer | null;
    try {
      reply = answer(message, { zones, records, ttl, queries });
    } catch {
      reply = message.length >= 12 ? header(message.readUInt16BE(0), message.readUInt16BE(2), RCODE.FORMERR, 0, 0, 0) : null;
    }
    if (reply) socket.send(reply, peer.port, peer.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port ?? 0, address, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const port = socket.address().port;
  return {
    address,
    port,
    endpoint: isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`,
    records,
    queries,
    set(name, type, value) {
      const key = canonical(name);
      const entry = { ...(records.get(key) ?? {}) };
      if (value === undefined) delete entry[type];
      else entry[type] = value;
      if (Object.keys(entry).length === 0) records.delete(key);
      else records.set(key, entry);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

interface ServerState {
  zones: string[];
  records: Map<string, TestNameRecords>;
  ttl: number;
  queries: { name: string; type: string }[];
}

/** The response to one query packet (null: not a query, dropped). */
function answer(query: Buffer, state: ServerState): Buffer | null {
  const id = query.readUInt16BE(0);
  const flags = query.readUInt16BE(2);
  if (flags & 0x8000) return null; // a response, not a query
  const opcode = (flags >> 11) & 0xf;
  const qdcount = query.readUInt16BE(4);
  if (opcode !== 0 || qdcount !== 1) return header(id, flags, RCODE.NOTIMP, 0, 0, 0);
  const { name, end } = readName(query, 12);
  const qtype = query.readUInt16BE(end);
  const qclass = query.readUInt16BE(end + 2);
  const question = query.subarray(12, end + 4);
  state.queries.push({ name, type: TYPE_NAMES[qtype] ?? String(qtype) });
  if (qclass !== CLASS_IN) return withQuestion(header(id, flags, RCODE.REFUSED, 1, 0, 0), question);

  const zone = zoneOf(name, state.zones);
  if (!zone) return withQuestion(header(id, flags, RCODE.REFUSED, 1, 0, 0), question);

  const answers: Buffer[] = [];
  let current = name;
  for (let hops = 0; hops < 8; hops++) {
    const entry = state.records.get(current);
    if (entry?.CNAME && qtype !== TYPES.CNAME) {
      answers.push(rr(current, TYPES.CNAME, state.ttl, encodeName(entry.CNAME)));
      const target = canonical(entry.CNAME);
      if (!zoneOf(target, state.zones)) break;
      current = target;
      continue;
    }
    answers.push(...recordsOf(current, qtype, entry, state, zone));
    break;
  }
  const exists = state.records.has(name) || [...state.records.keys()].some((k) => k.endsWith(`.${name}`)) || name === zone;
  if (answers.length > 0) return packet(id, flags, RCODE.NOERROR, question, answers, []);
  const soa = rr(zone, TYPES.SOA, state.ttl, soaData(zone));
  return packet(id, flags, exists ? RCODE.NOERROR : RCODE.NXDOMAIN, question, [], [soa]);
}

function recordsOf(name: string, qtype: number, entry: TestNameRecords | undefined, state: ServerState, zone: string): Buffer[] {
  const ttl = state.ttl;
  switch (qtype) {
    case TYPES.A: return (entry?.A ?? []).map((a) => rr(name, qtype, ttl, Buffer.from(a.split('.').map(Number))));
    case TYPES.AAAA: return (entry?.AAAA ?? []).map((a) => rr(name, qtype, ttl, ipv6Bytes(a)));
    case TYPES.CNAME: return entry?.CNAME ? [rr(name, qtype, ttl, encodeName(entry.CNAME))] : [];
    case TYPES.NS: return (entry?.NS ?? []).map((ns) => rr(name, qtype, ttl, encodeName(ns)));
    case TYPES.TXT: return (entry?.TXT ?? []).map((t) => rr(name, qtype, ttl, txtData(t)));
    case TYPES.CAA: return (entry?.CAA ?? []).map((c) => rr(name, qtype, ttl, caaData(c)));
    case TYPES.SOA: return name === zone ? [rr(name, qtype, ttl, soaData(zone))] : [];
    default: return [];
  }
}

function zoneOf(name: string, zones: string[]): string | null {
  const matches = zones.filter((z) => name === z || name.endsWith(`.${z}`));
  return matches.sort((a, b) => b.length - a.length)[0] ?? null;
}

function canonical(name: string): string {
  return name.trim().toLowerCase().replace(/\.+$/, '');
}

function header(id: number, queryFlags: number, rcode: number, qd: number, an: number, ns: number): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt16BE(id, 0);
  // QR=1, opcode copied, AA=1, RD copied, RA=1 (it also stands in for a recursive resolver).
  const flags = 0x8000 | (queryFlags & 0x7800) | 0x0400 | (queryFlags & 0x0100) | 0x0080 | (rcode & 0xf);
  b.writeUInt16BE(flags, 2);
  b.writeUInt16BE(qd, 4);
  b.writeUInt16BE(an, 6);
  b.writeUInt16BE(ns, 8);
  b.writeUInt16BE(0, 10);
  return b;
}

function withQuestion(head: Buffer, question: Buffer): Buffer {
  return Buffer.concat([head, question]);
}

function packet(id: number, flags: number, rcode: number, question: Buffer, answers: Buffer[], authority: Buffer[]): Buffer {
  return Buffer.concat([header(id, flags, rcode, 1, answers.length, authority.length), question, ...answers, ...authority]);
}

function rr(name: string, type: number, ttl: number, data: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(CLASS_IN, 2);
  fixed.writeUInt32BE(ttl, 4);
  fixed.writeUInt16BE(data.length, 8);
  return Buffer.concat([encodeName(name), fixed, data]);
}

function encodeName(name: string): Buffer {
  const labels = canonical(name).split('.').filter(Boolean);
  return Buffer.concat([...labels.map((l) => {
    const bytes = Buffer.from(l, 'utf8');
    if (bytes.length > 63) throw new Error(`label too long: ${l}`);
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  }), Buffer.from([0])]);
}

/** Reads a (possibly compressed) name; `end` is the offset after it in the original position. */
function readName(buf: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let pos = offset;
  let end = -1;
  for (let guard = 0; guard < 128; guard++) {
    const len = buf[pos];
    if (len === undefined) throw new Error('truncated name');
    if ((len & 0xc0) === 0xc0) {
      if (end < 0) end = pos + 2;
      pos = ((len & 0x3f) << 8) | buf[pos + 1];
      continue;
    }
    if (len === 0) return { name: labels.join('.').toLowerCase(), end: end < 0 ? pos + 1 : end };
    labels.push(buf.toString('utf8', pos + 1, pos + 1 + len));
    pos += 1 + len;
  }
  throw new Error('name too long');
}

function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function caaData(record: TestCaaRecord): Buffer {
  const tag = Buffer.from(record.tag, 'ascii');
  return Buffer.concat([Buffer.from([record.flags & 0xff, tag.length]), tag, Buffer.from(record.value, 'utf8')]);
}

function soaData(zone: string): Buffer {
  const numbers = Buffer.alloc(20);
  numbers.writeUInt32BE(1, 0); // serial
  numbers.writeUInt32BE(3600, 4); // refresh
  numbers.writeUInt32BE(600, 8); // retry
  numbers.writeUInt32BE(86400, 12); // expire
  numbers.writeUInt32BE(0, 16); // minimum (negative-answer TTL): 0, never cached
  return Buffer.concat([encodeName(`ns.${zone}`), encodeName(`hostmaster.${zone}`), numbers]);
}

function ipv6Bytes(address: string): Buffer {
  if (isIP(address) !== 6) throw new Error(`not an IPv6 address: ${address}`);
  let text = address;
  const v4 = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(2).map(Number);
    text = `${v4[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(rest);
  const groups = rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = Buffer.alloc(16);
  groups.forEach((g, i) => bytes.writeUInt16BE(g, i * 2));
  return bytes;
}
