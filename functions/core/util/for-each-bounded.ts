/**
 * `work` on every item of a stream, at most `concurrency` at a time, reading the stream only as
 * fast as work finishes: a producer of 65,000 files never has them all queued in memory (as an
 * unbounded p-limit queue would). The first failure (of the work or of the stream) stops
 * reading; the work already started is awaited, then that failure is thrown.
 */
export async function forEachBounded<T>(
  items: Iterable<T> | AsyncIterable<T>, concurrency: number, work: (item: T) => Promise<unknown>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  // Set in the tasks' callbacks (the cast keeps TypeScript from narrowing it to null here).
  let failure = null as { error: unknown } | null;
  try {
    for await (const item of items) {
      const task: Promise<void> = Promise.resolve().then(() => work(item)).then(
        () => { running.delete(task); },
        (error: unknown) => { running.delete(task); failure ??= { error }; },
      );
      running.add(task);
      while (running.size >= concurrency && !failure) await Promise.race(running);
      if (failure) break;
    }
  } finally {
    // Also when the stream itself throws: nothing started is left running behind the caller.
    await Promise.all(running);
  }
  if (failure) throw failure.error;
}
