/** The edge-function rollout's rules (issue 15): versions, when to publish, what to move, batches of 10, and the spec's response. */
import { EDGE_UPDATE_BATCH_PAUSE_SECONDS, EDGE_UPDATE_BATCH_SIZE } from '../../../functions/core/constants';
import {
  batchCount, batchOf, localVersionArn, needsMove, needsPublish, rolloutResponse, unversionedFunctionArn, versionNumberOf,
  type BatchOutcome,
} from '../../../functions/core/edge/rollout';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router';

test('the spec\'s numbers: batches of 10, 1 s apart', () => {
  expect([EDGE_UPDATE_BATCH_SIZE, EDGE_UPDATE_BATCH_PAUSE_SECONDS]).toEqual([10, 1]);
});

test('version ARNs: the function without its number; numbers of Lambda and local versions; anything else is none', () => {
  expect(unversionedFunctionArn(`${FN}:7`)).toBe(FN);
  expect(versionNumberOf(`${FN}:12`)).toBe('12');
  expect(versionNumberOf(localVersionArn(3))).toBe('3');
  for (const arn of [FN, `${FN}:$LATEST`, `${FN}:live`, 'arn:aws:lambda:eu-west-1:123456789012:function:r:3', 'local:edge-function:x']) {
    expect(unversionedFunctionArn(arn)).toBeNull();
    expect(versionNumberOf(arn)).toBeNull();
  }
});

test('publish only when the code differs from the current version\'s (none stored, or its code unknown: publish)', () => {
  expect(needsPublish(null, 'abc')).toBe(true);
  expect(needsPublish({ codeSha256: null }, 'abc')).toBe(true);
  expect(needsPublish({ codeSha256: 'abc' }, 'abc')).toBe(false);
  expect(needsPublish({ codeSha256: 'abc' }, 'abd')).toBe(true);
});

test('move every distribution not recorded on the current version (none recorded: move)', () => {
  expect(needsMove('v1', 'v2')).toBe(true);
  expect(needsMove(null, 'v2')).toBe(true);
  expect(needsMove(undefined, 'v2')).toBe(true);
  expect(needsMove('v2', 'v2')).toBe(false);
});

test('batches of 10 at their boundaries', () => {
  expect([0, 1, 9, 10, 11, 25, 1000].map((n) => batchCount(n))).toEqual([0, 1, 1, 1, 2, 3, 100]);
  const items = Array.from({ length: 25 }, (_, i) => i);
  expect(batchOf(items, 0)).toEqual(items.slice(0, 10));
  expect(batchOf(items, 2)).toEqual([20, 21, 22, 23, 24]);
  expect(batchOf(items, 3)).toEqual([]);
  expect(() => batchOf(items, -1)).toThrow(RangeError);
  expect(() => batchOf(items, 0.5)).toThrow(RangeError);
});

describe('the response', () => {
  const batch = (n: number, moved: string[], failed: string[] = []): BatchOutcome => ({
    batch: n, started_at: 't', finished_at: 't', moved, failed: failed.map((id) => ({ distribution_id: id, status: 'error', error: `${id} refused` })),
  });

  test('partial failure is still success; failed_details lists each failure in batch order; a batch counted once', () => {
    const plan = { edge_function_arn: `${FN}:8`, published: true, total: 5 };
    const response = rolloutResponse(plan, [batch(1, ['E4'], ['E5']), batch(0, ['E1', 'E2'], ['E3']), batch(1, ['E4'], ['E5'])]);
    expect(response).toEqual({
      status: 'success',
      edge_function_arn: `${FN}:8`,
      published: true,
      distributions: {
        total: 5, successful: 3, failed: 2,
        failed_details: [{ distribution_id: 'E3', status: 'error', error: 'E3 refused' }, { distribution_id: 'E5', status: 'error', error: 'E5 refused' }],
      },
      batches: 2,
    });
  });

  test('no failure: failed_details is null; nothing to move: zeros and no batches', () => {
    expect(rolloutResponse({ edge_function_arn: 'v', published: false, total: 1 }, [batch(0, ['E1'])]).distributions)
      .toEqual({ total: 1, successful: 1, failed: 0, failed_details: null });
    expect(rolloutResponse({ edge_function_arn: 'v', published: false, total: 0 }, []))
      .toMatchObject({ status: 'success', distributions: { total: 0, successful: 0, failed: 0, failed_details: null }, batches: 0 });
  });
});
