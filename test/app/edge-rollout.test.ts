/**
 * The rollout's first step, `currentVersion` (issue 15), with in-memory fakes of the version
 * store and the publisher: publish only when the code changed; a deployment's first rollout
 * adopts the bootstrap setting when that version already has the code of `$LATEST`.
 */
import { currentVersion } from '../../functions/app/edge/rollout';
import type { Container } from '../../functions/container';
import type { EdgeVersion } from '../../functions/core/edge/rollout';
import type { EdgeFunctionPublisher, EdgeVersionRepository } from '../../functions/core/edge/types';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router';

describe('currentVersion: publish only when the code changed', () => {
  function fakes(options: { stored?: EdgeVersion | null; latest: string; versions?: Record<string, string>; bootstrap?: string }) {
    let stored = options.stored ?? null;
    const published: string[] = [];
    let next = 8;
    const repo = {
      current: async () => stored,
      saveCurrent: async (v: EdgeVersion, previous: string | null) => {
        if ((stored?.versionArn ?? null) !== previous) return stored!;
        stored = v;
        return v;
      },
    } as unknown as EdgeVersionRepository;
    const publisher: EdgeFunctionPublisher = {
      latestCodeSha256: async () => options.latest,
      versionCodeSha256: async (arn) => options.versions?.[arn] ?? null,
      publish: async (sha) => {
        const versionArn = `${FN}:${next++}`;
        published.push(versionArn);
        return { versionArn, version: versionArn.split(':').pop()!, codeSha256: sha };
      },
    };
    const container = { clock: { now: () => new Date('2026-03-01T00:00:00.000Z') }, config: { cdn: { edgeFunctionVersionArn: options.bootstrap } } } as unknown as Container;
    return { repo, publisher, container, published, stored: () => stored };
  }
  const v = (n: number, sha: string): EdgeVersion => ({ versionArn: `${FN}:${n}`, codeSha256: sha, version: String(n), publishedAt: 'x', publishedBy: 'e' });

  test('unchanged code: the stored version, nothing published', async () => {
    const f = fakes({ stored: v(7, 'same'), latest: 'same' });
    await expect(currentVersion(f.container, f.publisher, f.repo, 'exec')).resolves.toEqual({ version: v(7, 'same'), published: false });
    expect(f.published).toEqual([]);
  });

  test('changed code: a new version, stored as current, published by this execution', async () => {
    const f = fakes({ stored: v(7, 'old'), latest: 'new' });
    const result = await currentVersion(f.container, f.publisher, f.repo, 'exec-2');
    expect(result).toEqual({ version: { versionArn: `${FN}:8`, codeSha256: 'new', version: '8', publishedAt: '2026-03-01T00:00:00.000Z', publishedBy: 'exec-2' }, published: true });
    expect(f.stored()?.versionArn).toBe(`${FN}:8`);
  });

  test('first rollout: the bootstrap setting is adopted when it already has the code of $LATEST (nothing published)', async () => {
    const f = fakes({ latest: 'boot', versions: { [`${FN}:7`]: 'boot' }, bootstrap: `${FN}:7` });
    const result = await currentVersion(f.container, f.publisher, f.repo, 'exec');
    expect(result).toEqual({ version: { versionArn: `${FN}:7`, codeSha256: 'boot', version: '7', publishedAt: '2026-03-01T00:00:00.000Z', publishedBy: null }, published: false });
    expect(f.published).toEqual([]);
  });

  test('first rollout with code newer than the bootstrap version (or none configured, locally): published', async () => {
    const f = fakes({ latest: 'newer', versions: { [`${FN}:7`]: 'boot' }, bootstrap: `${FN}:7` });
    await expect(currentVersion(f.container, f.publisher, f.repo, 'exec')).resolves.toMatchObject({ version: { versionArn: `${FN}:8` }, published: true });
    const g = fakes({ latest: 'code' });
    await expect(currentVersion(g.container, g.publisher, g.repo, 'exec')).resolves.toMatchObject({ published: true });
  });
});
