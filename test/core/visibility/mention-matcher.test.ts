import {
  aliasCounts, citationRules, classifyCitation, hostMatches, matchAnswer, normalizeHost, productNameCounts,
} from '../../../functions/core/visibility/mention-matcher';
import { evaluateAnswer, type Judge } from '../../../functions/core/visibility/evaluate';
import type { AnswerVerdict, EntityIdentity } from '../../../functions/core/visibility/platform-answer';
import { answerOf, CASES, ENTITY } from '../../fixtures/visibility-answers';

describe('matchAnswer on the fixed answer set', () => {
  test.each(CASES.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const verdict = matchAnswer(answerOf(c), ENTITY);
    expect({
      mentioned: verdict.mentioned,
      recommended: verdict.recommended,
      competitors: verdict.competitorsMentioned,
      citations: verdict.citations.map((x) => x.kind),
    }).toEqual(c.expected);
    expect(verdict.by).toBe('matcher');
    expect(verdict.citations.map((x) => x.url)).toEqual(c.citations ?? []);
  });

  test('the set covers every rule at least once', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    expect(CASES.filter((c) => c.expected.recommended).length).toBeGreaterThanOrEqual(5);
    expect(CASES.filter((c) => c.expected.mentioned && !c.expected.recommended).length).toBeGreaterThanOrEqual(5);
    expect(CASES.filter((c) => !c.expected.mentioned).length).toBeGreaterThanOrEqual(5);
  });
});

describe('names', () => {
  const entity: EntityIdentity = { ...ENTITY, aliases: [], productNames: [], competitors: [] };
  const mentioned = (text: string, e: EntityIdentity = entity) => matchAnswer({ text, citations: [] }, e).mentioned;

  test('whole words only: "Ember" never matches "remember"', () => {
    const ember = { ...entity, name: 'Ember', domains: [], aiSiteDomains: [] };
    expect(mentioned('Remember to oil the board.', ember)).toBe(false);
    expect(mentioned('Ember makes boards.', ember)).toBe(true);
    expect(mentioned("Ember's boards are oiled.", ember)).toBe(true);
  });

  test('"Harbor & Pine" is not "Harbor Pines" nor "Harbor & Pine Ridge"\'s Pines', () => {
    const harbor = { ...entity, name: 'Harbor & Pine', domains: [], aiSiteDomains: [] };
    expect(mentioned('Harbor Pines sells coffee.', harbor)).toBe(false);
    expect(mentioned('harbor-pine sells coffee.', harbor)).toBe(true);
    expect(mentioned('HarborPine sells coffee.', harbor)).toBe(true);
  });

  test('aliases count when distinctive; short or ordinary ones never', () => {
    expect(aliasCounts('Sukha')).toBe(true);
    expect(aliasCounts('SukhaGrip')).toBe(true);
    expect(aliasCounts('PRO')).toBe(false);
    expect(aliasCounts('eKO')).toBe(false);
    expect(aliasCounts('Yoga Mat')).toBe(false);
    expect(aliasCounts('The Shop')).toBe(false);
  });

  test('product names count when distinctive and at least two words', () => {
    expect(productNameCounts('Cloud Nine Yoga Mat')).toBe(true);
    expect(productNameCounts('SukhaGrip Towel')).toBe(true);
    expect(productNameCounts('Cork Yoga Block')).toBe(false);
    expect(productNameCounts('Premium Travel Yoga Mats 6mm')).toBe(false);
    expect(productNameCounts('Lotus')).toBe(false);
  });

  test('a name inside another site\'s URL or host is not a mention; link text is', () => {
    expect(mentioned('See https://reddit.com/r/yoga/sukha-and-stone-review for opinions.')).toBe(false);
    expect(mentioned('See reddit.com/r/yoga/sukha-and-stone-review for opinions.')).toBe(false);
    expect(mentioned('See [Sukha & Stone](https://example.org/x) for opinions.')).toBe(true);
  });
});

describe('recommending context', () => {
  const rec = (text: string) => matchAnswer({ text, citations: [] }, ENTITY).recommended;

  test.each([
    'Consider Sukha & Stone if you sweat a lot.',
    'Sukha & Stone is a solid option for travel.',
    'You can\'t go wrong with Sukha & Stone.',
    '- Sukha & Stone (cork)',
    '* Sukha & Stone',
    '2) Sukha & Stone',
    '### 1. Sukha & Stone',
    'Check out Sukha & Stone.',
    'Sukha & Stone stands out for grip.',
  ])('recommends: %j', (text) => {
    expect(rec(text)).toBe(true);
  });

  test.each([
    'Sukha & Stone sells mats.',
    'I would not recommend Sukha & Stone.',
    "I don't recommend Sukha & Stone.",
    "Don't buy Sukha & Stone mats.",
    'Stay away from Sukha & Stone.',
    'Steer clear of Sukha & Stone; the best is Manduka.',
    "Sukha & Stone isn't the best for hot yoga.",
    'Sukha & Stone is not worth the price.',
    '- Sukha & Stone: avoid, the top peels.',
    'Avoid buying from Sukha & Stone.',
    'Recommended mats: Manduka and Gaiam. Sukha & Stone also exists.',
  ])('does not recommend: %j', (text) => {
    expect(rec(text)).toBe(false);
  });

  test('benign "avoid": an -ing advice, "helps avoid"', () => {
    expect(rec('Sukha & Stone mats help avoid slips, so try them.')).toBe(true);
    expect(rec('Sukha & Stone mats are good; try them.')).toBe(false); // "them" is not the name
    expect(rec('To avoid slipping, consider Sukha & Stone.')).toBe(true);
  });

  test('a negative lead-in covers its whole list, up to the next plain line', () => {
    const text = 'Skip these, I would avoid them:\n- Gaiam\n- Sukha & Stone\n\nWhat I use instead:\n- Manduka';
    expect(rec(text)).toBe(false);
    expect(rec(`${text}\n- Sukha & Stone`)).toBe(true);
  });
});

describe('domains and citations', () => {
  const rules = citationRules(ENTITY);

  test('normalizeHost: scheme, www, port, case, trailing dot', () => {
    expect(normalizeHost('https://WWW.SukhaStone.com:443/x?y=1')).toBe('sukhastone.com');
    expect(normalizeHost('sukhastone.com.')).toBe('sukhastone.com');
    expect(normalizeHost('www.sukhastone.com/path')).toBe('sukhastone.com');
    expect(normalizeHost('localhost')).toBeNull();
    expect(normalizeHost('')).toBeNull();
    expect(normalizeHost('http://')).toBeNull();
  });

  test('hostMatches: the domain and its subdomains only', () => {
    expect(hostMatches('shop.sukhastone.com', 'sukhastone.com')).toBe(true);
    expect(hostMatches('sukhastone.com', 'sukhastone.com')).toBe(true);
    expect(hostMatches('notsukhastone.com', 'sukhastone.com')).toBe(false);
    expect(hostMatches('sukhastone.com.evil.net', 'sukhastone.com')).toBe(false);
  });

  test.each([
    ['https://ai.sukhastone.com/products/x', 'ai_site'],
    ['https://sukhastone.com/', 'store'],
    ['https://blog.sukhastone.com/post', 'store'],
    ['https://sukha-and-stone.myshopify.com/products/x', 'store'],
    ['https://other.myshopify.com/products/x', 'other'],
    ['https://www.manduka.com/pro', 'competitor'],
    ['https://harborandpine.com', 'competitor'],
    ['https://reddit.com/r/yoga/sukhastone.com', 'other'],
    ['https://sukhastone.com.evil.net/', 'other'],
    ['not a url', 'other'],
  ])('%s → %s', (url, kind) => {
    expect(classifyCitation(url, rules)).toBe(kind);
  });

  test('an entity host in the text is a mention; a host merely containing the brand is not', () => {
    expect(matchAnswer({ text: 'Order at www.sukhastone.com.', citations: [] }, ENTITY).mentioned).toBe(true);
    expect(matchAnswer({ text: 'Order at shop.sukhastone.com today', citations: [] }, ENTITY).mentioned).toBe(true);
    expect(matchAnswer({ text: 'Read sukhastone-reviews.net first', citations: [] }, ENTITY).mentioned).toBe(false);
    expect(matchAnswer({ text: 'Mail info@sukhastone.net', citations: [] }, ENTITY).mentioned).toBe(false);
    expect(matchAnswer({ text: 'Mail info@sukhastone.com', citations: [] }, ENTITY).mentioned).toBe(true);
    expect(matchAnswer({ text: 'Mail info@sukhastone.com, we recommend it', citations: [] }, ENTITY).recommended).toBe(false);
  });

  test('entity hosts in aiSiteDomains only still belong to the entity', () => {
    const entity = { ...ENTITY, domains: ['sukhastone.com'], aiSiteDomains: ['sukha.aisites.example'] };
    const v = matchAnswer({ text: 'See the FAQ.', citations: ['https://sukha.aisites.example/faq'] }, entity);
    expect(v.mentioned).toBe(true);
    expect(v.citations).toEqual([{ url: 'https://sukha.aisites.example/faq', kind: 'ai_site' }]);
  });
});

describe('competitors', () => {
  test('in order of first appearance, each once, as named in the list; the entity never', () => {
    const entity: EntityIdentity = {
      ...ENTITY,
      competitors: [...ENTITY.competitors, { name: 'Sukha & Stone', domain: null }, { name: 'Jade', domain: 'jadeyoga.com' }],
    };
    const v = matchAnswer({ text: 'Gaiam, then jadeyoga.com, then MANDUKA, then gaiam again and Sukha & Stone.', citations: [] }, entity);
    expect(v.competitorsMentioned).toEqual(['Gaiam', 'Jade', 'Manduka']);
  });

  test('a competitor cited but not named in the text is not "mentioned" (its citation says competitor)', () => {
    const v = matchAnswer({ text: 'Dense mats last longer.', citations: ['https://manduka.com/x'] }, ENTITY);
    expect(v.competitorsMentioned).toEqual([]);
    expect(v.citations[0].kind).toBe('competitor');
  });
});

describe('evaluateAnswer', () => {
  const c = CASES.find((x) => x.id === 'exact-recommend')!;
  const answer = answerOf(c);
  const judgeVerdict = (v: Partial<AnswerVerdict>): AnswerVerdict => ({ mentioned: false, recommended: false, competitorsMentioned: [], citations: [], by: 'judge', ...v });

  test('no judge: the matcher decides', async () => {
    const e = await evaluateAnswer(answer, ENTITY, null);
    expect(e.verdict).toBe(e.matcherVerdict);
    expect(e.verdict.by).toBe('matcher');
    expect(e.disagreement).toBe(false);
    expect(e.judgeError).toBeUndefined();
  });

  test('a judge decides; the matcher cross-checks', async () => {
    const agree: Judge = { model: 'j', evaluate: async () => ({ ok: true, verdict: judgeVerdict({ mentioned: true }) }) };
    const disagree: Judge = { model: 'j', evaluate: async () => ({ ok: true, verdict: judgeVerdict({}) }) };
    const a = await evaluateAnswer(answer, ENTITY, agree);
    expect(a.verdict.by).toBe('judge');
    expect(a.matcherVerdict.by).toBe('matcher');
    expect(a.disagreement).toBe(false); // recommended differs, checkResult does not
    const d = await evaluateAnswer(answer, ENTITY, disagree);
    expect(d.verdict.mentioned).toBe(false);
    expect(d.disagreement).toBe(true);
  });

  test('a failed (or throwing) judge: the matcher decides and the error is kept', async () => {
    const failing: Judge = { model: 'j', evaluate: async () => ({ ok: false, reason: 'HTTP 500 from the model API (after 3 attempts)' }) };
    const throwing: Judge = { model: 'j', evaluate: async () => { throw new Error('boom'); } };
    const f = await evaluateAnswer(answer, ENTITY, failing);
    expect(f.verdict.by).toBe('matcher');
    expect(f.judgeError).toBe('HTTP 500 from the model API (after 3 attempts)');
    expect(f.disagreement).toBe(false);
    const t = await evaluateAnswer(answer, ENTITY, throwing);
    expect(t.verdict.by).toBe('matcher');
    expect(t.judgeError).toMatch(/boom/);
  });
});

describe('longer names and ordinary words (issue 21)', () => {
  const harbor: EntityIdentity = {
    name: 'Harbor & Pine Coffee Co.', aliases: ['Harbor & Pine'], domains: [], aiSiteDomains: [],
    productNames: ['Lighthouse Espresso Blend'], competitors: [],
  };
  const mentioned = (text: string, e: EntityIdentity = harbor) => matchAnswer({ text, citations: [] }, e).mentioned;

  test('a following capitalised word that is not the store\'s own makes another company', () => {
    expect(mentioned('Harbor & Pine Outfitters sells flannel.')).toBe(false);
    expect(mentioned('We stayed at the Harbor & Pine Inn.')).toBe(false);
    expect(mentioned('Harbor & Pine Coffee roasts on Tuesdays.')).toBe(true);
    expect(mentioned('Harbor & Pine Co. roasts on Tuesdays.')).toBe(true);
    expect(mentioned("Harbor & Pine's beans are fresh.")).toBe(true);
    expect(mentioned('Harbor & Pine Lighthouse Espresso Blend is fresh.')).toBe(true);
    expect(mentioned('Harbor & Pine, Stumptown and Onyx all ship fast.')).toBe(true);
  });

  test('an alias written all in lower case is ordinary language; the full name is not', () => {
    expect(mentioned('a walk by the harbor & pine trees')).toBe(false);
    expect(mentioned('honestly, harbor and pine coffee is great')).toBe(true);
    const ember = { ...harbor, name: 'Ember', aliases: [], productNames: [] };
    expect(mentioned('a glowing ember', ember)).toBe(false);
    expect(mentioned('Ember makes boards.', ember)).toBe(true);
  });

  test("the README's examples of mentioned and recommended", () => {
    const verdict = (text: string) => {
      const v = matchAnswer({ text, citations: [] }, harbor);
      return { mentioned: v.mentioned, recommended: v.recommended };
    };
    expect(verdict("Harbor and Pine's beans are roasted weekly.")).toEqual({ mentioned: true, recommended: false });
    expect(verdict('Harbor & Pine Outfitters sells flannel.')).toEqual({ mentioned: false, recommended: false });
    expect(verdict('We watched boats in a pine-lined harbor.')).toEqual({ mentioned: false, recommended: false });
    expect(verdict('1. **Harbor & Pine**: my top pick for espresso')).toEqual({ mentioned: true, recommended: true });
    expect(verdict('Unlike Harbor & Pine, Stumptown offers refunds.')).toEqual({ mentioned: true, recommended: false });
  });

  test('in a heading, capitals say nothing unless the next word is a company word', () => {
    expect(mentioned('## Why Harbor & Pine Stands Out\nFresh beans.')).toBe(true);
    expect(mentioned('## Harbor & Pine Outfitters Review\nFlannel.')).toBe(false);
  });
});

describe('links that hide their source (issue 21 point 3)', () => {
  const redirect = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbF9wXE1';
  const answer = (sourceHosts?: Record<string, string>) => ({ text: 'Several mats work well for hot yoga.', citations: [redirect], ...(sourceHosts ? { sourceHosts } : {}) });

  test('a Gemini grounding redirect is classified by the source host the vendor states, not by the redirect', () => {
    expect(matchAnswer(answer({ [redirect]: 'sukhastone.com' }), ENTITY)).toMatchObject({ mentioned: true, citations: [{ url: redirect, kind: 'store' }] });
    expect(matchAnswer(answer({ [redirect]: 'manduka.com' }), ENTITY)).toMatchObject({ mentioned: false, citations: [{ url: redirect, kind: 'competitor' }] });
    expect(matchAnswer(answer(), ENTITY)).toMatchObject({ mentioned: false, citations: [{ url: redirect, kind: 'other' }] });
  });
});
