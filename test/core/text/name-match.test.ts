import {
  containsBusinessName, containsName, distinctiveTokens, findName, nameMatcher, nameTokens, replaceBusinessName,
} from '../../../functions/core/text/name-match';

describe('containsBusinessName', () => {
  const NAME = 'Harbor & Pine';

  test.each([
    'Harbor & Pine',
    'Is Harbor & Pine any good?',
    'harbor and pine coffee review',
    'HarborPine espresso',
    'harbor-pine beans',
    'Harbor&Pine Coffee',
    'HARBOR + PINE',
    "Harbor & Pine's cold brew",
    "harbor 'n' pine",
    'harbor_pine',
    'Harbor/Pine',
    'harbor.pine',
    'harborandpine',
    'visit harborandpine.example',
    'Harbor  &  Pine',
    'Hárbor & Piñe',
    'Where does "Harbor and Pine" ship?',
  ])('catches %j', (text) => {
    expect(containsBusinessName(text, NAME)).toBe(true);
  });

  test.each([
    'best pineapple coffee near the harbor',
    'Harbor Freight tools',
    'pine harbor (reversed order)',
    'harbors and pines',
    'harbor view pine furniture',
    'Harborside pine cones',
    'Harbor of Pinecrest',
    'pine nut butter',
    'What is the best coffee in Seattle?',
  ])('lets %j pass', (text) => {
    expect(containsBusinessName(text, NAME)).toBe(false);
  });

  test('a CamelCase name is caught spelled apart, and the other way round', () => {
    expect(containsBusinessName('Is Harbor & Pine good?', 'HarborPine')).toBe(true);
    expect(containsBusinessName('harborpine review', 'Harbor & Pine')).toBe(true);
  });

  test('apostrophes and legal suffixes do not matter', () => {
    expect(containsBusinessName('Joes Garage coffee', "Joe's Garage")).toBe(true);
    expect(containsBusinessName('joe’s garage', "Joe's Garage")).toBe(true);
    expect(containsBusinessName('Is Bloom good?', 'Bloom Co.')).toBe(true);
    expect(containsBusinessName('Acme review', 'Acme, Inc.')).toBe(true);
  });

  test('word boundaries: short names never match inside other words', () => {
    expect(containsBusinessName('Remember to leaf through', 'Ember & Leaf')).toBe(false);
    expect(containsBusinessName('ember leaf tea', 'Ember & Leaf')).toBe(true);
    expect(containsBusinessName('Where can I buy a bloomer?', 'Bloom')).toBe(false);
  });

  test('generic names ("The Shop"): only the full written phrase counts, a single generic word never', () => {
    expect(containsBusinessName('Where is the best coffee shop?', 'The Shop')).toBe(false);
    expect(containsBusinessName('Which online shop sells mugs?', 'The Shop')).toBe(false);
    expect(containsBusinessName('Is The Shop legit?', 'The Shop')).toBe(true);
    expect(containsBusinessName('Which shop sells mugs?', 'Shop')).toBe(false);
    expect(containsBusinessName('Which store sells mugs?', 'The Store Co.')).toBe(false);
  });

  test('edge generic words are dropped while two tokens remain', () => {
    expect(containsBusinessName('Is Harbor & Pine good?', 'Harbor & Pine Store')).toBe(true);
    expect(containsBusinessName('coffee near the harbor', 'Harbor Shop')).toBe(false);
    expect(containsBusinessName('is harbor shop open', 'Harbor Shop')).toBe(true);
  });

  test('an empty name matches nothing', () => {
    expect(containsBusinessName('anything', '')).toBe(false);
    expect(containsBusinessName('anything', '  ')).toBe(false);
  });

  test('replaceBusinessName hides every variant', () => {
    expect(replaceBusinessName('Harbor&Pine started in 2014. HarborPine Espresso. harbor and pine.', NAME, '{{STORE}}'))
      .toBe('{{STORE}} started in 2014. {{STORE}} Espresso. {{STORE}}.');
  });
});

describe('nameTokens, nameMatcher, distinctiveTokens', () => {
  test('CamelCase, "&" and "+" and accents are split and folded', () => {
    expect(nameTokens('HarborPine Coffee')).toEqual(['harbor', 'pine', 'coffee']);
    expect(nameTokens('ABCShop')).toEqual(['abc', 'shop']);
    expect(nameTokens('Hárbor + Piñe')).toEqual(['harbor', 'and', 'pine']);
  });

  test('a name made of one generic word has no matcher', () => {
    expect(nameMatcher('Shop')).toBeNull();
    expect(nameMatcher('Harbor & Pine')).toBeInstanceOf(RegExp);
  });

  test('distinctive tokens leave out stop, legal and shop words', () => {
    expect(distinctiveTokens('The Harbor & Pine Store Co.')).toEqual(['harbor', 'pine']);
  });
});

describe('containsName (the general form) and findName', () => {
  test('containsBusinessName is containsName', () => {
    for (const [text, name] of [['Try Sukha Yoga mats', 'Sukha Yoga'], ['Sukhasana pose', 'Sukha'], ["Sukha's cork mat", 'Sukha']]) {
      expect(containsBusinessName(text, name)).toBe(containsName(text, name));
    }
  });

  test('near misses do not match: prefixes, suffixes, other word orders', () => {
    expect(containsName('Hold Sukhasana for a minute', 'Sukha')).toBe(false);
    expect(containsName('Harbor Pines Outfitters', 'Harbor & Pine')).toBe(false);
    expect(containsName('Remember the lotus', 'Ember')).toBe(false);
  });

  test('findName gives the index in the text as written, possessives and accents included', () => {
    expect(findName('Try Harbor & Pine today', 'Harbor & Pine')).toBe(4);
    expect(findName('Naïve café: HarborPine', 'Harbor & Pine')).toBe(12);
    expect(findName("Here: Joe's Garage coffee", "Joe's Garage")).toBe(6);
    expect(findName("Try Harbor & Pine's cold brew", 'Harbor & Pine')).toBe(4);
    expect(findName("WHY HARBOR & PINE'S BEANS", 'Harbor & Pine')).toBe(4);
    expect(containsName("WHY HARBOR & PINE'S BEANS", 'Harbor & Pine')).toBe(true);
    expect(findName('nothing here', 'Harbor & Pine')).toBe(-1);
    expect(findName('anything', '')).toBe(-1);
  });

  test('findName finds the first of several occurrences', () => {
    const text = 'harbor-pine first, then Harbor & Pine again';
    expect(findName(text, 'Harbor & Pine')).toBe(0);
    expect(findName(`x ${text}`, 'Harbor & Pine')).toBe(2);
  });
});
