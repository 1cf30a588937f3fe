/** forEachBounded: a stream worked through at most `concurrency` at a time, read no faster, and nothing left running when it fails. */
import { forEachBounded } from '../../../functions/core/util/for-each-bounded';

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('at most `concurrency` items in work at once, and the stream is read only as slots free up', async () => {
  let read = 0;
  let active = 0;
  let most = 0;
  let readAhead = 0;
  async function* items() {
    for (let i = 0; i < 30; i++) {
      read++;
      yield i;
    }
  }
  const done: number[] = [];
  await forEachBounded(items(), 3, async (i) => {
    active++;
    most = Math.max(most, active);
    readAhead = Math.max(readAhead, read - done.length);
    await tick();
    active--;
    done.push(i);
  });
  expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  expect(most).toBe(3);
  expect(readAhead).toBeLessThanOrEqual(3);
});

test('a failing item stops the reading; the work already started finishes before the failure is thrown', async () => {
  let read = 0;
  const finished: number[] = [];
  const items = (function* () { for (let i = 0; i < 100; i++) { read++; yield i; } })();
  await expect(forEachBounded(items, 4, async (i) => {
    await tick();
    if (i === 5) throw new Error('item 5 failed');
    await tick();
    finished.push(i);
  })).rejects.toThrow('item 5 failed');
  const settled = [...finished];
  await tick();
  await tick();
  expect(finished).toEqual(settled); // nothing still running behind the caller
  expect(read).toBeLessThan(12);
});

test('a stream that throws: the started work finishes before its error is thrown', async () => {
  const finished: number[] = [];
  async function* items() {
    yield 1;
    yield 2;
    throw new Error('the stream failed');
  }
  await expect(forEachBounded(items(), 4, async (i) => { await tick(); await tick(); finished.push(i); })).rejects.toThrow('the stream failed');
  expect(finished.sort()).toEqual([1, 2]);
});
