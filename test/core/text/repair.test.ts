/**
 * A store's sentence made fit to quote (issue 45, item 5): mis-decoded characters, bullets, and
 * the openings that lean on a sentence the article does not quote.
 */
import { bulletParts, quotedSentence, repairCharacters, standAlone } from '../../../functions/core/text/repair';

const BOTTLE = { name: 'The Trail Bottle', plural: false };
const BLOCKS = { name: 'The Cork Blocks', plural: true };

describe('repairCharacters', () => {
  test.each([
    ['Fill it‚ is all you need', 'Fill it’ is all you need'], // the reader's "it‚ is": the store meant ’
    ['it‚s leakproof and kids‚ hands love it', 'it’s leakproof and kids’ hands love it'],
    ['itâ€™s “coldâ€\u009d for 24 hours â€“ really', 'it’s “cold” for 24 hours – really'],
    ['Â£25 for the cafÃ© set', '£25 for the café set'],
    ['it‚Äôs cold', 'it’s cold'],
  ])('%j → %j', (text, repaired) => {
    expect(repairCharacters(text)).toBe(repaired);
  });

  test.each(['CAFÉ™ blend', '‚Zitat‘ auf Deutsch', 'Größe: 40 cm', 'It’s “fine” – really…'])('%j is left as written', (text) => {
    expect(repairCharacters(text)).toBe(text);
  });
});

test('bullets: "- • text •" is the text; inner bullets part list items', () => {
  expect(bulletParts('- • Dimmable wall light •')).toEqual(['Dimmable wall light']);
  expect(bulletParts('• Adjustable • Illuminates up to 3 metres')).toEqual(['Adjustable', 'Illuminates up to 3 metres']);
  expect(bulletParts('- name and/or type number of the product;')).toEqual(['name and/or type number of the product;']);
  expect(bulletParts('Weighs 300 g - empty')).toEqual(['Weighs 300 g - empty']);
});

describe('standAlone: a sentence quoted away from the one it followed', () => {
  test.each([
    ['Moreover, it keeps drinks cold for 24 hours.', 'The Trail Bottle keeps drinks cold for 24 hours.'],
    ['Therefore, the lid stays shut.', 'The lid stays shut.'],
    ['Also available in Sea Foam', 'Available in Sea Foam'],
    ['And last but not least, a spork fits in the band.', 'A spork fits in the band.'],
    ['It’s slim enough to grip one-handed.', 'The Trail Bottle is slim enough to grip one-handed.'],
    ['Its lid locks.', 'The Trail Bottle’s lid locks.'],
    ['It’ll keep coffee hot.', 'The Trail Bottle will keep coffee hot.'],
    ['This is our lightest bottle.', 'The Trail Bottle is our lightest bottle.'],
    ['It is important to dry it after washing.', 'It is important to dry it after washing.'],
    ['It is easy to clean.', 'The Trail Bottle is easy to clean.'],
    ['It is best used cold.', 'The Trail Bottle is best used cold.'],
    ['However you carry it, it stays shut.', 'However you carry it, it stays shut.'],
    ['This bottle keeps drinks cold.', 'This bottle keeps drinks cold.'],
  ])('%j → %j', (sentence, out) => {
    expect(standAlone(sentence, BOTTLE)).toBe(out);
  });

  test('"They also ..." without antecedent: the plural product named, otherwise dropped', () => {
    expect(standAlone('They also nest inside a carrying case.', BLOCKS)).toBe('The Cork Blocks also nest inside a carrying case.');
    expect(standAlone('Their edges are rounded.', BLOCKS)).toBe('The Cork Blocks’ edges are rounded.');
    expect(standAlone('They’re made of cork.', BLOCKS)).toBe('The Cork Blocks are made of cork.');
    expect(standAlone('They also nest inside a carrying case.', BOTTLE)).toBeNull();
    expect(standAlone('It keeps drinks cold.', BLOCKS)).toBeNull();
    expect(standAlone('It keeps drinks cold.', null)).toBeNull();
    expect(standAlone('This means you can drink on the move.', BOTTLE)).toBeNull();
    expect(standAlone('And when you are, pour it into the lid.', BOTTLE)).toBeNull();
  });

  test('quotedSentence keeps the opening only right after its own neighbour in the store\'s text', () => {
    const source = ['The Trail Bottle is made of steel.', 'It weighs 300 g.', 'Moreover, it keeps drinks cold.'];
    expect(quotedSentence(source[2]!, source[1]!, source, BOTTLE)).toBe('Moreover, it keeps drinks cold.');
    expect(quotedSentence(source[2]!, source[0]!, source, BOTTLE)).toBe('The Trail Bottle keeps drinks cold.');
    expect(quotedSentence(source[1]!, null, source, BOTTLE)).toBe('The Trail Bottle weighs 300 g.');
    // A sentence the answer composed continues what precedes it.
    expect(quotedSentence('It also floats.', 'The Trail Bottle is light.', source, BOTTLE)).toBe('It also floats.');
  });
});
