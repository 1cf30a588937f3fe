/**
 * A local, stateful Route 53 API subset on node:http (127.0.0.1), written from the API
 * reference (2013-04-01, REST-XML), so the official @aws-sdk/client-route-53 talks to it
 * with `endpoint` set to `url`:
 *
 * - `POST /2013-04-01/hostedzone/{Id}/rrset`: a `ChangeResourceRecordSetsRequest` with
 *   CREATE, UPSERT and DELETE changes of simple record sets (Name, Type, TTL, values),
 *   applied all or none: CREATE of an existing set, DELETE of a missing one or of other
 *   values, or a name outside the zone is a 400 `InvalidChangeBatch` and changes nothing. The
 *   answer is the `ChangeInfo` (`/change/<id>`, PENDING).
 * - `GET /2013-04-01/change/{Id}`: PENDING on the first read, INSYNC after (as propagation
 *   reads to a poller); an unknown id is a 404 `NoSuchChange`.
 * - `GET /2013-04-01/hostedzone/{Id}/rrset`: the zone's record sets (no paging).
 * - An unknown zone is a 404 `NoSuchHostedZone`. Errors are the REST-XML `ErrorResponse`
 *   (Type, Code, Message), an InvalidChangeBatch's messages joined by "; ".
 * - Requests must be SigV4-signed (an `Authorization: AWS4-HMAC-SHA256 ...` header), else 403
 *   `MissingAuthenticationToken`; the signature itself is not checked.
 *
 * `onChange` sees every applied record set (values empty once deleted), so a test can mirror
 * the zone into a DNS server (pebble-challtestsrv) that an ACME validator asks.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer } from '../runtime/close-server';
import { listen } from '../runtime/listen';
import { readBody } from '../runtime/read-body';

const NS = 'https://route53.amazonaws.com/doc/2013-04-01/';

export interface FakeRecordSet {
  /** Fully qualified, with the trailing dot. */
  name: string;
  type: string;
  ttl: number;
  /** As Route 53 keeps them: a TXT value in double quotes. */
  values: string[];
}

export interface Route53FakeOptions {
  /** Hosted zones by id (`Z...`) → zone name (`acme.example.com`). */
  zones: Record<string, string>;
  onChange?: (zoneId: string, set: FakeRecordSet) => void | Promise<void>;
}

export interface Route53Fake {
  url: string;
  /** A zone's record sets as they stand. */
  recordSets(zoneId: string): FakeRecordSet[];
  /** Requests answered, by operation (ChangeResourceRecordSets, GetChange, ListResourceRecordSets). */
  calls(): Record<string, number>;
  close(): Promise<void>;
}

const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`).toLowerCase();
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeXml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
/** Every `<tag>…</tag>` inside `xml`, innermost text or markup. */
const all = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]);
const one = (xml: string, tag: string) => all(xml, tag)[0];

class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) { super(message); }
}

interface Change { action: string; set: FakeRecordSet }

function parseChanges(xml: string): Change[] {
  return all(xml, 'Change').map((change) => {
    const set = one(change, 'ResourceRecordSet') ?? '';
    return {
      action: one(change, 'Action') ?? '',
      set: {
        name: fqdn(unescapeXml(one(set, 'Name') ?? '')),
        type: one(set, 'Type') ?? '',
        ttl: Number(one(set, 'TTL') ?? 300),
        values: all(one(set, 'ResourceRecords') ?? '', 'Value').map(unescapeXml),
      },
    };
  });
}

export async function startRoute53Fake(options: Route53FakeOptions): Promise<Route53Fake> {
  const zones = new Map(Object.entries(options.zones).map(([id, name]) => [id, { name: fqdn(name), sets: new Map<string, FakeRecordSet>() }]));
  const changes = new Map<string, { submittedAt: string; reads: number }>();
  const calls: Record<string, number> = {};
  const key = (set: Pick<FakeRecordSet, 'name' | 'type'>) => `${set.name} ${set.type}`;

  const zoneOf = (id: string) => {
    const zone = zones.get(decodeURIComponent(id).replace(/^\/hostedzone\//, ''));
    if (!zone) throw new ApiError(404, 'NoSuchHostedZone', `No hosted zone found with ID: ${id}`);
    return zone;
  };

  /** A change as submitted (PENDING), or as a GetChange reads it: PENDING the first time, INSYNC after. */
  const changeInfo = (id: string, read: boolean) => {
    const change = changes.get(id)!;
    const status = read && change.reads++ > 0 ? 'INSYNC' : 'PENDING';
    return `<ChangeInfo><Id>/change/${id}</Id><Status>${status}</Status><SubmittedAt>${change.submittedAt}</SubmittedAt></ChangeInfo>`;
  };

  /** Validates the whole batch first, then applies it: all changes or none. */
  const applyBatch = async (zoneId: string, batch: Change[]) => {
    const zone = zoneOf(zoneId);
    const problems: string[] = [];
    const next = new Map(zone.sets);
    for (const { action, set } of batch) {
      if (set.name !== zone.name && !set.name.endsWith(`.${zone.name}`)) problems.push(`RRSet with DNS name ${set.name} is not permitted in zone ${zone.name}`);
      else if (!['CREATE', 'UPSERT', 'DELETE'].includes(action)) problems.push(`Invalid action ${action}`);
      else if (action === 'CREATE' && next.has(key(set))) problems.push(`Tried to create resource record set [name='${set.name}', type='${set.type}'] but it already exists`);
      else if (action === 'DELETE') {
        const existing = next.get(key(set));
        if (!existing || JSON.stringify(existing.values) !== JSON.stringify(set.values)) {
          problems.push(`Tried to delete resource record set [name='${set.name}', type='${set.type}'] but ${existing ? 'the values provided do not match the current values' : 'it was not found'}`);
        } else next.delete(key(set));
      } else if (set.values.length === 0) problems.push(`Invalid Resource Record: no value for ${set.name}`);
      else if (set.type === 'TXT' && set.values.some((v) => !/^".*"$/.test(v))) problems.push(`Invalid Resource Record: FATAL problem: InvalidCharacterString (Value should be enclosed in quotation marks) encountered with '${set.values[0]}'`);
      else next.set(key(set), set);
    }
    if (problems.length) throw new ApiError(400, 'InvalidChangeBatch', problems.join('; '));
    zone.sets = next;
    for (const { action, set } of batch) await options.onChange?.(zoneId, action === 'DELETE' ? { ...set, values: [] } : set);
  };

  const route = async (req: IncomingMessage): Promise<string> => {
    if (!/^AWS4-HMAC-SHA256 /.test(String(req.headers.authorization ?? ''))) throw new ApiError(403, 'MissingAuthenticationToken', 'Missing Authentication Token');
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    let m: RegExpExecArray | null;
    if ((m = /^\/2013-04-01\/hostedzone\/([^/]+)\/rrset\/?$/.exec(path))) {
      if (req.method === 'POST') {
        calls.ChangeResourceRecordSets = (calls.ChangeResourceRecordSets ?? 0) + 1;
        const body = await readBody(req, 1024 * 1024);
        if (!body) throw new ApiError(400, 'InvalidInput', 'the request body is over 1 MB');
        const batch = parseChanges(body.toString('utf8'));
        if (!batch.length) throw new ApiError(400, 'InvalidInput', 'a ChangeBatch needs at least one Change');
        await applyBatch(m[1], batch);
        const id = `C${randomBytes(8).toString('hex').toUpperCase()}`;
        changes.set(id, { submittedAt: new Date().toISOString(), reads: 0 });
        return `<ChangeResourceRecordSetsResponse xmlns="${NS}">${changeInfo(id, false)}</ChangeResourceRecordSetsResponse>`;
      }
      calls.ListResourceRecordSets = (calls.ListResourceRecordSets ?? 0) + 1;
      const sets = [...zoneOf(m[1]).sets.values()].map((s) => `<ResourceRecordSet><Name>${escapeXml(s.name)}</Name><Type>${s.type}</Type><TTL>${s.ttl}</TTL><ResourceRecords>${s.values.map((v) => `<ResourceRecord><Value>${escapeXml(v)}</Value></ResourceRecord>`).join('')}</ResourceRecords></ResourceRecordSet>`);
      return `<ListResourceRecordSetsResponse xmlns="${NS}"><ResourceRecordSets>${sets.join('')}</ResourceRecordSets><IsTruncated>false</IsTruncated><MaxItems>300</MaxItems></ListResourceRecordSetsResponse>`;
    }
    if ((m = /^\/2013-04-01\/change\/(.+)$/.exec(path)) && req.method === 'GET') {
      calls.GetChange = (calls.GetChange ?? 0) + 1;
      const id = decodeURIComponent(m[1]).replace(/^\/change\//, '');
      if (!changes.has(id)) throw new ApiError(404, 'NoSuchChange', `A change with the specified change ID does not exist: ${id}`);
      return `<GetChangeResponse xmlns="${NS}">${changeInfo(id, true)}</GetChangeResponse>`;
    }
    throw new ApiError(404, 'UnknownOperationException', `${req.method} ${path} is not an operation of this fake`);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomBytes(16).toString('hex');
    route(req).then(
      (xml) => { res.writeHead(200, { 'Content-Type': 'text/xml', 'x-amzn-RequestId': requestId }); res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`); },
      (err: unknown) => {
        const e = err instanceof ApiError ? err : new ApiError(500, 'InternalFailure', (err as Error).message);
        const body = `<ErrorResponse xmlns="${NS}"><Error><Type>${e.status < 500 ? 'Sender' : 'Receiver'}</Type><Code>${e.code}</Code><Message>${escapeXml(e.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
        res.writeHead(e.status, { 'Content-Type': 'text/xml', 'x-amzn-RequestId': requestId });
        res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
      },
    );
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    recordSets: (zoneId) => [...(zones.get(zoneId)?.sets.values() ?? [])],
    calls: () => ({ ...calls }),
    close: () => closeServer(server),
  };
}
