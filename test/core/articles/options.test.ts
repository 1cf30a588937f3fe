/** Option values said in words (D178): counts, plurals, units in brackets, agreement, differences. */
import { optionDifferences, optionsSentence } from '../../../functions/core/articles/options';
import type { ProductSheet } from '../../../functions/core/articles/facts';

const sheet = (label: string, options: ProductSheet['options']) => ({ label, options }) as ProductSheet;

test('one sentence naming every value, the verb agreeing with the subject', () => {
  expect(optionsSentence('Enamel Camp Mug', [{ name: 'Color', values: ['Navy', 'Bone'] }])).toBe('The Enamel Camp Mug comes in two colors (Navy and Bone).');
  expect(optionsSentence('Cold Brew Pitcher Packs', [{ name: 'Grind', values: ['Coarse', 'Fine', 'Espresso'] }, { name: 'Size (oz)', values: ['8', '16'] }]))
    .toBe('The Cold Brew Pitcher Packs come in three grinds (Coarse, Fine and Espresso) and two sizes in oz (8 and 16).');
  const eleven = Array.from({ length: 11 }, (_, i) => `S${i + 1}`);
  expect(optionsSentence('Tee', [{ name: 'Size', values: eleven }])).toBe(`The Tee comes in 11 sizes (${eleven.slice(0, -1).join(', ')} and S11).`);
});

test('differences: what both come in, what only one does; none when the values are the same', () => {
  const towel1 = sheet('Towel 1', [{ name: 'Size', values: ['Hand', 'Mat'] }, { name: 'Color', values: ['Black', 'Sage'] }]);
  const towel2 = sheet('Towel 2', [{ name: 'size', values: ['Hand', 'Mat'] }, { name: 'Color', values: ['Sage', 'Rose'] }]);
  expect(optionDifferences(towel1, towel2)).toEqual({
    differ: true,
    sentences: ['Sizes: both come in Hand and Mat.', 'Colors: both come in Sage; only the Towel 1 comes in Black; only the Towel 2 comes in Rose.'],
  });
  expect(optionDifferences(towel1, sheet('Towel 3', towel1.options)).differ).toBe(false);
  // An option only one of them has is not compared.
  expect(optionDifferences(towel1, sheet('Strap', [{ name: 'Length', values: ['1.8 m', '2.5 m'] }]))).toEqual({ differ: false, sentences: [] });
});
