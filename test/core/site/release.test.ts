/** Issue 23.4: a superseded release outlives its readers before it is pruned. */
import {
  isReleaseId, newReleaseId, readPinnedRelease, RELEASE_READER_GRACE_MS, releaseCreatedAt, releasesToPrune, RELEASES_KEPT,
} from '../../../functions/core/site/release';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;
/** Release i created i minutes after T0. */
const id = (i: number) => newReleaseId(new Date(T0 + i * MIN));
const at = (minutes: number) => new Date(T0 + minutes * MIN);

describe('releaseCreatedAt', () => {
  test('reads back the time newReleaseId encoded, to the millisecond', () => {
    const now = new Date(Date.UTC(2026, 10, 21, 22, 9, 0, 123));
    expect(releaseCreatedAt(newReleaseId(now))).toEqual(now);
    expect(releaseCreatedAt('20261121T220900123Z-a1b2c3')).toEqual(now);
  });

  test('null for ids it did not make', () => {
    expect(releaseCreatedAt('R1')).toBeNull();
    expect(releaseCreatedAt('20261399T999999999Z-a1b2c3')).toBeNull();
  });
});

describe('releasesToPrune', () => {
  test('the grace is 15 minutes and 5 releases are kept', () => {
    expect(RELEASE_READER_GRACE_MS).toBe(15 * MIN);
    expect(RELEASES_KEPT).toBe(5);
  });

  test('nothing within the newest `keep`', () => {
    const releases = [0, 1, 2].map(id);
    expect(releasesToPrune(releases, releases[2], at(1000), 3)).toEqual([]);
  });

  test('an old release stays until its successor is older than the grace', () => {
    const releases = [0, 1, 2, 3, 4].map(id); // keep 3: releases 0 and 1 are candidates
    // Release 0 superseded at minute 1, release 1 at minute 2.
    expect(releasesToPrune(releases, releases[4], at(16), 3)).toEqual([]);
    expect(releasesToPrune(releases, releases[4], at(16), 3, 15 * MIN - 1)).toEqual([releases[0]]);
    expect(releasesToPrune(releases, releases[4], at(16.001), 3)).toEqual([releases[0]]);
    expect(releasesToPrune(releases, releases[4], at(17.001), 3)).toEqual([releases[0], releases[1]]);
  });

  test('a release just replaced stays even far beyond `keep`', () => {
    // Ten releases in the last ten minutes: every old one was superseded less than the grace ago.
    const releases = Array.from({ length: 10 }, (_, i) => id(100 + i));
    expect(releasesToPrune(releases, releases[9], at(110), 3)).toEqual([]);
  });

  test('never the current release (a rollback target), whatever its age', () => {
    const releases = [0, 1, 2, 3, 4].map(id);
    expect(releasesToPrune(releases, releases[0], at(1000), 2)).toEqual([releases[1], releases[2]]);
  });

  test('order of the input does not matter; a successor without a time keeps its predecessor', () => {
    const releases = [0, 1, 2, 3].map(id);
    expect(releasesToPrune([...releases].reverse(), releases[3], at(1000), 2)).toEqual([releases[0], releases[1]]);
    expect(releasesToPrune([releases[0], releases[1], 'zzz-manual'], 'zzz-manual', at(1000), 1)).toEqual([releases[0]]);
    expect(releasesToPrune(['A', 'B', 'C'], 'C', at(1000), 1)).toEqual([]);
  });
});

describe('isReleaseId', () => {
  test('refuses anything that could leave the releases folder or name a staging file', () => {
    expect(isReleaseId(id(0))).toBe(true);
    expect(isReleaseId('R1')).toBe(true);
    for (const bad of ['', '.', '..', '../x', 'a/b', '.staging-x', '.current-x']) expect(isReleaseId(bad)).toBe(false);
  });
});

describe('readPinnedRelease', () => {
  test('pins once and reads that release', async () => {
    const pin = jest.fn(async () => 'R2');
    const read = jest.fn(async (releaseId: string) => ({ releaseId }));
    await expect(readPinnedRelease(pin, read, 'shop')).resolves.toEqual({ releaseId: 'R2' });
    expect(pin).toHaveBeenCalledTimes(1);
    expect(read).toHaveBeenCalledWith('R2');
  });

  test('no pointer: no site', async () => {
    await expect(readPinnedRelease(async () => null, async () => ({}), 'shop')).resolves.toBeNull();
  });

  test('a pinned release lost under a stalled reader: re-pins once, then fails loudly instead of answering "no site"', async () => {
    const pins = ['R1', 'R2'];
    await expect(readPinnedRelease(async () => pins.shift()!, async (r) => (r === 'R2' ? { r } : null), 'shop')).resolves.toEqual({ r: 'R2' });
    await expect(readPinnedRelease(async () => 'R1', async () => null, 'shop')).rejects.toThrow(/current release R1 of shop is missing/);
  });
});
