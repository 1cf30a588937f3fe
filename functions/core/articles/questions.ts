/**
 * The questions an AI article may ask (D35, replacing the spec's 49-template title space):
 * planned from evidence, one question per intent. A facet is asked about only when the
 * store's own content says something about it, and every question carries the facts that
 * answer it.
 *
 * Product intents (the product's own facts only; see facts.ts), in this order (a later intent
 * whose evidence is the same facts as an earlier one's is its twin and is not asked):
 *   family     "Which designs does the Combo Yoga Mat come in?"   on a family's first member only
 *              (families.ts): its members with their links, prices and stock (D37); not when
 *              the store lists another product that reads as one more member (`complete`)
 *   need       "Is the X good for preventing slipping?"   a need of the curated vocabulary
 *              (needs.ts) a sentence of its text states; never a phrase of the merchant's copy
 *   audience   "Is the X a good choice for beginners?"   a sentence naming those people
 *   use        "What is the X best used for?"            a sentence saying what it is for
 *   materials  "What is the X made of?"                  a sentence naming a material
 *   origin     "Where does the X come from?"             "made in", "grown in" ... a place
 *   care       "How do I care for the X?"                washing, cleaning, storing ...
 *   features   "What are the main features of the X?"    two or more named features
 *   options    "Which colors and sizes does the X come in?"   options with 2+ values
 *   comparison "How does the X compare with the Y?"      Y: same kind, made for the same job
 *              (by name, or X's text says it is one: a gyuto "is a Japanese chef's knife"),
 *              never of X's family, and at least two attributes (attributes.ts) on
 *              which the store's values differ; at most two counterparts, the most
 *              differences first (D37).
 * Business intents (weekly-100's business share): shipping, returns (the store's policy
 * lines), and per kind with two or more products "Which <kind> should I choose?".
 *
 * Grammar: plurals and articles from maintained libraries (pluralize, indefinite), option
 * names plural ("colors", "thicknesses"), "is"/"are" agreeing with the subject; a facet
 * value with a comma or a list in it is never put in a title; no numbers or years are
 * varied (no "the 3/5/7 best"), so two titles never differ by a number only.
 */
import pluralize from 'pluralize';
import { dedupeKey, singularKey, upperFirst } from '../generate/text';
import { featuresOf } from '../prompts/product-words';
import { containsName } from '../text/name-match';
import { comparedAttributes } from './compare';
import type { ArticleCatalogue } from './catalogue';
import { kindKey } from './catalogue';
import { audiencesIn, CARE, ORIGIN, stating, USE } from './facets';
import { attributesOfSheet, endsSentence, theName, verbFor, type Fact, type ProductSheet } from './facts';
import { sameFamily } from './families';
import { withoutNames } from './gate';
import { attributeLead, audienceLead, careLead, choiceLead, comparisonLead, familyLead, featuresLead, needLead, optionsLead, policyLead, useLead } from './leads';
import { needFits, needMatch, needRuledOut, SHOPPER_NEEDS, statesNeed } from './needs';
import { optionsSentence } from './options';
import { audienceFits } from './audiences';
import { MIN_DIFFERENCES, type Intent, type Lead, type Question } from './questions-and-answers';

/** Longer titles are dropped (schema.org Article `headline`: Google shows at most 110 characters). */
export const MAX_TITLE_CHARS = 110;
const MAX_COUNTERPARTS = 2;
/** Counterparts weighed per product at most (a kind of thousands is sampled by a stable spread). */
const MAX_CANDIDATES = 200;
/** Members a family page lists at most. */
export const MAX_FAMILY_MEMBERS = 60;
const MAX_NEEDS = 3;
const MAX_AUDIENCES = 3;

// The shapes live below the writers (questions-and-answers.ts); re-exported for the model adapter's import.
export type { Intent, Question } from './questions-and-answers';

/** A facet value fit for a title: no list, no comma, no brackets, 1-4 words. */
function titleValue(value: string): boolean {
  return !!value && !/[,;/()[\]]|\b(and|or)\b/.test(value) && value.split(' ').length <= 4;
}

function words(phrase: string): string[] {
  return dedupeKey(phrase).split(' ').filter((w) => w.length >= 3);
}

/** A stable spread for ties, so a catalogue's products are not all compared with the same two. */
function pairOrder(a: string, b: string): number {
  let hash = 0x811c9dc5;
  for (const ch of `${a}|${b}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

/**
 * The products a comparison with `sheet` can be about (see the header): of its kind, made for
 * its job or for a job its own text names, outside its family, with at least `MIN_DIFFERENCES`
 * attributes the store states differently; the most differences first, then the closest names.
 */
function counterpartsOf(sheet: ProductSheet, catalogue: ArticleCatalogue): ProductSheet[] {
  const kind = kindKey(sheet);
  if (kind === 'product' || !sheet.job) return [];
  const jobs = catalogue.byKindAndJob.get(kind) ?? new Map<string, ProductSheet[]>();
  // Its own job, and the jobs its text names ("a Japanese chef's knife"), found through their last word.
  const ownText = textKey(sheet);
  const heads = catalogue.jobsByHead.get(kind) ?? new Map<string, string[]>();
  const named = [...new Set(ownText.trim().split(' '))].flatMap((w) => heads.get(w) ?? []).filter((job) => job !== sheet.job && says(ownText, job));
  const lists = [sheet.job, ...named].map((job) => jobs.get(job) ?? []);
  const total = lists.reduce((n, l) => n + l.length, 0);
  const at = (k: number): ProductSheet => {
    for (const list of lists) {
      if (k < list.length) return list[k]!;
      k -= list.length;
    }
    throw new RangeError('outside the pool');
  };
  // A kind of thousands is weighed through a window of the pool that starts at a place of its own per product.
  const start = total > MAX_CANDIDATES ? pairOrder(sheet.product.productId, kind) % total : 0;
  const candidates: ProductSheet[] = [];
  for (let i = 0; i < total && candidates.length < MAX_CANDIDATES; i++) {
    const o = at((start + i) % total);
    if (o.product.productId !== sheet.product.productId && !sameFamily(catalogue.families, sheet.product.productId, o.product.productId)) candidates.push(o);
  }
  const own = new Set(words(sheet.product.name));
  const ranked = candidates
    .map((o) => ({ o, differences: comparedAttributes(sheet, o).differences.length, shared: new Set(words(o.product.name).filter((w) => own.has(w))).size }))
    .filter((x) => x.differences >= MIN_DIFFERENCES)
    .sort((a, b) => b.differences - a.differences || b.shared - a.shared);
  // One counterpart per family: the 6-inch and the 8-inch of one knife would give the same page twice.
  const families = new Set<string>();
  const out: ProductSheet[] = [];
  for (const { o } of ranked) {
    const family = familyId(catalogue, o);
    if (families.has(family)) continue;
    families.add(family);
    out.push(o);
    if (out.length >= MAX_COUNTERPARTS) break;
  }
  return out;
}

/** A product's family's id, or its own when it is in none. */
function familyId(catalogue: ArticleCatalogue, sheet: ProductSheet): string {
  return catalogue.families.of.get(sheet.product.productId)?.id ?? sheet.product.productId;
}

/**
 * Whether a text says the product is one made for that job: "is a Japanese chef's knife" relates
 * a gyuto to the chef's knives; "works with the motion sensor" names an accessory, not a rival.
 */
function says(textKey: string, job: string): boolean {
  return new RegExp(` (?:is|are) (?:a|an|the) (?:[^ ]+ ){0,2}${job.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `).test(textKey);
}

/** A sheet's facts as one key, apostrophes dropped as in a job ("chef's knife" → "chefs knife"). */
function textKey(sheet: ProductSheet): string {
  return ` ${dedupeKey(sheet.facts.map((f) => f.text).join(' ').replace(/['’]/g, ''))} `;
}

/** The family page, on the family's first member with a sheet (see the header). */
function familyQuestion(sheet: ProductSheet, catalogue: ArticleCatalogue): { title: string; members: ProductSheet[]; family: NonNullable<Question['family']> } | null {
  const family = catalogue.families.of.get(sheet.product.productId);
  const members = (family?.members ?? []).map((m) => catalogue.byId.get(m.productId)).filter((m): m is ProductSheet => m !== undefined).slice(0, MAX_FAMILY_MEMBERS);
  // Asked on the first member the site has a sheet for (a name too long for a title has none).
  // Not when the store lists another product that reads as one more member: "comes in N" would be untrue.
  if (!family || members[0] !== sheet || family.members.length < 2 || !family.name || !family.complete) return null;
  const the = theName(family.name);
  return { title: `Which ${family.differs} ${verbFor(family.name) === 'are' ? 'do' : 'does'} ${the} come in?`, members, family: {
    name: family.name, differs: family.differs, members: family.members.slice(0, MAX_FAMILY_MEMBERS),
    pages: Object.fromEntries(family.members.flatMap((m) => { const page = catalogue.pageOf(m); return page ? [[m.productId, page.path]] : []; })),
  } };
}

/** Every question one product's facts can answer (see the header), in intent order. */
export function productQuestions(sheet: ProductSheet, catalogue: ArticleCatalogue, businessName: string): Question[] {
  const the = theName(sheet.label);
  const be = verbFor(sheet.label);
  const facts = sheet.facts;
  const out: Question[] = [];
  // A question is asked only with a lead: its verdict and the catalogue fact behind it (leads.ts).
  const add = (intent: Intent, value: string | null, title: string, evidence: Fact[], facet: string[], lead: Lead | null, subjects: ProductSheet[] = [sheet], about?: string[]) => {
    if (!lead || !evidence.length || title.length > MAX_TITLE_CHARS || containsName(title, businessName)) return;
    out.push({ title, key: value ? `${intent}:${value}` : intent, intent, facet, evidence, lead, subjects, ...(about ? { about } : {}) });
  };

  const family = familyQuestion(sheet, catalogue);
  const familyVerdict = family && familyLead(family.family.name, family.family.differs, family.family.members);
  if (family && familyVerdict && !containsName(family.title, businessName)) {
    out.push({ title: family.title, key: 'family', intent: 'family', facet: [], evidence: family.members.flatMap((m) => m.facts.slice(0, 1)), subjects: family.members, family: family.family, lead: familyVerdict });
  }

  // A sentence states a need in its own words, not through the product's name ("IP67 Spotlight", "Travel Mat").
  const unnamed = (f: Fact) => withoutNames(f.text, [sheet.product.name, sheet.label]);
  const sentences = facts.map((f) => f.text);
  const needs = SHOPPER_NEEDS.filter((need) => needFits(need, `${sheet.product.name} ${sheet.kind}`) && !needRuledOut(need, sentences))
    .map((need) => ({ need, evidence: facts.filter((f) => statesNeed(unnamed(f), need)) })).filter((n) => n.evidence.length).slice(0, MAX_NEEDS);
  // The facet: the need's word the store's sentence uses ("slip" of "non-slip"; none when it says it otherwise).
  for (const { need, evidence } of needs) {
    add('need', need.id, `${upperFirst(be)} ${the} good for ${need.phrase}?`, evidence, need.facet.filter((w) => evidence.some((f) => f.text.toLowerCase().includes(w))).slice(0, 1),
      needLead(sheet, need, evidence, (text) => needMatch(text, need)));
  }

  const audiences = [...new Set(facts.flatMap((f) => audiencesIn(f.text)))].filter((a) => titleValue(a) && audienceFits(a, sheet, catalogue)).slice(0, MAX_AUDIENCES);
  for (const audience of audiences) {
    const evidence = stating(facts, audience.replace(/s$/, ''));
    add('audience', audience, `${upperFirst(be)} ${the} a good choice for ${audience}?`, evidence, words(audience), audienceLead(sheet, audience, evidence));
  }

  // After the audiences and problems: a "what for" answer resting on the same sentence is their twin.
  const uses = facts.filter((f) => USE.test(f.text));
  add('use', null, `What ${be} ${the} best used for?`, uses, [], useLead(sheet, uses));

  // The sentences naming the material the product is made of ("raise a glass" names none of a timber bar's).
  // A name that says its material ("Plastic Storage Shed", "Jumper wool, cotton") answers "made of?" already.
  const stated = attributesOfSheet(sheet).get('material');
  const material = stated && !stated.value.toLowerCase().split(' and ').some((m) => sheet.label.toLowerCase().includes(m)) ? stated : undefined;
  const materialWords = material ? material.value.toLowerCase().split(' and ').map((m) => m.split(' ').pop()!) : [];
  const materials = facts.filter((f) => materialWords.some((m) => new RegExp(`\\b${m}\\b`, 'i').test(f.text)));
  add('materials', null, `What ${be} ${the} made of?`, materials, material ? material.value.split(' and ').flatMap(words).slice(0, 1) : [], material ? attributeLead(sheet, 'material') : null);

  add('origin', null, `Where ${be === 'is' ? 'does' : 'do'} ${the} come from?`, facts.filter((f) => ORIGIN.test(f.text)), [], attributeLead(sheet, 'origin'));
  const care = facts.filter((f) => CARE.test(f.text));
  add('care', null, `How do I care for ${the}?`, care, ['care'], careLead(sheet, care));

  const featured = facts.filter((f) => featuresOf(f.text).length > 0 || !endsSentence(f.text));
  const featureNames = new Set(featured.flatMap((f) => featuresOf(f.text)));
  if (featureNames.size >= 2 || featured.filter((f) => !f.sentence).length >= 2) add('features', null, `What are the main features of ${the}?`, featured, [], featuresLead(sheet));

  const options = sheet.options.slice(0, 2);
  if (options.length) {
    const names = options.map((o) => pluralize.plural(o.name.toLowerCase()));
    // One sentence of the catalogue's option values ("The X comes in two colors (Navy and Bone)."), not a data line.
    const valueFact: Fact = { text: optionsSentence(sheet.label, options), source: facts[0]?.source ?? { path: '', label: sheet.product.name }, sentence: true, productId: sheet.product.productId };
    if (names.every(titleValue)) add('options', null, `Which ${names.join(' and ')} ${be === 'is' ? 'does' : 'do'} ${the} come in?`, [valueFact], names.flatMap(words).slice(0, 1), optionsLead(sheet, options));
  }

  for (const other of counterpartsOf(sheet, catalogue)) {
    if (containsName(other.label, businessName)) continue;
    add('comparison', other.product.productId, `How ${be === 'is' ? 'does' : 'do'} ${the} compare with ${theName(other.label)}?`,
      [...facts, ...other.facts], words(other.label).filter((w) => !words(sheet.label).includes(w)), comparisonLead(sheet, other, comparedAttributes(sheet, other).differences),
      [sheet, other], [familyId(catalogue, sheet), familyId(catalogue, other)]);
  }
  return dropRepeatedEvidence(out);
}

/** A question whose evidence is the same set of facts as an earlier one's would be its twin. */
function dropRepeatedEvidence(questions: Question[]): Question[] {
  const seen = new Set<string>();
  return questions.filter((q) => {
    const key = q.evidence.map((f) => dedupeKey(f.text)).sort().join('|');
    if (q.intent !== 'comparison' && q.intent !== 'family' && seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The business's questions (see the header): the store's policies and the choice within each kind. */
export function businessQuestions(input: { industry: string; policies: readonly Fact[]; catalogue: readonly ProductSheet[]; businessName: string }): Question[] {
  const out: Question[] = [];
  const industry = input.industry.toLowerCase().replace(/^online\s+/, '');
  const shipping = input.policies.filter((f) => /\b(ship|shipping|ships|delivery|deliver|dispatch)/i.test(f.text));
  const returns = input.policies.filter((f) => /\b(return|returns|refund|exchange)/i.test(f.text));
  const shippingLead = policyLead(shipping);
  const returnsLead = policyLead(returns);
  if (shippingLead) out.push({ title: `How does shipping work when ordering ${industry} products online?`, key: 'shipping', intent: 'shipping', facet: ['shipping'], evidence: shipping, subjects: [], lead: shippingLead });
  if (returnsLead) out.push({ title: `Can I return ${industry} products bought online?`, key: 'returns', intent: 'returns', facet: ['return'], evidence: returns, subjects: [], lead: returnsLead });
  const byKind = new Map<string, ProductSheet[]>();
  for (const sheet of input.catalogue) {
    if (sheet.kind === 'products' || !sheet.facts.length) continue;
    const list = byKind.get(singularKey(sheet.kind)) ?? [];
    list.push(sheet);
    byKind.set(singularKey(sheet.kind), list);
  }
  for (const sheets of byKind.values()) {
    if (sheets.length < 2) continue;
    const kind = (sheets[0] as ProductSheet).kind;
    const title = `Which ${kind} should I choose?`;
    if (containsName(title, input.businessName) || !titleValue(kind)) continue;
    const chosen = sheets.slice(0, 6);
    const lead = choiceLead(kind, chosen);
    if (lead) out.push({ title, key: `choice:${singularKey(kind)}`, intent: 'choice', facet: [], evidence: chosen.flatMap((s) => s.facts.slice(0, 2)), subjects: chosen, lead });
  }
  return out.filter((q) => q.title.length <= MAX_TITLE_CHARS && !containsName(q.title, input.businessName));
}
