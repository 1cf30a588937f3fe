/** The 49 question templates, the title space of an entity, the pick and its exhaustion. */
import {
  ARTICLE_AUDIENCES,
  ARTICLE_CITIES,
  ARTICLE_LIST_SIZES,
  QUESTION_TEMPLATES,
  SPEC_PLACEHOLDERS,
  placeholdersOf,
} from '../../../functions/core/articles/templates';
import {
  MAX_TITLE_CHARS,
  pickTitle,
  problemsFrom,
  productKindOf,
  titleContext,
  titleIdentity,
  titleVariations,
  titleYear,
  unusedTitleCount,
  type TitleContext,
} from '../../../functions/core/articles/titles';
import { seededRandom } from '../../../functions/core/util/random';
import { ValidationError } from '../../../functions/core/errors';
import { containsName } from '../../../functions/core/text/name-match';
import type { CatalogProduct, StoreSnapshot } from '../../../functions/core/site/types';
import { NOW, narrative, snapshot } from '../site/fixtures';

const BUSINESS = 'Northwind Coffee Roasters';
/** A coffee roaster with four problems its content states. */
const ROASTER: TitleContext = {
  businessName: BUSINESS,
  industry: 'specialty coffee',
  problems: ['milk drinks', 'pour-over', 'cold brew', 'preventing stale beans'],
  year: 2026,
};
const PRODUCT: TitleContext = { ...ROASTER, productKind: 'coffee beans', productName: 'Ethiopia Yirgacheffe Whole Bean' };

const QUESTION_START = /^(What|Which|Where|How|Why|When|Who|Is|Are|Should|Can|Do|Does)\b/;

function identities(context: TitleContext): Set<string> {
  return new Set(titleVariations(context).map((v) => titleIdentity(v.title)));
}

describe('templates and their value lists', () => {
  it('has exactly 49 question templates: 25 for the business, 24 for a product', () => {
    expect(QUESTION_TEMPLATES).toHaveLength(49);
    expect(QUESTION_TEMPLATES.filter((t) => t.scope === 'business')).toHaveLength(25);
    expect(QUESTION_TEMPLATES.filter((t) => t.scope === 'product')).toHaveLength(24);
    expect(new Set(QUESTION_TEMPLATES.map((t) => t.id)).size).toBe(49);
    expect(new Set(QUESTION_TEMPLATES.map((t) => t.text)).size).toBe(49);
  });

  it('uses the six placeholders of the spec, plus {product} and {product_name} in product templates only', () => {
    const used = new Set(QUESTION_TEMPLATES.flatMap((t) => placeholdersOf(t.text)));
    for (const p of SPEC_PLACEHOLDERS) expect(used).toContain(p);
    expect([...used].sort()).toEqual([...SPEC_PLACEHOLDERS, 'product', 'product_name'].sort());
    for (const t of QUESTION_TEMPLATES.filter((x) => x.scope === 'business')) {
      expect(placeholdersOf(t.text)).toContain('industry');
      expect(t.text).not.toMatch(/\{product/);
    }
    for (const t of QUESTION_TEMPLATES.filter((x) => x.scope === 'product')) expect(t.text).toMatch(/\{product(_name)?\}/);
  });

  it('every template is a question; {year} is always written "in {year}" (the form the daily refresh moves)', () => {
    for (const t of QUESTION_TEMPLATES) {
      expect(t.text).toMatch(QUESTION_START);
      expect(t.text.endsWith('?')).toBe(true);
      expect(t.text.slice(0, -1)).not.toContain('?');
      if (t.text.includes('{year}')) expect(t.text).toMatch(/ in \{year\}/);
    }
  });

  it('38 cities, 17 audiences, list sizes 3, 5, 7, 10, 15, 20', () => {
    expect(ARTICLE_CITIES).toHaveLength(38);
    expect(new Set(ARTICLE_CITIES).size).toBe(38);
    expect(ARTICLE_AUDIENCES).toHaveLength(17);
    expect(new Set(ARTICLE_AUDIENCES).size).toBe(17);
    expect(ARTICLE_LIST_SIZES).toEqual([3, 5, 7, 10, 15, 20]);
  });
});

describe('the title space', () => {
  it('a coffee roaster with four problems has 2,000+ unique business titles', () => {
    const variations = titleVariations(ROASTER);
    const unique = identities(ROASTER);
    expect(unique.size).toBeGreaterThanOrEqual(2000);
    expect(unique.size).toBe(variations.length); // no two variations are the same topic
    expect(new Set(variations.map((v) => v.templateId)).size).toBe(25);
  });

  it('one of its products has 2,000+ unique product titles (kind and name templates)', () => {
    const variations = titleVariations(PRODUCT);
    expect(identities(PRODUCT).size).toBeGreaterThanOrEqual(2000);
    expect(variations.every((v) => v.scope === 'product')).toBe(true);
    expect(new Set(variations.map((v) => v.templateId)).size).toBe(24);
  });

  it('every title is a well-formed question that never names the business', () => {
    for (const context of [ROASTER, PRODUCT]) {
      for (const { title } of titleVariations(context)) {
        expect(title).toMatch(QUESTION_START);
        expect(title).toMatch(/[a-z0-9)]\?$/i);
        expect(title).not.toMatch(/[{}]|\s{2}|\bthe the\b|\ba a\b/i);
        expect(title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
        expect(containsName(title, context.businessName)).toBe(false);
      }
    }
  });

  it('drops every variation that would name the business, in any form', () => {
    const named = { ...ROASTER, businessName: 'Milk-Drinks' };
    const titles = titleVariations(named).map((v) => v.title);
    expect(titles.length).toBeGreaterThan(1000);
    expect(titles.some((t) => /milk drinks/i.test(t))).toBe(false);
    expect(titleVariations(ROASTER).some((v) => /milk drinks/i.test(v.title))).toBe(true);
  });

  it('never uses a product name that shares the business name', () => {
    const own = { ...PRODUCT, productName: 'Northwind House Blend' };
    expect(titleVariations(own).some((v) => /house blend/i.test(v.title))).toBe(false);
    expect(titleVariations(own).some((v) => v.templateId === 'p19')).toBe(false);
  });

  it('reads grammatically for a mass-noun kind and a plural industry', () => {
    const gear = titleVariations({ ...PRODUCT, productKind: 'brewing equipment', productName: 'The Kettle' }).map((v) => v.title);
    expect(gear).toContain('What are the best brewing equipment products for beginners?');
    expect(gear).toContain('Where can I buy brewing equipment online in Tokyo?');
    expect(gear).toContain('What is the Kettle best used for?');
    expect(gear.some((t) => /best brewing equipment (for|to)\b/.test(t))).toBe(false);
    const books = titleVariations({ ...ROASTER, industry: 'Books', problems: [] }).map((v) => v.title);
    expect(books).toContain('Which online book shops deliver to Paris?');
    const retail = titleVariations({ ...ROASTER, industry: 'online retail' }).map((v) => v.title);
    expect(retail).toContain('What are the best online retail shops in 2026?');
    expect(retail.some((t) => /online online/.test(t))).toBe(false);
  });

  it('skips the {problem} templates when the content states no problem', () => {
    const none = titleVariations({ ...ROASTER, problems: [] });
    const problemTemplates = QUESTION_TEMPLATES.filter((t) => t.scope === 'business' && t.text.includes('{problem}')).map((t) => t.id);
    expect(problemTemplates.length).toBeGreaterThan(0);
    expect(none.some((v) => problemTemplates.includes(v.templateId))).toBe(false);
    expect(none.length).toBe(titleVariations(ROASTER).length - 4 * 63); // 63 variations per problem
  });
});

describe('identity, pick and exhaustion', () => {
  it('compares titles without case, punctuation, spacing or year; list sizes stay different', () => {
    expect(titleIdentity('What are the best online specialty coffee shops in 2026?')).toBe(titleIdentity('what are  the BEST online specialty-coffee shops in 2027'));
    expect(titleIdentity('What are the 5 best coffee beans for students?')).not.toBe(titleIdentity('What are the 10 best coffee beans for students?'));
  });

  it('filters out the existing titles, whatever their case, punctuation or year', () => {
    const variations = titleVariations(ROASTER);
    const existing = variations.slice(0, 500).map((v, i) => (i % 2 ? v.title.toUpperCase().replace('?', '') : v.title.replace('2026', '2025')));
    expect(unusedTitleCount(ROASTER, existing)).toBe(variations.length - 500);
    const used = new Set(variations.slice(0, 500).map((v) => titleIdentity(v.title)));
    const random = seededRandom('filter');
    for (let i = 0; i < 300; i++) {
      const pick = pickTitle(ROASTER, existing, random);
      expect(pick).not.toBeNull();
      expect(used.has(titleIdentity(pick!.title))).toBe(false);
    }
  });

  it('a seeded random gives the same picks; another seed gives others', () => {
    const run = (seed: string) => {
      const random = seededRandom(seed);
      const existing: string[] = [];
      for (let i = 0; i < 25; i++) existing.push(pickTitle(ROASTER, existing, random)!.title);
      return existing;
    };
    expect(run('northwind/2026-03-14')).toEqual(run('northwind/2026-03-14'));
    expect(run('northwind/2026-03-14')).not.toEqual(run('northwind/2026-03-15'));
    expect(new Set(run('x').map(titleIdentity)).size).toBe(25); // each pick unused
  });

  it('picks a template uniformly, so the big city × audience templates do not crowd out the others', () => {
    const random = seededRandom('spread');
    const templates = new Set<string>();
    for (let i = 0; i < 250; i++) templates.add(pickTitle(ROASTER, [], random)!.templateId);
    expect(templates.size).toBe(25);
  });

  it('returns null when every variation of the entity is used; the next year does not reopen it, new content does', () => {
    const small: TitleContext = { ...ROASTER, problems: [], cities: ['Tokyo'], audiences: ['students'], listSizes: [5] };
    const all = titleVariations(small).map((v) => v.title);
    expect(all.length).toBeGreaterThan(10);
    const random = seededRandom('exhaust');
    const existing: string[] = [];
    for (let i = 0; i < all.length; i++) existing.push(pickTitle(small, existing, random)!.title);
    expect(new Set(existing.map(titleIdentity)).size).toBe(all.length);
    expect(pickTitle(small, existing, random)).toBeNull();
    expect(unusedTitleCount(small, existing)).toBe(0);
    expect(pickTitle({ ...small, year: 2027 }, existing, random)).toBeNull();
    const widened = pickTitle({ ...small, problems: ['cold brew'] }, existing, random);
    expect(widened?.slots.problem).toBe('cold brew');
  });
});

describe('the year', () => {
  it('is the current UTC year, and the next one from December 1', () => {
    expect(titleYear('2026-03-14T09:12:00Z')).toBe(2026);
    expect(titleYear('2026-11-30T23:59:59Z')).toBe(2026);
    expect(titleYear('2026-12-01T00:00:00Z')).toBe(2027);
    expect(titleYear('2026-12-31T23:59:59Z')).toBe(2027);
    expect(titleYear('2027-01-01T00:00:00Z')).toBe(2027);
    expect(() => titleYear('not a date')).toThrow(ValidationError);
  });

  it('fills {year} from now: a December pick already names the next year', () => {
    const pickYear = (now: string) => {
      const context = titleContext(snapshot(), narrative(), { now });
      const years = new Set(titleVariations(context).flatMap((v) => (v.slots.year ? [v.slots.year] : [])));
      return [...years];
    };
    expect(pickYear('2026-06-01T00:00:00Z')).toEqual(['2026']);
    expect(pickYear('2026-12-02T00:00:00Z')).toEqual(['2027']);
    expect(pickYear('2027-01-02T00:00:00Z')).toEqual(['2027']);
    const december = titleVariations(titleContext(snapshot(), narrative(), { now: '2026-12-02T00:00:00Z' }));
    expect(december.filter((v) => v.title.includes(' in 2027?')).length).toBeGreaterThan(0);
    expect(december.some((v) => v.title.includes('2026'))).toBe(false);
  });
});

describe('problems from the store’s own content', () => {
  it('takes the uses the store’s texts state, never a person, never the business name', () => {
    const problems = problemsFrom(snapshot(), narrative());
    expect(problems).toEqual(expect.arrayContaining(['milk drinks', 'pour-over', 'espresso']));
    for (const p of problems) expect(containsName(p, BUSINESS)).toBe(false);
    // every problem is written in the store's content
    const content = JSON.stringify([snapshot(), narrative()]).toLowerCase();
    for (const p of problems) expect(content).toContain(p);
  });

  it('puts a product’s own uses first, then those of its product type', () => {
    const s = snapshot();
    const blend = s.products.find((p) => p.productId === 'house-espresso-blend') as CatalogProduct;
    expect(problemsFrom(s, narrative(), blend)[0]).toBe('milk drinks');
    const grinder = s.products.find((p) => p.productId === 'model-2025-burr-grinder') as CatalogProduct;
    expect(problemsFrom(s, narrative(), grinder).slice(0, 2)).toEqual(['pour-over', 'espresso']);
    // Then those of products of the same type only: a dripper is not for milk drinks.
    const dripper = s.products.find((p) => p.productId === 'ceramic-pour-over-dripper') as CatalogProduct;
    expect(problemsFrom(s, narrative(), dripper)).toEqual(['pour-over', 'espresso']);
  });

  it('reads "prevents / reduces / helps with" clauses, and skips audiences', () => {
    const s: StoreSnapshot = {
      ...snapshot(),
      products: [],
      pages: [
        {
          url: 'https://mats.example/', kind: 'home', title: 'Home', description: '', fingerprint: 'x', statusCode: 200,
          markdown: 'Our mats prevent slipping during hot yoga. The cork surface reduces odour. A strap helps with back pain. Perfect for home baristas and busy beginners.',
        },
      ],
    };
    const problems = problemsFrom(s, null);
    expect(problems).toEqual(expect.arrayContaining(['preventing slipping', 'reducing odour', 'back pain']));
    expect(problems.some((p) => /barista|beginner/.test(p))).toBe(false);
  });

  it('is empty when the content states none', () => {
    const s: StoreSnapshot = { ...snapshot(), products: [], pages: [] };
    expect(problemsFrom(s, { ...narrative(), description: '', keyFacts: [], faqs: [], productSummaries: {} })).toEqual([]);
  });

  it('the product kind comes from the product type, else the name, else the industry', () => {
    const [bean, , , dripper] = snapshot().products as CatalogProduct[];
    expect(productKindOf(bean as CatalogProduct, 'specialty coffee', BUSINESS)).toBe('coffee beans');
    expect(productKindOf(dripper as CatalogProduct, 'specialty coffee', BUSINESS)).toBe('brewing equipment');
    expect(productKindOf({ ...(bean as CatalogProduct), productType: '', name: 'Big Ceramic Mug' }, 'home decor', BUSINESS)).toBe('home decor products');
    expect(productKindOf({ ...(bean as CatalogProduct), productType: '', name: 'Yirgacheffe Coffee Beans' }, 'specialty coffee', BUSINESS)).toBe('coffee beans');
  });

  it('titleContext builds a product context from the snapshot', () => {
    const s = snapshot();
    const context = titleContext(s, narrative(), { now: NOW, product: s.products[0] });
    expect(context).toMatchObject({ businessName: BUSINESS, industry: 'specialty coffee', year: 2026, productKind: 'coffee beans', productName: 'Ethiopia Yirgacheffe Whole Bean' });
    expect(titleVariations(context).length).toBeGreaterThanOrEqual(2000);
  });
});
