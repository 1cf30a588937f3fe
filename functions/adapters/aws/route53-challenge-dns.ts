/**
 * DNS-01 challenge records in a Route 53 zone the service owns (issue 37): a customer points
 * `_acme-challenge.<domain>` at a name in that zone once (a CNAME), and every later
 * certificate's TXT is written here, without them. A write is one ChangeResourceRecordSets
 * batch (UPSERT: a repeat is the same write), then GetChange until INSYNC, so the CA only asks
 * once every Route 53 server answers the new value.
 */
import { ChangeResourceRecordSetsCommand, GetChangeCommand, type Route53Client } from '@aws-sdk/client-route-53';

export interface ChallengeDnsOptions {
  client: Route53Client;
  hostedZoneId: string;
  /** Between GetChange reads (default 2 s) and the whole wait (default 120 s). */
  pollMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ChallengeDns {
  /** Sets the TXT values at `name` (replacing any), and resolves once the change is INSYNC. */
  putTxt(name: string, values: readonly string[]): Promise<void>;
  /** Removes the TXT record at `name` holding exactly `values`; a record already gone is fine. */
  deleteTxt(name: string, values: readonly string[]): Promise<void>;
}

const CHALLENGE_TTL = 60;
/** Route 53 keeps a TXT value as a quoted character-string; ACME key authorizations never hold quotes. */
const quoted = (value: string) => `"${value.replace(/(["\\])/g, '\\$1')}"`;

export function createRoute53ChallengeDns(options: ChallengeDnsOptions): ChallengeDns {
  const { client, hostedZoneId } = options;
  const pollMs = options.pollMs ?? 2000;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const change = async (action: 'UPSERT' | 'DELETE', name: string, values: readonly string[]) => {
    const answer = await client.send(new ChangeResourceRecordSetsCommand({
      HostedZoneId: hostedZoneId,
      ChangeBatch: {
        Comment: `ACME DNS-01 challenge for ${name}`,
        Changes: [{ Action: action, ResourceRecordSet: { Name: name, Type: 'TXT', TTL: CHALLENGE_TTL, ResourceRecords: values.map((v) => ({ Value: quoted(v) })) } }],
      },
    }));
    return answer.ChangeInfo?.Id;
  };

  const inSync = async (changeId: string | undefined, name: string) => {
    if (!changeId) throw new Error(`Route 53 answered no change id for the TXT at ${name}`);
    for (let waited = 0; ; waited += pollMs) {
      const { ChangeInfo } = await client.send(new GetChangeCommand({ Id: changeId }));
      if (ChangeInfo?.Status === 'INSYNC') return;
      if (waited >= timeoutMs) throw new Error(`the TXT at ${name} was not in sync on every Route 53 server after ${Math.round(timeoutMs / 1000)} s (change ${changeId})`);
      await sleep(pollMs);
    }
  };

  return {
    async putTxt(name, values) {
      await inSync(await change('UPSERT', name, values), name);
    },
    async deleteTxt(name, values) {
      try {
        await change('DELETE', name, values);
      } catch (err) {
        // Already gone (an earlier cleanup, or never written): nothing to remove.
        if ((err as Error).name === 'InvalidChangeBatch' && /not found/.test((err as Error).message)) return;
        throw err;
      }
    },
  };
}
