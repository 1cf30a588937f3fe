/**
 * D36 grounding, sentence by sentence, on messy merchant text: what a model may say about a
 * store (paraphrases of its own words) and what it may not (places, figures, materials,
 * guarantees and claims the store never made).
 */
import { checkSentence, groundingIndex, groundText, MIN_COVERAGE } from '../../functions/core/generate/grounding';

const NAME = 'Good Earth Mats';

/** A cork yoga mat shop whose name is made of ordinary words, written the way merchants write. */
const SOURCES = [
  'GOOD EARTH MATS — Cork Yoga Mats | Free Shipping over €60!!',
  `Good Earth Mats makes natural cork yoga mats in Braga, Portugal.
Every mat is Made in Portugal from natural tree rubber and cork. 30-day returns, no questions asked :)
Free EU shipping on orders over €60. Non-slip when wet, even in hot yoga.`,
  'Cork Travel Mat 4mm — SKU GEM-CT4. Weighs 1.2 kg. 183 x 61 cm. Price: $89.00 / £72 / €79,95. Latex-free? No — contains natural rubber.',
  'Cork Studio Mat', 'Yoga Mats', 'Good Earth Mats', 'travel', 'Thickness', '4 mm', '6 mm',
  'Orders ship from our workshop within 2–3 working days. We ship to the EU, UK and USA. Refunds are issued within 14 days of receiving your return.',
  'We are a family workshop founded in 2019. All our cork is FSC certified and harvested without cutting a single tree.',
];

const index = groundingIndex(SOURCES, { names: [NAME] });
const check = (sentence: string) => checkSentence(sentence, index);

describe('checkSentence keeps what the store says, in other words', () => {
  it.each([
    'Good Earth Mats makes cork yoga mats in Braga, Portugal.',
    'Every mat is made in Portugal from cork and natural rubber.',
    'Orders over €60 ship free within the EU.',
    'Free shipping on orders over 60 euros.',
    'You can return any mat within 30 days.',
    'Orders leave the workshop within 2-3 working days and ship to the UK and the USA.',
    'Refunds are issued within 14 days.',
    'The Cork Travel Mat (SKU GEM-CT4) is 4 mm thick, weighs 1.2 kg and measures 183 x 61 cm.',
    'The Cork Travel Mat costs $89, £72 or €79.95.',
    'The Cork Travel Mat costs 89 USD or GBP 72.',
    "We're a family workshop founded in 2019.",
    'Thickness options are 4 and 6 mm.',
    'The family workshop was founded in 2019.',
    'The cork is FSC certified.',
    'GOOD EARTH MATS ships to the UK.',
    "good earth mats' cork mats are non-slip when wet.",
    'Yes.',
  ])('%s', (sentence) => {
    expect(check(sentence)).toEqual({ sentence, supported: true, missing: [] });
  });
});

describe('checkSentence drops what the store never said, naming what is missing', () => {
  it.each<[string, string[]]>([
    ['Good Earth Mats roasts its cork in Reykjavik.', ['Reykjavik']],
    ['The workshop in Lisbon was founded in 2017.', ['Lisbon', '2017']],
    ['Every mat is made of 100% natural rubber.', ['100%']],
    ['60-day returns on every order.', ['60-day']],
    ['Returns are accepted within 30 days and come with a lifetime guarantee.', ['lifetime guarantee']],
    ['The Cork Travel Mat is made of bamboo and jute.', ['bamboo', 'jute']],
    ['The Cork Travel Mat (SKU GEM-CT6) weighs 1.5 kg.', ['CT6', '1.5 kg']],
    ['We ship worldwide.', ['worldwide']],
    ['Every mat is handmade.', ['handmade']],
    ['The cork is certified organic.', ['organic']],
    // the store says "Latex-free?" only to answer no: no sentence says it of a mat
    ['The Cork Travel Mat is latex-free.', ['latex-free']],
    // the place exists in the store's text, but nothing is made there
    ['Every mat is made in the USA.', ['made in the USA']],
    ['It is the best-selling mat among professional athletes.', ['best', 'professional', 'athletes']],
    ['Good Earth Mats is the most eco-friendly brand on earth.', ['eco', 'friendly']],
  ])('%s', (sentence, missing) => {
    const verdict = check(sentence);
    expect(verdict.supported).toBe(false);
    for (const m of missing) expect(verdict.missing).toContain(m);
  });

  it('needs the coverage threshold for claims made of ordinary words only', () => {
    expect(MIN_COVERAGE).toBe(0.6);
    // 2 of 3 content words occur (mats, cork): kept; 1 of 3: dropped
    expect(check('Cork mats never slip.').supported).toBe(true);
    expect(check('Teachers adore cork.').supported).toBe(false);
  });

  it('compares figures by value and unit, currency aside', () => {
    expect(check('Shipping is free over $60.').supported).toBe(true);
    expect(check('Shipping is free over €50.').missing).toEqual(['€50']);
    expect(check('It weighs 1.2 lb.').missing).toEqual(['1.2 lb']);
    expect(check('Refunds are issued within 14 weeks.').missing).toEqual(['14 weeks']);
  });
});

describe('groundText', () => {
  it('keeps the supported sentences in order and reports the others', () => {
    const r = groundText('Good Earth Mats makes cork yoga mats in Braga. They offer a lifetime warranty. Orders ship within 2-3 working days.', index);
    expect(r.text).toBe('Good Earth Mats makes cork yoga mats in Braga. Orders ship within 2-3 working days.');
    expect(r.kept).toHaveLength(2);
    expect(r.dropped).toEqual([{ sentence: 'They offer a lifetime warranty.', supported: false, missing: ['lifetime warranty'] }]);
    expect(groundText('Made in Reykjavik.', index)).toEqual({ text: '', kept: [], dropped: [expect.objectContaining({ supported: false })] });
  });

  it('indexes a 5,000-product store once and checks a sentence in time independent of it', () => {
    const words = 'cork rubber mat strap towel block bolster travel studio natural grip soft dense light thick thin wet dry hot'.split(' ');
    const sources = Array.from({ length: 5000 }, (_, i) => {
      const w = (k: number) => words[(i * 7 + k * 3) % words.length];
      return `Product ${i} ${w(1)} ${w(2)} — SKU GEM-${i}. ${Array.from({ length: 12 }, (_, k) => `A ${w(k)} ${w(k + 1)} ${w(k + 2)} for ${k + 2} mm practice.`).join(' ')}`;
    });
    let t = Date.now();
    const big = groundingIndex(sources, { names: [NAME] });
    const buildMs = Date.now() - t;
    t = Date.now();
    for (let i = 0; i < 5000; i++) checkSentence(`Product ${i} is a soft cork mat made in Braga with a lifetime guarantee and 30-day returns.`, big);
    const checkMs = Date.now() - t;
    expect(buildMs).toBeLessThan(10_000);
    expect(checkMs).toBeLessThan(3_000);
  });
});
