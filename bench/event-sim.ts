/**
 * Discrete-event primitives of the capacity simulation (capacity-simulation.ts): seeded
 * per-item random streams, an event heap keyed by simulated time, a FIFO queue, and the
 * makespan of jobs list-scheduled on a number of workers.
 */
/** A per-business seed: seed and index mixed (murmur3's finaliser), so neighbouring businesses draw unrelated streams. */
export function streamSeed(seed: number, index: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Binary min-heap of events by (time, insertion order): equal times run in the order they were scheduled. */
export class EventHeap {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly fns: Array<() => void> = [];
  private seq = 0;

  get size(): number {
    return this.times.length;
  }

  push(time: number, fn: () => void): void {
    const { times, seqs, fns } = this;
    const s = this.seq++;
    let i = times.length;
    times.push(time);
    seqs.push(s);
    fns.push(fn);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (times[parent] < time || (times[parent] === time && seqs[parent] < s)) break;
      times[i] = times[parent];
      seqs[i] = seqs[parent];
      fns[i] = fns[parent];
      i = parent;
    }
    times[i] = time;
    seqs[i] = s;
    fns[i] = fn;
  }

  /** The earliest event's time (call only when size > 0). */
  peekTime(): number {
    return this.times[0];
  }

  pop(): () => void {
    const { times, seqs, fns } = this;
    const top = fns[0];
    const lastTime = times.pop()!;
    const lastSeq = seqs.pop()!;
    const lastFn = fns.pop()!;
    const n = times.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && (times[r] < times[l] || (times[r] === times[l] && seqs[r] < seqs[l]))) c = r;
        if (lastTime < times[c] || (lastTime === times[c] && lastSeq < seqs[c])) break;
        times[i] = times[c];
        seqs[i] = seqs[c];
        fns[i] = fns[c];
        i = c;
      }
      times[i] = lastTime;
      seqs[i] = lastSeq;
      fns[i] = lastFn;
    }
    return top;
  }
}

/** FIFO with an advancing head (no O(n) shift). */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T {
    return this.items[this.head];
  }

  shift(): T {
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Makespan of jobs started in order on `workers` workers, each job on the first free one. */
export function listScheduleMakespan(durations: ArrayLike<number>, workers: number, offset = 0, count = durations.length): number {
  if (count === 0) return 0;
  const w = Math.max(1, Math.min(workers, count));
  const free = new Float64Array(w);
  let end = 0;
  for (let j = 0; j < count; j++) {
    let best = 0;
    for (let i = 1; i < w; i++) if (free[i] < free[best]) best = i;
    free[best] += durations[offset + j];
    if (free[best] > end) end = free[best];
  }
  return end;
}

