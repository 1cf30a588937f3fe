/**
 * A dashboard polling the onboarding status every 500 ms (or right after a slower answer)
 * while work runs: each answer's time, and the polls that got no answer (a reset, a 30 s
 * timeout) or a status other than 200. The onboarding bench prints its figures; the
 * large-store test holds it to "no poll fails" (never to a time).
 */
export interface PollFigure {
  polls: number;
  /** Polls that got no HTTP answer (a reset, a 30 s timeout) or a status other than 200. */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: string[];
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN);

/** Starts polling `url` with the bearer `token` until `stop()`. */
export function startStatusPoller(url: string, token: string): { stop(): Promise<PollFigure> } {
  const latencies: number[] = [];
  const errors: string[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      try {
        const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== 200) errors.push(`HTTP ${res.status}`);
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } };
        errors.push(e.cause?.code ?? e.name);
      }
      const took = performance.now() - t0;
      latencies.push(took);
      if (took < 500) await new Promise((r) => setTimeout(r, 500 - took));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { polls: sorted.length, failed: errors.length, p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99), maxMs: sorted.at(-1) ?? NaN, errors: [...new Set(errors)] };
    },
  };
}
