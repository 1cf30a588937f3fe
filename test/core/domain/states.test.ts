import {
  allowedProxyEvents, allowedVerificationEvents, checkOutcome, DNS_SWITCH_STEP, GOOGLE_VERIFICATION_STATUSES, GOOGLE_VERIFICATION_TABLE,
  needsNewCertificate, PROXY_STATUS_TABLE, PROXY_STATUSES, refusalError, transition, VERIFICATION_POLL_ATTEMPTS,
  VERIFICATION_POLL_INTERVAL_SECONDS, verificationTransition,
  type ProxyEvent, type ProxyEventName, type ProxyStatus, type VerificationEvent,
} from '../../../functions/core/domain/states';
import { ConflictError, ValidationError } from '../../../functions/core/errors';

const EVENTS: ProxyEventName[] = ['create-distribution', 'start-certificate', 'complete-certificate', 'mark-step-complete', 'disconnect-proxy', 'mark-disconnect-complete'];
const event = (type: ProxyEventName): ProxyEvent => (type === 'mark-step-complete' ? { type, step: 2 } : { type }) as ProxyEvent;
const STATES: (ProxyStatus | null)[] = [null, ...PROXY_STATUSES];

/** The spec's proxy_status table (plus the reconnect rule for an expired certificate), written out independently. */
const SPEC_ROWS: [ProxyStatus | null, ProxyEventName, 'valid' | 'expired' | undefined, ProxyStatus][] = [
  [null, 'create-distribution', undefined, 'PENDING_VALIDATION'],
  ['PENDING_VALIDATION', 'start-certificate', undefined, 'SSL_VALIDATING'],
  ['SSL_VALIDATING', 'start-certificate', undefined, 'SSL_VALIDATING'],
  ['PENDING_VALIDATION', 'complete-certificate', undefined, 'SSL_VALIDATED'],
  ['SSL_VALIDATING', 'complete-certificate', undefined, 'SSL_VALIDATED'],
  ['SSL_VALIDATED', 'mark-step-complete', undefined, 'DEPLOYED'],
  ['DEPLOYED', 'disconnect-proxy', undefined, 'DEPLOYED'],
  ['DEPLOYED', 'mark-disconnect-complete', undefined, 'DISCONNECTED'],
  ['DISCONNECTED', 'mark-step-complete', 'valid', 'DEPLOYED'],
  ['DISCONNECTED', 'start-certificate', 'expired', 'SSL_VALIDATING'],
];

/** Allowed events per state (certificate valid / expired only matters when DISCONNECTED). */
const ALLOWED: Record<string, ProxyEventName[]> = {
  null: ['create-distribution'],
  PENDING_VALIDATION: ['start-certificate', 'complete-certificate'],
  SSL_VALIDATING: ['start-certificate', 'complete-certificate'],
  SSL_VALIDATED: ['mark-step-complete'],
  DEPLOYED: ['disconnect-proxy', 'mark-disconnect-complete'],
  'DISCONNECTED/valid': ['mark-step-complete'],
  'DISCONNECTED/expired': ['start-certificate'],
};
const allowedKey = (state: ProxyStatus | null, expired: boolean) => (state === 'DISCONNECTED' ? `DISCONNECTED/${expired ? 'expired' : 'valid'}` : String(state));

describe('proxy_status table', () => {
  test('the data is the spec table', () => {
    expect(PROXY_STATUS_TABLE.map((r) => [r.from, r.event, r.certificate, r.to])).toEqual(SPEC_ROWS);
    for (const row of PROXY_STATUS_TABLE) {
      expect(row.movedBy).not.toBe('');
      expect(row.also).not.toBe('');
    }
  });

  test.each(SPEC_ROWS)('row %s + %s (certificate %s) → %s', (from, type, certificate, to) => {
    const result = transition(from, event(type), { certificateExpired: certificate === 'expired' });
    expect(result).toEqual({ ok: true, from, to, row: expect.objectContaining({ from, event: type, to }) });
  });

  const refused = STATES.flatMap((state) => [false, true].flatMap((expired) => EVENTS
    .filter((type) => !SPEC_ROWS.some(([f, e, c]) => f === state && e === type && (c === undefined || c === (expired ? 'expired' : 'valid'))))
    .map((type) => [state, type, expired] as const)));

  test('every refused transition is listed (state × event × certificate)', () => {
    // 6 states × 6 events × 2 certificate cases, less the accepted ones
    expect(refused.length).toBe(6 * 6 * 2 - (SPEC_ROWS.length - 2) * 2 - 2);
  });

  test.each(refused)('refused: %s + %s (certificate expired: %s) → 409 with the allowed next events', (state, type, expired) => {
    const result = transition(state, event(type), { certificateExpired: expired });
    const allowed = ALLOWED[allowedKey(state, expired)];
    expect(result).toEqual({ ok: false, status: 409, allowed, message: expect.stringContaining(`${type} is not allowed while proxy_status is ${state ?? 'not set'}`) });
    if (!result.ok) expect(result.message).toContain(`allowed next: ${allowed.join(', ')}`);
  });

  test('allowed events by state', () => {
    for (const state of STATES) {
      for (const expired of [false, true]) expect(allowedProxyEvents(state, { certificateExpired: expired })).toEqual(ALLOWED[allowedKey(state, expired)]);
    }
    expect(allowedProxyEvents(undefined)).toEqual(['create-distribution']);
    expect(allowedProxyEvents('')).toEqual(['create-distribution']);
  });

  test('an unknown stored status allows nothing', () => {
    expect(transition('BOGUS', event('start-certificate'))).toEqual({ ok: false, status: 409, allowed: [], message: expect.stringContaining('no operation is allowed') });
  });

  test.each([1, 3, 0, -2, '2', 2.5, null, undefined, [2], { step: 2 }])('mark-step-complete with step %p → 400 in every state', (step) => {
    for (const state of STATES) {
      const result = transition(state, { type: 'mark-step-complete', step });
      expect(result).toEqual({ ok: false, status: 400, message: expect.stringContaining(`step must be ${DNS_SWITCH_STEP}`) });
    }
  });

  test('an unknown operation is a 400', () => {
    expect(transition('DEPLOYED', { type: 'explode' } as unknown as ProxyEvent)).toMatchObject({ ok: false, status: 400 });
  });

  test('the whole life: connect, disconnect, reconnect with an unexpired certificate', () => {
    const path: [ProxyEvent, ProxyStatus][] = [
      [{ type: 'create-distribution' }, 'PENDING_VALIDATION'],
      [{ type: 'start-certificate' }, 'SSL_VALIDATING'],
      [{ type: 'start-certificate' }, 'SSL_VALIDATING'],
      [{ type: 'complete-certificate' }, 'SSL_VALIDATED'],
      [{ type: 'mark-step-complete', step: 2 }, 'DEPLOYED'],
      [{ type: 'disconnect-proxy' }, 'DEPLOYED'],
      [{ type: 'mark-disconnect-complete' }, 'DISCONNECTED'],
      [{ type: 'mark-step-complete', step: 2 }, 'DEPLOYED'],
    ];
    let state: ProxyStatus | null = null;
    for (const [e, to] of path) {
      const result = transition(state, e, { certificateExpired: false });
      expect(result).toMatchObject({ ok: true, to });
      state = to;
    }
  });

  test('reconnect with an expired certificate: a new certificate first, then the DNS step', () => {
    const notAfter = '2026-01-01T00:00:00Z';
    const now = new Date('2026-03-01T00:00:00Z');
    const context = { certificateExpired: needsNewCertificate(notAfter, now) };
    expect(context.certificateExpired).toBe(true);
    expect(transition('DISCONNECTED', { type: 'mark-step-complete', step: 2 }, context)).toEqual({
      ok: false, status: 409, allowed: ['start-certificate'], message: expect.any(String),
    });
    expect(transition('DISCONNECTED', { type: 'start-certificate' }, context)).toMatchObject({ ok: true, to: 'SSL_VALIDATING' });
    expect(transition('SSL_VALIDATING', { type: 'complete-certificate' })).toMatchObject({ ok: true, to: 'SSL_VALIDATED' });
    expect(transition('SSL_VALIDATED', { type: 'mark-step-complete', step: 2 })).toMatchObject({ ok: true, to: 'DEPLOYED' });
  });

  test('reconnect with an unexpired certificate goes straight to DEPLOYED; no new certificate is started', () => {
    const context = { certificateExpired: needsNewCertificate(new Date('2026-05-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z')) };
    expect(context.certificateExpired).toBe(false);
    expect(transition('DISCONNECTED', { type: 'mark-step-complete', step: 2 }, context)).toMatchObject({ ok: true, to: 'DEPLOYED' });
    expect(transition('DISCONNECTED', { type: 'start-certificate' }, context)).toMatchObject({ ok: false, status: 409, allowed: ['mark-step-complete'] });
  });

  test('needsNewCertificate: only when expired (or nothing shows it is not)', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(needsNewCertificate('2026-03-01T12:00:01Z', now)).toBe(false);
    expect(needsNewCertificate(new Date('2026-03-01T12:00:00Z'), now)).toBe(true);
    expect(needsNewCertificate(Date.parse('2026-02-28T00:00:00Z'), now)).toBe(true);
    expect(needsNewCertificate(null, now)).toBe(true);
    expect(needsNewCertificate(undefined, now)).toBe(true);
    expect(needsNewCertificate('not a date', now)).toBe(true);
    expect(needsNewCertificate(new Date(Date.now() + 86_400_000))).toBe(false);
  });

  test('refusals become the errors a route throws', () => {
    const conflict = transition('DEPLOYED', { type: 'start-certificate' });
    const bad = transition('SSL_VALIDATED', { type: 'mark-step-complete', step: 1 });
    if (conflict.ok || bad.ok) throw new Error('expected refusals');
    expect(refusalError(conflict)).toBeInstanceOf(ConflictError);
    expect(refusalError(conflict).message).toMatch(/allowed next: disconnect-proxy, mark-disconnect-complete/);
    expect(refusalError(bad)).toBeInstanceOf(ValidationError);
  });
});

describe('google_verification_status table', () => {
  const V_ROWS: [string | null, VerificationEvent['type'], string | undefined, string][] = [
    [null, 'start', undefined, 'PENDING'],
    ['PENDING', 'start', undefined, 'PENDING'],
    ['FAILED', 'start', undefined, 'PENDING'],
    ['PENDING', 'check', 'verified', 'VERIFIED'],
    ['PENDING', 'check', 'not-verified', 'PENDING'],
    ['PENDING', 'check', 'not-verified-last', 'FAILED'],
    ['FAILED', 'check', 'verified', 'VERIFIED'],
    ['FAILED', 'check', 'not-verified', 'FAILED'],
    ['FAILED', 'check', 'not-verified-last', 'FAILED'],
  ];
  const eventFor = (type: VerificationEvent['type'], outcome?: string): VerificationEvent => {
    if (type === 'start') return { type };
    if (outcome === 'verified') return { type, verified: true, attempt: 3 };
    return { type, verified: false, attempt: outcome === 'not-verified-last' ? VERIFICATION_POLL_ATTEMPTS : 1 };
  };

  test('D18: 12 polls, 10 s apart', () => {
    expect(VERIFICATION_POLL_ATTEMPTS).toBe(12);
    expect(VERIFICATION_POLL_INTERVAL_SECONDS).toBe(10);
    expect(GOOGLE_VERIFICATION_STATUSES).toEqual(['PENDING', 'VERIFIED', 'FAILED']);
  });

  test('the data is the table', () => {
    expect(GOOGLE_VERIFICATION_TABLE.map((r) => [r.from, r.event, r.outcome, r.to])).toEqual(V_ROWS);
  });

  test.each(V_ROWS)('row %s + %s (%s) → %s', (from, type, outcome, to) => {
    expect(verificationTransition(from, eventFor(type, outcome))).toEqual({ ok: true, from, to, row: expect.objectContaining({ from, event: type, to }) });
  });

  const refused: [string | null, VerificationEvent['type'], string | undefined][] = [
    [null, 'check', 'verified'], [null, 'check', 'not-verified'], [null, 'check', 'not-verified-last'],
    ['VERIFIED', 'start', undefined], ['VERIFIED', 'check', 'verified'], ['VERIFIED', 'check', 'not-verified'], ['VERIFIED', 'check', 'not-verified-last'],
  ];
  const V_ALLOWED: Record<string, string[]> = { null: ['start'], VERIFIED: [] };

  test.each(refused)('refused: %s + %s (%s) → 409 with the allowed next events', (from, type, outcome) => {
    expect(verificationTransition(from, eventFor(type, outcome))).toEqual({ ok: false, status: 409, allowed: V_ALLOWED[String(from)], message: expect.any(String) });
  });

  test('every state × event × outcome is either a row or refused', () => {
    const combos = [null, ...GOOGLE_VERIFICATION_STATUSES].flatMap((s) => [['start', undefined], ['check', 'verified'], ['check', 'not-verified'], ['check', 'not-verified-last']].map(([e, o]) => [s, e, o]));
    expect(combos.length).toBe(V_ROWS.length + refused.length);
    expect(allowedVerificationEvents('PENDING')).toEqual(['start', 'check']);
    expect(allowedVerificationEvents('FAILED')).toEqual(['start', 'check']);
    expect(allowedVerificationEvents('VERIFIED')).toEqual([]);
    expect(allowedVerificationEvents('???')).toEqual([]);
  });

  test('polling: 11 failed polls stay PENDING, the 12th fails; a success at any poll verifies', () => {
    let status: string = 'PENDING';
    for (let attempt = 1; attempt <= VERIFICATION_POLL_ATTEMPTS; attempt++) {
      const result = verificationTransition(status, { type: 'check', verified: false, attempt });
      if (!result.ok) throw new Error(result.message);
      status = result.to;
      expect(status).toBe(attempt < VERIFICATION_POLL_ATTEMPTS ? 'PENDING' : 'FAILED');
    }
    expect(verificationTransition('PENDING', { type: 'check', verified: true, attempt: 12 })).toMatchObject({ ok: true, to: 'VERIFIED' });
    expect(verificationTransition('PENDING', { type: 'check', verified: false })).toMatchObject({ ok: true, to: 'PENDING' }); // manual check never ends polling
    expect(checkOutcome(false, 13)).toBe('not-verified-last');
    expect(checkOutcome(false, 11)).toBe('not-verified');
    expect(checkOutcome(true, 1)).toBe('verified');
  });

  test.each([0, -1, 1.5, Number.NaN])('a bad attempt number (%p) is a 400', (attempt) => {
    expect(verificationTransition('PENDING', { type: 'check', verified: false, attempt })).toMatchObject({ ok: false, status: 400 });
  });

  test('a non-boolean verified, or an unknown event, is a 400', () => {
    expect(verificationTransition('PENDING', { type: 'check', verified: 'yes' } as unknown as VerificationEvent)).toMatchObject({ ok: false, status: 400 });
    expect(verificationTransition('PENDING', { type: 'poke' } as unknown as VerificationEvent)).toMatchObject({ ok: false, status: 400 });
  });
});
