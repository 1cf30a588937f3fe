/**
 * Shared by the platform client tests: deps with an injected clock, sleep and jitter (no
 * test ever waits), a capturing logger, and a fetch that records every URL asked.
 */
import type { PlatformKey } from '../../../functions/core/constants';
import type { PlatformClient, PlatformOutcome } from '../../../functions/core/visibility/platform-answer';
import type { PlatformDeps } from '../../../functions/adapters/external/platforms';
import type { ProviderFetch } from '../../../functions/adapters/external/provider-fetch';
import type { Logger } from '../../../functions/logger';

export interface Captured { level: string; msg: string; fields?: Record<string, unknown> }

export function captureLogger(lines: Captured[] = []): Logger & { lines: Captured[] } {
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => { lines.push({ level, msg, fields }); };
  const log: Logger & { lines: Captured[] } = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return log;
}

export interface TestDeps {
  deps: PlatformDeps;
  log: Logger & { lines: Captured[] };
  /** Delays the client slept, ms. */
  sleeps: number[];
  /** URLs fetched, in order. */
  urls: string[];
  /** The fake clock, ms: each request takes 25 ms, each sleep its delay. */
  clock: { t: number };
}

export const REQUEST_MS = 25;

export function testDeps(extra: Partial<PlatformDeps> = {}): TestDeps {
  const sleeps: number[] = [];
  const urls: string[] = [];
  const clock = { t: 1_000_000 };
  const log = captureLogger();
  const fetchImpl: ProviderFetch = async (url, init) => {
    urls.push(url);
    clock.t += REQUEST_MS;
    return fetch(url, init);
  };
  const deps: PlatformDeps = {
    fetchImpl,
    log,
    random: () => 0.5,
    sleep: async (ms) => { sleeps.push(ms); clock.t += ms; },
    now: () => clock.t,
    timeoutMs: 5000,
    ...extra,
  };
  return { deps, log, sleeps, urls, clock };
}

/** A fetch that answers every request with one canned body (for shapes a fake does not produce). */
export function cannedFetch(status: number, body: unknown, calls: string[] = []): ProviderFetch {
  return async (url) => {
    calls.push(url);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return { status, headers: { get: () => null }, text: async () => text };
  };
}

export function expectOk(outcome: PlatformOutcome) {
  if (!outcome.ok) throw new Error(`expected an answer, got ${outcome.failure.kind}: ${outcome.failure.reason}`);
  return outcome.answer;
}

export function expectFailure(outcome: PlatformOutcome, kind: 'unconfigured' | 'failed' | 'budget' | 'no_answer') {
  if (outcome.ok) throw new Error(`expected ${kind}, got an answer: ${outcome.answer.text}`);
  expect(outcome.failure.kind).toBe(kind);
  return outcome.failure;
}

/** Everything a client said: outcomes' reasons and every log line. */
export function everythingSaid(log: { lines: Captured[] }, outcomes: PlatformOutcome[]): string {
  return JSON.stringify({ lines: log.lines, outcomes });
}

export type ClientFactory = (settings: { apiUrl?: string; apiKey?: string; model?: string }, deps: PlatformDeps) => PlatformClient;

export const platformNumber = (p: PlatformKey): number => Number(p.slice('platform_'.length));
