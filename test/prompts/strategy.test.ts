import { ONBOARDING_PROMPTS_MIN_TOTAL, ONBOARDING_PROMPTS_PER_PRODUCT } from '../../functions/core/constants';
import { normalizePrompt } from '../../functions/core/prompts/prompt-identity';
import {
  cleanPrompt, filterPrompts, filterPromptsDetailed, onboardingProductPromptCounts,
} from '../../functions/core/prompts/strategy';

describe('onboardingProductPromptCounts (spec: 5 per product, at least 50 in total)', () => {
  test.each([
    [0, 0, 0],
    [1, 50, 50],
    [3, 17, 51],
    [6, 9, 54],
    [9, 6, 54],
    [10, 5, 50],
    [11, 5, 55],
    [24, 5, 120],
    [500, 5, 2500],
  ])('%i products → %i each, %i in total', (products, perProduct, total) => {
    const n = onboardingProductPromptCounts(products);
    expect(n).toBe(perProduct);
    expect(n * products).toBe(total);
    if (products > 0) {
      expect(n * products).toBeGreaterThanOrEqual(ONBOARDING_PROMPTS_MIN_TOTAL);
      expect(n).toBeGreaterThanOrEqual(ONBOARDING_PROMPTS_PER_PRODUCT);
    }
  });

  test('the per-product count is the smallest that reaches 50 below 10 products', () => {
    for (let n = 1; n < 10; n++) {
      const each = onboardingProductPromptCounts(n);
      expect(each * n).toBeGreaterThanOrEqual(50);
      expect((each - 1) * n).toBeLessThan(50);
    }
  });

  test('nonsense counts give 0', () => {
    expect(onboardingProductPromptCounts(-3)).toBe(0);
    expect(onboardingProductPromptCounts(Number.NaN)).toBe(0);
  });
});

describe('filterPrompts', () => {
  const opts = { businessName: 'Harbor & Pine', limit: 50 };

  test('dedupes by normalizePrompt: case, spacing and trailing punctuation', () => {
    const out = filterPrompts([
      'What is the best espresso for milk drinks?',
      'what is the BEST espresso for milk drinks',
      'What is  the best espresso for milk drinks?!',
      'WHAT IS THE BEST ESPRESSO FOR MILK DRINKS?',
      'Where can I buy decaf coffee online?',
    ], opts);
    expect(out).toEqual(['What is the best espresso for milk drinks?', 'Where can I buy decaf coffee online?']);
  });

  test('drops prompts equal to existing ones', () => {
    expect(filterPrompts(['Where can I buy decaf coffee online?', 'What is the best cold brew?'], { ...opts, existing: ['where can i buy DECAF coffee online'] }))
      .toEqual(['What is the best cold brew?']);
  });

  test('drops every business-name variant, keeps near-misses', () => {
    const res = filterPromptsDetailed([
      'Is Harbor & Pine coffee good?',
      'harborpine espresso review?',
      'Where to buy harbor and pine beans?',
      'Best pineapple coffee near the harbor?',
    ], opts);
    expect(res.accepted).toEqual(['Best pineapple coffee near the harbor?']);
    expect(res.rejected.map((r) => r.reason)).toEqual(['names the business', 'names the business', 'names the business']);
  });

  test('length bounds 12-200, questions or natural queries only, no links', () => {
    const res = filterPromptsDetailed([
      'Best tea?', // too short
      `What is the best ${'very '.repeat(60)}good coffee?`, // too long
      'We roast coffee in Seattle.', // a statement
      'Coffee', // not a query
      'Where can I buy coffee at https://shop.example?',
      'best light roast coffee under $20', // a natural search query
      'What is the best french press', // a question without its mark
      'Which grinder is best for espresso.', // a question with the wrong mark
    ], opts);
    expect(res.accepted).toEqual(['Best light roast coffee under $20', 'What is the best french press?', 'Which grinder is best for espresso?']);
    expect(res.rejected.map((r) => r.reason)).toEqual(['too short', 'too long', 'not a query', 'not a query', 'contains a link']);
  });

  test('at most limit, in input order; trimmed and cleaned', () => {
    const out = filterPrompts(['  1. What is the best coffee for travel?  ', '- "Which kettle is best for pour-over?"', 'Where can I buy cold brew online?'], { ...opts, limit: 2 });
    expect(out).toEqual(['What is the best coffee for travel?', 'Which kettle is best for pour-over?']);
    expect(filterPrompts(['What is the best coffee for travel?'], { ...opts, limit: 0 })).toEqual([]);
  });

  test('excluded names (a product brand) and placeholders are dropped', () => {
    const out = filterPrompts(['Where can I buy HarborPine Espresso?', 'Is {{STORE}} good?', 'Where can I buy espresso beans online?'], { businessName: 'Ember', limit: 10, excludeNames: ['HarborPine Espresso'] });
    expect(out).toEqual(['Where can I buy espresso beans online?']);
  });

  test('cleanPrompt capitalizes and tidies spacing before punctuation', () => {
    expect(cleanPrompt('  what is the best tea  ? ')).toBe('What is the best tea?');
    expect(normalizePrompt(cleanPrompt('What is the best tea ?'))).toBe('what is the best tea');
  });
});
