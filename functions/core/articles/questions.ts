/**
 * The questions an AI article may ask (D35, replacing the spec's 49-template title space):
 * planned from evidence, one question per intent. A facet is asked about only when the
 * store's own content says something about it, and every question carries the facts that
 * answer it.
 *
 * Product intents (the product's own facts only; see facts.ts), in this order (a later intent
 * whose evidence is the same facts as an earlier one's is its twin and is not asked):
 *   problem    "Is the X good for preventing slipping?"  a sentence stating that problem
 *   audience   "Is the X a good choice for beginners?"   a sentence naming those people
 *   use        "What is the X best used for?"            a sentence saying what it is for
 *   materials  "What is the X made of?"                  a sentence naming a material
 *   origin     "Where does the X come from?"             "made in", "grown in" ... a place
 *   care       "How do I care for the X?"                washing, cleaning, storing ...
 *   features   "What are the main features of the X?"    two or more named features
 *   options    "Which colors and sizes does the X come in?"   options with 2+ values
 *   comparison "How does the X compare with the Y?"      Y: same kind, both with 2+ facts,
 *              at most two counterparts, the closest names first (numbered siblings).
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
import { featuresOf, isBroadKind, kindFromName, materialsOf } from '../prompts/product-words';
import { containsName } from '../text/name-match';
import { audiencesIn, CARE, ORIGIN, problemClauses, stating, USE } from './facets';
import { endsSentence, theName, verbFor, type Fact, type ProductSheet } from './facts';
import { optionsSentence } from './options';

/** Longer titles are dropped (schema.org Article `headline`: Google shows at most 110 characters). */
export const MAX_TITLE_CHARS = 110;
const MAX_COUNTERPARTS = 2;
const MAX_PROBLEMS = 3;
const MAX_AUDIENCES = 3;

export type Intent = 'use' | 'problem' | 'audience' | 'materials' | 'origin' | 'care' | 'features' | 'options' | 'comparison' | 'shipping' | 'returns' | 'choice';

export interface Question {
  title: string;
  /** Intent and facet value: `problem:preventing slipping`, `comparison:<product id>`. One question per key. */
  key: string;
  intent: Intent;
  /** The facet's own words: the answer must state them (the gate checks). Empty: any answer answers. */
  facet: string[];
  /** The facts that answer it, the subject's first. */
  evidence: Fact[];
  /** The products the article is about: the subject, and a comparison's counterpart. */
  subjects: ProductSheet[];
}

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
 * Products of the same kind, the closest names first (distinct shared words; ties spread).
 * A broad kind ("brewing gear", "merchandise") holds unlike things: a dripper is compared only
 * with what its name says is the same thing (a shared name word, or the same kind by name).
 */
function counterpartsOf(sheet: ProductSheet, all: readonly ProductSheet[]): ProductSheet[] {
  const kind = singularKey(sheet.kind);
  if (kind === 'product') return [];
  const own = new Set(words(sheet.product.name));
  const byName = kindFromName(sheet.product.name);
  const broad = isBroadKind(sheet.kind);
  return all
    .filter((o) => o.product.productId !== sheet.product.productId && singularKey(o.kind) === kind && o.facts.length >= 2)
    .map((o) => ({ o, shared: new Set(words(o.product.name).filter((w) => own.has(w))).size }))
    .filter(({ o, shared }) => !broad || shared > 0 || (byName !== null && kindFromName(o.product.name) === byName))
    .sort((a, b) => b.shared - a.shared || pairOrder(sheet.product.productId, a.o.product.productId) - pairOrder(sheet.product.productId, b.o.product.productId))
    .slice(0, MAX_COUNTERPARTS)
    .map((x) => x.o);
}

/** Every question one product's facts can answer (see the header), in intent order. */
export function productQuestions(sheet: ProductSheet, catalogue: readonly ProductSheet[], businessName: string): Question[] {
  const the = theName(sheet.label);
  const be = verbFor(sheet.label);
  const facts = sheet.facts;
  const out: Question[] = [];
  const add = (intent: Intent, value: string | null, title: string, evidence: Fact[], facet: string[], subjects: ProductSheet[] = [sheet]) => {
    if (!evidence.length || title.length > MAX_TITLE_CHARS || containsName(title, businessName)) return;
    out.push({ title, key: value ? `${intent}:${value}` : intent, intent, facet, evidence, subjects });
  };

  const problems = [...new Set(facts.flatMap((f) => problemClauses(f.text, businessName)))].filter(titleValue).slice(0, MAX_PROBLEMS);
  for (const problem of problems) add('problem', problem, `${upperFirst(be)} ${the} good for ${problem}?`, stating(facts, problem), words(problem));

  const audiences = [...new Set(facts.flatMap((f) => audiencesIn(f.text)))].filter(titleValue).slice(0, MAX_AUDIENCES);
  for (const audience of audiences) add('audience', audience, `${upperFirst(be)} ${the} a good choice for ${audience}?`, stating(facts, audience.replace(/s$/, '')), words(audience));

  // After the audiences and problems: a "what for" answer resting on the same sentence is their twin.
  add('use', null, `What ${be} ${the} best used for?`, facts.filter((f) => USE.test(f.text)), []);

  const materials = facts.filter((f) => materialsOf(f.text).length > 0);
  add('materials', null, `What ${be} ${the} made of?`, materials, [...new Set(materials.flatMap((f) => materialsOf(f.text)))].flatMap(words).slice(0, 1));

  add('origin', null, `Where ${be === 'is' ? 'does' : 'do'} ${the} come from?`, facts.filter((f) => ORIGIN.test(f.text)), []);
  add('care', null, `How do I care for ${the}?`, facts.filter((f) => CARE.test(f.text)), ['care']);

  const featured = facts.filter((f) => featuresOf(f.text).length > 0 || !endsSentence(f.text));
  const featureNames = new Set(featured.flatMap((f) => featuresOf(f.text)));
  if (featureNames.size >= 2 || featured.filter((f) => !f.sentence).length >= 2) add('features', null, `What are the main features of ${the}?`, featured, []);

  const options = sheet.options.slice(0, 2);
  if (options.length) {
    const names = options.map((o) => pluralize.plural(o.name.toLowerCase()));
    // One sentence of the catalogue's option values ("The X comes in two colors (Navy and Bone)."), not a data line.
    const valueFact: Fact = { text: optionsSentence(sheet.label, options), source: facts[0]?.source ?? { path: '', label: sheet.product.name }, sentence: true, productId: sheet.product.productId };
    if (names.every(titleValue)) add('options', null, `Which ${names.join(' and ')} ${be === 'is' ? 'does' : 'do'} ${the} come in?`, [valueFact], names.flatMap(words).slice(0, 1));
  }

  if (facts.length >= 2) {
    for (const other of counterpartsOf(sheet, catalogue)) {
      if (containsName(other.label, businessName)) continue;
      add('comparison', other.product.productId, `How ${be === 'is' ? 'does' : 'do'} ${the} compare with ${theName(other.label)}?`,
        [...facts, ...other.facts], words(other.label).filter((w) => !words(sheet.label).includes(w)), [sheet, other]);
    }
  }
  return dropRepeatedEvidence(out);
}

/** A question whose evidence is the same set of facts as an earlier one's would be its twin. */
function dropRepeatedEvidence(questions: Question[]): Question[] {
  const seen = new Set<string>();
  return questions.filter((q) => {
    const key = q.evidence.map((f) => dedupeKey(f.text)).sort().join('|');
    if (q.intent !== 'comparison' && seen.has(key)) return false;
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
  if (shipping.length) out.push({ title: `How does shipping work when ordering ${industry} products online?`, key: 'shipping', intent: 'shipping', facet: ['shipping'], evidence: shipping, subjects: [] });
  if (returns.length) out.push({ title: `Can I return ${industry} products bought online?`, key: 'returns', intent: 'returns', facet: ['return'], evidence: returns, subjects: [] });
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
    out.push({ title, key: `choice:${singularKey(kind)}`, intent: 'choice', facet: [], evidence: chosen.flatMap((s) => s.facts.slice(0, 2)), subjects: chosen });
  }
  return out.filter((q) => q.title.length <= MAX_TITLE_CHARS && !containsName(q.title, input.businessName));
}
