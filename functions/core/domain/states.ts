/**
 * The state rules of the domain connection (spec "States and transitions"; issue 13 item 4):
 * the `proxy_status` and `google_verification_status` tables as data, and `transition`
 * functions that give the next state or a refusal. Pure, no I/O: the routes and state
 * machines load the status, ask here, and write the answer.
 *
 * A transition outside a table is refused with 409 and the events that are allowed in the
 * current state; a `mark-step-complete` whose step is not 2 is a 400 whatever the state.
 *
 * Reconnect (spec "Disconnect"): the distribution and the certificate stay, so from
 * `DISCONNECTED` the DNS steps (`mark-step-complete` step 2) go straight to `DEPLOYED` while the
 * certificate is unexpired; once it has expired, a new one is needed first (`start-certificate`,
 * then `complete-certificate`, then step 2). The caller says which with `certificateExpired`
 * (see `needsNewCertificate`).
 */
import { VERIFICATION_POLL_ATTEMPTS, VERIFICATION_POLL_INTERVAL_SECONDS } from '../constants';
import { ConflictError, ValidationError, type AppError } from '../errors';
import { PROXY_STATUSES, type ProxyStatus } from '../proxy/types';

export { PROXY_STATUSES, type ProxyStatus };

/** The only `mark-step-complete` step there is: the DNS switch of Part 2. */
export const DNS_SWITCH_STEP = 2;

export type ProxyEvent =
  | { type: 'create-distribution' }
  | { type: 'start-certificate' }
  | { type: 'complete-certificate' }
  | { type: 'mark-step-complete'; step: unknown }
  | { type: 'disconnect-proxy' }
  | { type: 'mark-disconnect-complete' };
export type ProxyEventName = ProxyEvent['type'];

export interface ProxyTransitionRow {
  /** null: no proxy yet. */
  from: ProxyStatus | null;
  event: ProxyEventName;
  /** Rows that apply only with a valid (unexpired) or an expired certificate (reconnect). */
  certificate?: 'valid' | 'expired';
  to: ProxyStatus;
  movedBy: string;
  also: string;
}

/** The `proxy_status` table. `disconnect-proxy` only answers the restore records; the status moves on `mark-disconnect-complete`. */
export const PROXY_STATUS_TABLE: readonly ProxyTransitionRow[] = [
  { from: null, event: 'create-distribution', to: 'PENDING_VALIDATION', movedBy: 'CDN distribution created during onboarding (1f)', also: "UI offers 'Start SSL Validation'" },
  { from: 'PENDING_VALIDATION', event: 'start-certificate', to: 'SSL_VALIDATING', movedBy: 'start-certificate', also: 'certificate order and webmaster token; TXT records returned' },
  { from: 'SSL_VALIDATING', event: 'start-certificate', to: 'SSL_VALIDATING', movedBy: 'start-certificate again', also: 'a new order replaces the pending one; TXT records returned' },
  { from: 'PENDING_VALIDATION', event: 'complete-certificate', to: 'SSL_VALIDATED', movedBy: 'complete-certificate (the get-proxy flow goes straight on)', also: 'certificate imported and attached to the CDN' },
  { from: 'SSL_VALIDATING', event: 'complete-certificate', to: 'SSL_VALIDATED', movedBy: 'complete-certificate', also: "certificate imported and attached to the CDN; UI offers 'Connect Domain'" },
  { from: 'SSL_VALIDATED', event: 'mark-step-complete', to: 'DEPLOYED', movedBy: 'mark-step-complete step 2 (DNS switched)', also: 'native certificate upgrade, webmaster verification polling, search-engine submissions' },
  { from: 'DEPLOYED', event: 'disconnect-proxy', to: 'DEPLOYED', movedBy: 'disconnect-proxy', also: 'answers the records that restore the original configuration' },
  { from: 'DEPLOYED', event: 'mark-disconnect-complete', to: 'DISCONNECTED', movedBy: 'mark-disconnect-complete (original records restored)', also: 'distribution and certificate stay' },
  { from: 'DISCONNECTED', event: 'mark-step-complete', certificate: 'valid', to: 'DEPLOYED', movedBy: 'reconnect: mark-step-complete step 2', also: 'distribution and unexpired certificate reused' },
  { from: 'DISCONNECTED', event: 'start-certificate', certificate: 'expired', to: 'SSL_VALIDATING', movedBy: 'reconnect with an expired certificate: start-certificate', also: 'a new certificate, then the DNS steps' },
];

export interface TransitionContext {
  /** Reconnect only: the kept certificate has expired (needsNewCertificate). Default false. */
  certificateExpired?: boolean;
}

export type TransitionResult<S, E extends string, R> =
  | { ok: true; from: S | null; to: S; row: R }
  | { ok: false; status: 409; allowed: E[]; message: string }
  | { ok: false; status: 400; message: string };

export type ProxyTransition = TransitionResult<ProxyStatus, ProxyEventName, ProxyTransitionRow>;

/** Next `proxy_status` for an event, or the refusal (409 with the allowed events, 400 for a bad step). */
export function transition(current: string | null | undefined, event: ProxyEvent, context: TransitionContext = {}): ProxyTransition {
  if (!PROXY_EVENT_NAMES.includes(event.type)) return { ok: false, status: 400, message: `unknown domain operation: ${String(event.type)}` };
  if (event.type === 'mark-step-complete' && event.step !== DNS_SWITCH_STEP) {
    return { ok: false, status: 400, message: `step must be ${DNS_SWITCH_STEP} (the DNS switch); got ${describe(event.step)}` };
  }
  const from = proxyStatusOf(current);
  const row = proxyRows(from, context).find((r) => r.event === event.type);
  if (row && from !== undefined) return { ok: true, from, to: row.to, row };
  return notAllowed(event.type, 'proxy_status', current, allowedProxyEvents(current, context));
}

/** The states an event moves the record from (table order; no proxy yet is left out). */
export function statesBefore(event: ProxyEventName): ProxyStatus[] {
  return [...new Set(PROXY_STATUS_TABLE.filter((r) => r.event === event && r.from !== null).map((r) => r.from as ProxyStatus))];
}

/** The events the table accepts in a state (in table order). */
export function allowedProxyEvents(current: string | null | undefined, context: TransitionContext = {}): ProxyEventName[] {
  return [...new Set(proxyRows(proxyStatusOf(current), context).map((r) => r.event))];
}

/**
 * Whether a reconnect needs a new certificate: only when the kept one has expired (its
 * `notAfter` is not after `now`). An unknown expiry (none recorded, unparseable) counts as
 * expired, since nothing shows the certificate can still be served.
 */
export function needsNewCertificate(notAfter: Date | string | number | null | undefined, now: Date = new Date()): boolean {
  if (notAfter === null || notAfter === undefined || notAfter === '') return true;
  const end = notAfter instanceof Date ? notAfter.getTime() : new Date(notAfter).getTime();
  return Number.isNaN(end) || end <= now.getTime();
}

// --- google_verification_status --------------------------------------------------------

export const GOOGLE_VERIFICATION_STATUSES = ['PENDING', 'VERIFIED', 'FAILED'] as const;
export type GoogleVerificationStatus = (typeof GOOGLE_VERIFICATION_STATUSES)[number];

export { VERIFICATION_POLL_ATTEMPTS, VERIFICATION_POLL_INTERVAL_SECONDS };

export type VerificationEvent =
  /** A verification token was requested (Part 1 start, start-google-verification). */
  | { type: 'start' }
  /**
   * One verification attempt: a poll (`attempt` 1..12) or a manual complete-google-verification
   * (no `attempt`; it never ends the polling).
   */
  | { type: 'check'; verified: boolean; attempt?: number };
export type VerificationEventName = VerificationEvent['type'];

/** `verified`, `not-verified` (polling goes on) or `not-verified-last` (the 12th poll, or a later one). */
export type CheckOutcome = 'verified' | 'not-verified' | 'not-verified-last';

export interface VerificationTransitionRow {
  from: GoogleVerificationStatus | null;
  event: VerificationEventName;
  outcome?: CheckOutcome;
  to: GoogleVerificationStatus;
  movedBy: string;
  also: string;
}

export const GOOGLE_VERIFICATION_TABLE: readonly VerificationTransitionRow[] = [
  { from: null, event: 'start', to: 'PENDING', movedBy: 'verification token requested', also: 'TXT record returned with the certificate records' },
  { from: 'PENDING', event: 'start', to: 'PENDING', movedBy: 'token requested again', also: 'the new token replaces the old one' },
  { from: 'FAILED', event: 'start', to: 'PENDING', movedBy: 'token requested after a failure', also: 'verification can be completed again' },
  { from: 'PENDING', event: 'check', outcome: 'verified', to: 'VERIFIED', movedBy: 'polling after Part 2 (or complete-google-verification)', also: 'IndexNow and console sitemap submission follow' },
  { from: 'PENDING', event: 'check', outcome: 'not-verified', to: 'PENDING', movedBy: 'a poll before the 12th fails', also: `next poll in ${VERIFICATION_POLL_INTERVAL_SECONDS} s` },
  { from: 'PENDING', event: 'check', outcome: 'not-verified-last', to: 'FAILED', movedBy: `the ${VERIFICATION_POLL_ATTEMPTS}th poll fails (D18)`, also: 'IndexNow only; console submission skipped' },
  { from: 'FAILED', event: 'check', outcome: 'verified', to: 'VERIFIED', movedBy: 'complete-google-verification after the polls', also: 'console sitemap submission follows' },
  { from: 'FAILED', event: 'check', outcome: 'not-verified', to: 'FAILED', movedBy: 'complete-google-verification, still not verified', also: 'nothing else' },
  { from: 'FAILED', event: 'check', outcome: 'not-verified-last', to: 'FAILED', movedBy: 'a late poll, still not verified', also: 'nothing else' },
];

export type VerificationTransition = TransitionResult<GoogleVerificationStatus, VerificationEventName, VerificationTransitionRow>;

/** Next `google_verification_status`, or the refusal (409 with the allowed events, 400 for a bad attempt number). */
export function verificationTransition(current: string | null | undefined, event: VerificationEvent): VerificationTransition {
  if (event.type !== 'start' && event.type !== 'check') return { ok: false, status: 400, message: `unknown verification event: ${String((event as { type: unknown }).type)}` };
  let outcome: CheckOutcome | undefined;
  if (event.type === 'check') {
    if (typeof event.verified !== 'boolean') return { ok: false, status: 400, message: 'verified must be a boolean' };
    if (event.attempt !== undefined && !(Number.isInteger(event.attempt) && event.attempt >= 1)) {
      return { ok: false, status: 400, message: `attempt must be a positive integer; got ${describe(event.attempt)}` };
    }
    outcome = checkOutcome(event.verified, event.attempt);
  }
  const from = verificationStatusOf(current);
  const row = verificationRows(from).find((r) => r.event === event.type && r.outcome === outcome);
  if (row && from !== undefined) return { ok: true, from, to: row.to, row };
  return notAllowed(`verification ${event.type}`, 'google_verification_status', current, allowedVerificationEvents(current));
}

export function allowedVerificationEvents(current: string | null | undefined): VerificationEventName[] {
  return [...new Set(verificationRows(verificationStatusOf(current)).map((r) => r.event))];
}

/** The outcome of one check: the 12th (or a later) failed poll ends the polling. */
export function checkOutcome(verified: boolean, attempt?: number): CheckOutcome {
  if (verified) return 'verified';
  return attempt !== undefined && attempt >= VERIFICATION_POLL_ATTEMPTS ? 'not-verified-last' : 'not-verified';
}

/** A refusal as the error a route throws (ConflictError 409 or ValidationError 400, same message). */
export function refusalError(refusal: { ok: false; status: 409 | 400; message: string }): AppError {
  return refusal.status === 409 ? new ConflictError(refusal.message) : new ValidationError(refusal.message);
}

const PROXY_EVENT_NAMES: readonly string[] = ['create-distribution', 'start-certificate', 'complete-certificate', 'mark-step-complete', 'disconnect-proxy', 'mark-disconnect-complete'];

/** The status as stored: a known value, null (not set), or undefined for an unknown string. */
function statusOf<S extends string>(statuses: readonly S[], current: string | null | undefined): S | null | undefined {
  if (current === null || current === undefined || current === '') return null;
  return (statuses as readonly string[]).includes(current) ? current as S : undefined;
}

const proxyStatusOf = (current: string | null | undefined) => statusOf(PROXY_STATUSES, current);
const verificationStatusOf = (current: string | null | undefined) => statusOf(GOOGLE_VERIFICATION_STATUSES, current);

/** The 409 of an event outside a table, naming the events allowed instead. */
function notAllowed<E extends string>(what: string, field: string, current: string | null | undefined, allowed: E[]): { ok: false; status: 409; allowed: E[]; message: string } {
  return {
    ok: false,
    status: 409,
    allowed,
    message: `${what} is not allowed while ${field} is ${current ?? 'not set'}; `
      + (allowed.length ? `allowed next: ${allowed.join(', ')}` : 'no operation is allowed in this state'),
  };
}

function proxyRows(from: ProxyStatus | null | undefined, context: TransitionContext): ProxyTransitionRow[] {
  if (from === undefined) return [];
  const certificate = context.certificateExpired ? 'expired' : 'valid';
  return PROXY_STATUS_TABLE.filter((r) => r.from === from && (r.certificate === undefined || r.certificate === certificate));
}

function verificationRows(from: GoogleVerificationStatus | null | undefined): VerificationTransitionRow[] {
  return from === undefined ? [] : GOOGLE_VERIFICATION_TABLE.filter((r) => r.from === from);
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value);
}
