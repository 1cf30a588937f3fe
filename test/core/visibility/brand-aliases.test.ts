import { brandAliases, domainLabel, usedStandalone } from '../../../functions/core/visibility/brand-aliases';
import { isCommonWord } from '../../../functions/app/visibility/common-words';

describe('brandAliases', () => {
  const base = { businessName: 'Larkspur & Finch', candidates: ['larkspur', 'finch'], vendors: [] as string[], texts: [] as string[], domains: ['larkspurandfinch.com'] };

  test('a brand word counts only when the store uses it standalone and it is not a common word', () => {
    expect(brandAliases(base, isCommonWord)).toEqual([]);
    expect(brandAliases({ ...base, vendors: ['Larkspur', 'Finch'] }, isCommonWord)).toEqual(['Larkspur']);
    expect(brandAliases({ ...base, texts: ['Every Larkspur bag is sewn in Asheville. A Finch tote too.'] }, isCommonWord)).toEqual(['Larkspur']);
    expect(brandAliases({ ...base, domains: ['larkspur.com'] }, isCommonWord)).toEqual(['Larkspur']);
  });

  test('the full name on the store\'s pages is not a standalone use of its words', () => {
    expect(brandAliases({ ...base, texts: ['Larkspur & Finch bags are sewn in Asheville. Larkspur and Finch ships free.'] }, isCommonWord)).toEqual([]);
    expect(usedStandalone('Larkspur', 'Welcome to Larkspur & Finch.', 'Larkspur & Finch')).toBe(false);
    expect(usedStandalone('Larkspur', 'The Larkspur tote.', 'Larkspur & Finch')).toBe(true);
    expect(usedStandalone('Larkspur', 'we planted larkspur', 'Larkspur & Finch')).toBe(false);
  });

  test('a part of the name of several words (ordinary ones included) needs standalone use only', () => {
    const harbor = { businessName: 'Harbor & Pine Coffee Co.', candidates: ['harbor', 'pine', 'Harbor & Pine'], vendors: [] as string[], texts: [] as string[], domains: ['harborandpine.com'] };
    expect(brandAliases(harbor, isCommonWord)).toEqual([]);
    expect(brandAliases({ ...harbor, vendors: ['Harbor & Pine'] }, isCommonWord)).toEqual(['Harbor & Pine']);
    expect(brandAliases({ ...harbor, texts: ['Harbor & Pine roasts every Tuesday.'] }, isCommonWord)).toEqual(['Harbor & Pine']);
  });

  test('a product line of the store\'s titles that is not part of the name keeps counting; a common one does not', () => {
    const sukha = { businessName: 'Sukha Yoga Co.', candidates: ['sukha', 'SukhaGrip', 'PRO', 'Cloud Nine'], vendors: ['Sukha'], texts: ['SukhaGrip Towel', 'PRO Yoga Mat'], domains: [] };
    expect(brandAliases(sukha, isCommonWord)).toEqual(['Sukha', 'SukhaGrip', 'Cloud Nine']);
  });

  test('domainLabel', () => {
    expect(domainLabel('https://www.sukha.com/x')).toBe('sukha');
    expect(domainLabel('shop.sukha.co.uk')).toBe('shop');
  });

  test('common words: SCOWL size 35', () => {
    for (const w of ['finch', 'pine', 'harbor', 'ridge', 'north', 'blue', 'kettle', 'Ember', 'stones']) expect(isCommonWord(w)).toBe(true);
    for (const w of ['larkspur', 'sukha', 'manduka', 'sukhagrip']) expect(isCommonWord(w)).toBe(false);
  });
});
