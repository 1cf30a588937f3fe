import { chunkByBudget, countLabels } from '../../functions/core/util/collections';

test('chunkByBudget: by count, by budget, and an oversize item alone', () => {
  expect(chunkByBudget([1, 1, 1, 1, 1], () => 1, 2, 100)).toEqual([[1, 1], [1, 1], [1]]);
  expect(chunkByBudget([3, 3, 3], (n) => n, 10, 7)).toEqual([[3, 3], [3]]);
  expect(chunkByBudget([2, 50, 2], (n) => n, 10, 10)).toEqual([[2], [50], [2]]);
  expect(chunkByBudget([], () => 1, 2, 2)).toEqual([]);
});

test('countLabels: case-insensitive, first spelling kept, blanks ignored, most common first then alphabetical', () => {
  expect(countLabels(['Coffee', 'coffee', ' ', 'Gear', 'Apron', 'COFFEE'], (s) => s)).toEqual([
    { label: 'Coffee', count: 3 }, { label: 'Apron', count: 1 }, { label: 'Gear', count: 1 },
  ]);
});
