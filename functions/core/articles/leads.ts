/**
 * The first sentence of every answer (issue 45): the verdict, and the catalogue fact that gives
 * it. A question with no such fact has no lead, and is not asked.
 *
 *   need       "Yes: the Decking Light is rated IP67 (protected against temporary immersion)"
 *              "Yes: the Flask keeps drinks cold for 24 hours"
 *              "Yes: the store says the Mat is non-slip (“a non-slip natural rubber base”)"
 *   audience   "Yes: the store recommends the Block for beginners (“ideal for beginners”)"
 *   use        "The Pitcher is ideal for cold brew at home"
 *   materials  "The Food Jar is made of stainless steel"           (a material attribute)
 *   origin     "The Mug is made in Portugal"                       (an origin attribute)
 *   care       "The Mat is machine washable" (a care attribute), else the store's instruction quoted
 *   features   "The Tumbler holds 40 oz and keeps drinks cold for 11 hours"  (two attributes or more)
 *   options    "The Quencher comes in three sizes (20, 30 and 40 oz); sold out now: 40 oz"
 *   comparison "For more power, the A: it is rated at 5 W, while the B is rated at 3.5 W"
 *   family     "The Combo Mat comes in six designs; sold out now: Sage"
 *   choice     "By weight, the yoga mats listed here run from 1.1 kg (the A) to 2.5 kg (the B)"
 *   shipping / returns: the store's policy line that states a figure ("Free UK delivery over £50.")
 *
 * Stock in a lead is a live slot (offer-slots.ts): an article is not rebuilt when stock moves.
 */
import { joinList, upperFirst } from '../generate/text';
import { replaceNames } from '../text/name-match';
import { differ, says, type Attribute, type AttributeKey } from '../products/attributes';
import { oneLine } from '../site/html';
import type { CatalogProduct } from '../site/types';
import { attributesOfSheet, theName, verbFor, type Fact, type ProductSheet } from './facts';
import type { ShopperNeed } from './needs';
import { countWord, optionsSentence } from './options';
import type { Lead } from './questions-and-answers';

/** Words a quoted snippet keeps at most. */
const MAX_SNIPPET_WORDS = 14;

const plural = (sheet: ProductSheet) => verbFor(sheet.label) === 'are';
const named = (sheet: ProductSheet) => upperFirst(theName(sheet.label));
const withoutStop = (sentence: string) => sentence.trim().replace(/[.!]+$/, '');

/**
 * The clause of a sentence around a match: from the punctuation before it to the punctuation
 * after it, at most MAX_SNIPPET_WORDS words (cut to the words nearest the match).
 */
export function clauseAround(text: string, index: number, length: number): string {
  const line = oneLine(text);
  const before = line.slice(0, index);
  const start = Math.max(...[';', ':', '(', ')', '—', ' - ', '. ', '! ', '? ', '•'].map((p) => before.lastIndexOf(p) + (before.lastIndexOf(p) >= 0 ? p.length : 0)), 0);
  const afterIndex = index + length;
  const ends = [';', ':', '(', ')', '—', ' - ', '. ', '! ', '? ', '•'].map((p) => line.indexOf(p, afterIndex)).filter((i) => i >= 0);
  const end = ends.length ? Math.min(...ends) : line.length;
  let clause = line.slice(start, end).trim().replace(/[.!,]+$/, '').replace(/^[,\s]+/, '');
  const words = clause.split(/\s+/);
  if (words.length > MAX_SNIPPET_WORDS) {
    // Keep the words around the match.
    const at = line.slice(start, index).trim().split(/\s+/).filter(Boolean).length;
    const from = Math.max(0, Math.min(at - 4, words.length - MAX_SNIPPET_WORDS));
    clause = words.slice(from, from + MAX_SNIPPET_WORDS).join(' ');
  }
  return clause;
}

const quoted = (snippet: string) => `“${snippet}”`;

/** What an IP code's second digit protects against (IEC 60529); below 4, nothing a shower does. */
const WATER_PROTECTION: Record<string, string> = {
  '4': 'protected against splashing water', '5': 'protected against water jets', '6': 'protected against powerful water jets',
  '7': 'protected against temporary immersion', '8': 'protected against continuous immersion', '9': 'protected against high-pressure jets',
};

function waterRating(attributes: Map<AttributeKey, Attribute>): { code: string; protection: string } | null {
  const code = attributes.get('rating')?.value.toUpperCase();
  const digit = code ? /^IP(?:X|\d)(\d)/.exec(code)?.[1] : undefined;
  return code && digit && WATER_PROTECTION[digit] ? { code, protection: WATER_PROTECTION[digit] } : null;
}

/** A size in front of a name ("3 x 3 Pressure Treated Single Log Store"): the text names the product without it. */
const LEADING_SIZE = /^[\d.,]+\s*(?:ft|m|cm|')?\s*[x×]\s*[\d.,]+\s*(?:ft|m|cm|')?\s+/i;

/** The text with the product's name and label (also without a size in front) replaced by spaces of the same length. */
function blankName(text: string, sheet: ProductSheet): string {
  const names = [oneLine(sheet.product.name), sheet.label].filter(Boolean).flatMap((n) => [n, n.replace(LEADING_SIZE, '')]).filter((n) => n.length > 3);
  return replaceNames(text, names, (m) => ' '.repeat(m.length));
}

/** A need's lead: a spec value that answers it (IP rating, hours cold or hot), else the store's own words stating it. */
export function needLead(sheet: ProductSheet, need: ShopperNeed, evidence: readonly Fact[], hit: (text: string) => RegExpExecArray | null): Lead | null {
  const attributes = attributesOfSheet(sheet);
  const be = plural(sheet) ? 'are' : 'is';
  if (need.id === 'wet-weather') {
    const rating = waterRating(attributes);
    if (rating) return { text: `Yes: ${theName(sheet.label)} ${be} rated ${rating.code} (${rating.protection})` };
  }
  const held = need.id === 'cold-drinks' ? attributes.get('cold') : need.id === 'hot-drinks' ? attributes.get('hot') : undefined;
  if (held) return { text: `Yes: ${theName(sheet.label)} ${says(held, plural(sheet))}` };
  for (const fact of evidence) {
    const text = oneLine(fact.text);
    // Matched with the product's own name blanked (same length, so places hold): "Pressure Treated Log Store" states no rot resistance.
    const m = hit(blankName(text, sheet));
    if (m) return { text: `Yes: the store says ${theName(sheet.label)} ${be} good for ${need.phrase} (${quoted(clauseAround(text, m.index, m[0].length))})` };
  }
  return null;
}

/** An audience's lead: the store's words naming those people. */
export function audienceLead(sheet: ProductSheet, audience: string, evidence: readonly Fact[]): Lead | null {
  for (const fact of evidence) {
    const text = oneLine(fact.text);
    const at = text.toLowerCase().indexOf(audience.toLowerCase());
    if (at >= 0) return { text: `Yes: the store recommends ${theName(sheet.label)} for ${audience} (${quoted(clauseAround(text, at, audience.length))})` };
  }
  return null;
}

/** Words before "ideal for ..." that make the product its subject: nothing ("Ideal for picnics."), a pronoun, or its own name or kind. */
function aboutTheProduct(before: string, sheet: ProductSheet): boolean {
  const subject = /^(?:(it|they|this|these|the|our)\b([^,;:]{0,40}?))?\s*(?:is|are|['’]s)?\s*(?:also|especially|equally|just)?\s*$/i.exec(before.trim());
  if (!subject) return false;
  const noun = (subject[2] ?? '').toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length >= 3);
  if (!noun.length) return true;
  const own = `${sheet.product.name} ${sheet.kind}`.toLowerCase();
  return noun.some((w) => own.includes(w.replace(/s$/, '')));
}

const NOT_A_USE = /^(?:(?:the |a |an |its |your )?(?:(?:simple|quick|easy|fast|hassle-free|effortless|seamless|maximum|optimal|superior|lasting|long-lasting|added|extra) )?(?:durability|safety|convenience|elegance|ease|easy|effortless|power|performance|style|comfort|longevity|reliability|quality|strength|efficiency|portability|use|installation|simplicity|the long haul|years|life|\d))/i;

const USE_LEAD = /\b(?:perfect|ideal|great|built|made|designed|suited|meant|intended|best) for\b/i;

/** "What is it best used for?": the store's "ideal for ..." said of the product itself, up to the clause's end. */
export function useLead(sheet: ProductSheet, evidence: readonly Fact[]): Lead | null {
  for (const fact of evidence) {
    const text = oneLine(fact.text);
    const m = USE_LEAD.exec(text);
    if (!m || !aboutTheProduct(text.slice(0, m.index), sheet)) continue;
    const use = text.slice(m.index).split(/[,;:.!?(]|\s(?:and will|so|while|which|that|with|but)\s/)[0]!.trim();
    const words = use.split(/\s+/);
    // "built for 15-amp power", "designed for durability and safety": a quality, not a use.
    if (words.length < 3 || words.length > MAX_SNIPPET_WORDS || NOT_A_USE.test(use.slice(m[0].length).trim())) continue;
    return { text: `${named(sheet)} ${plural(sheet) ? 'are' : 'is'} ${use.charAt(0).toLowerCase()}${use.slice(1)}, the store says` };
  }
  return null;
}

/** A lead stating one attribute: "The Food Jar is made of stainless steel". */
export function attributeLead(sheet: ProductSheet, key: AttributeKey): Lead | null {
  const attribute = attributesOfSheet(sheet).get(key);
  return attribute ? { text: `${named(sheet)} ${says(attribute, plural(sheet))}` } : null;
}

/** An instruction, not a merit: "easy to clean" or "store it in the clip-in holder" tell no one how to care for it. */
const CARE_INSTRUCTION = /\b(?:(?:hand|machine|spot)[- ]wash(?:able)?|wash (?:it|them|in|with|by|before|after|cold|warm)|wipe(?:s|d)? (?:clean|down|with)|dishwasher|rinse|descal(?:e|ing)|re-?season|oil (?:it|them|the)|air[- ]dry|tumble[- ]dry|do not (?:wash|soak|bleach|iron|tumble)|brush(?:ing)? (?:it|them|the)|clean (?:it|them|with|by))\b/i;

/** Care: the care attribute ("is machine washable"), else the store's care instruction itself. */
export function careLead(sheet: ProductSheet, evidence: readonly Fact[]): Lead | null {
  const stated = attributeLead(sheet, 'care');
  if (stated) return stated;
  for (const fact of evidence) {
    const text = oneLine(fact.text);
    const m = CARE_INSTRUCTION.exec(text);
    if (m) return { text: `To care for ${theName(sheet.label)}, the store says: ${quoted(clauseAround(text, m.index, m[0].length))}` };
  }
  return null;
}

/** Attributes a features answer opens with, in the order a shopper weighs them. */
const FEATURE_KEYS: readonly AttributeKey[] = ['capacity', 'dimensions', 'power', 'brightness', 'rating', 'battery', 'cold', 'hot', 'material', 'weight', 'thickness', 'length', 'hardness', 'warranty', 'care'];
const MAX_FEATURES = 4;

/** Main features: two stated attributes or more. */
export function featuresLead(sheet: ProductSheet): Lead | null {
  const attributes = attributesOfSheet(sheet);
  // What the name already says ("8 x 6 ... Wooden Shed": its size) is no feature to lead with.
  const name = sheet.label.toLowerCase().replace(/\s+/g, '');
  const stated = FEATURE_KEYS.flatMap((k) => attributes.get(k) ?? []).filter((a) => !name.includes(a.value.toLowerCase().replace(/\s+/g, ''))).slice(0, MAX_FEATURES);
  return stated.length >= 2 ? { text: `${named(sheet)} ${joinList(stated.map((a) => says(a, plural(sheet))))}` } : null;
}

/** The catalogue's option values, and what is sold out now. */
export function optionsLead(sheet: ProductSheet, options: ProductSheet['options']): Lead {
  return { text: withoutStop(optionsSentence(sheet.label, options)), stockOf: [sheet.product] };
}

/** Designs a family's lead names at most. */
const MAX_MEMBER_NAMES = 8;

/** What sets each member's name apart: its words no other member's name shares ("White", "Black"); '' when none. */
export function memberNames(members: readonly CatalogProduct[]): string[] {
  const words = members.map((m) => oneLine(m.name).split(/\s+/));
  const everywhere = new Set(words[0]!.map((w) => w.toLowerCase()).filter((w) => words.every((ws) => ws.some((x) => x.toLowerCase() === w))));
  return words.map((ws) => {
    // A figure keeps the words that make it a size: "10 x 6", "5m" ("10" and "8" alone say nothing).
    const keep = ws.map((w) => !everywhere.has(w.toLowerCase()));
    ws.forEach((w, i) => {
      if (!keep[i] || !/\d/.test(w)) return;
      for (let j = i - 1; j >= 0 && SIZE_PART.test(ws[j]!); j--) keep[j] = true;
      for (let j = i + 1; j < ws.length && SIZE_PART.test(ws[j]!); j++) keep[j] = true;
    });
    const own = ws.filter((_, i) => keep[i]).join(' ');
    // "Tan Open Box Clearance": the colour is "Tan"; an open box is a condition, said after it.
    const condition = OPEN_BOX.test(own) ? ' (open box)' : '';
    const label = own.replace(OPEN_BOX, ' ').replace(SALE_WORDS, ' ').replace(/\s+/g, ' ').replace(/^[\s|:,–-]+|[\s|:,–-]+$/g, '');
    return label ? `${label}${condition}` : '';
  });
}

const OPEN_BOX = /\bopen[\s-]box\b/i;
/** Words of a listing's sale, not of what sets it apart. */
const SALE_WORDS = /\b(?:clearance|sale|limited edition|ex[\s-]display)\b/gi;

/** The words of a size around its figure: "x", another figure, a unit. */
const SIZE_PART = /^(?:x|×|\d+(?:[.,]\d+)?(?:mm|cm|m|mtrs?|ft|in|"|oz|l|ml|w|v)?|mm|cm|m|mtrs?|ft|feet|in|inch(?:es)?|oz|l|ml|litres?|metres?|meters?|w|watts?|v)$/i;

/** A family: how many there are and which, and which are sold out now; null when its listings cannot be told apart by name. */
export function familyLead(name: string, differs: string, members: readonly CatalogProduct[]): Lead | null {
  const head = `${upperFirst(theName(name))} ${verbFor(name) === 'are' ? 'come' : 'comes'} in ${countWord(members.length)} ${differs}`;
  const names = memberNames(members);
  // A listing named by the family's name alone ("New Jersey Knit Dress" beside "... - Organic cotton"): nothing says which one it is.
  if (names.some((n) => !n)) return null;
  // Each member by what sets its name apart, else by its whole name: a lead names which ones.
  const whole = members.map((m) => oneLine(m.name));
  const distinct = new Set(names).size === names.length ? names : whole;
  // Two listings under one name: nothing says which is which, so no answer names them.
  if (new Set(distinct.map((n) => n.toLowerCase())).size < distinct.length) return null;
  const listed = `: ${joinList(distinct.length > MAX_MEMBER_NAMES ? [...distinct.slice(0, MAX_MEMBER_NAMES), `${distinct.length - MAX_MEMBER_NAMES} more`] : distinct)}`;
  return { text: `${head}${listed}`, stockOf: [...members] };
}

/** Which way is "more" of an attribute, as a reason to choose; an attribute without one is a difference, not a verdict. */
const MORE: Partial<Record<AttributeKey, { reason: string; better: 'higher' | 'lower' }>> = {
  capacity: { reason: 'more capacity', better: 'higher' }, power: { reason: 'more power', better: 'higher' }, brightness: { reason: 'more light', better: 'higher' },
  battery: { reason: 'longer battery life', better: 'higher' }, cold: { reason: 'keeping drinks cold longer', better: 'higher' },
  hot: { reason: 'keeping drinks hot longer', better: 'higher' }, warranty: { reason: 'a longer warranty', better: 'higher' },
  weight: { reason: 'less weight to carry', better: 'lower' }, hardness: { reason: 'a harder edge', better: 'higher' },
  thickness: { reason: 'more cushioning', better: 'higher' },
};

const magnitude = (a: Attribute) => Number(a.norm.split('x').reduce((p, x) => p * Number(x), 1));

/** A comparison: which one to choose for what, by the first difference that has a direction, with both values. */
export function comparisonLead(a: ProductSheet, b: ProductSheet, differences: ReadonlyArray<{ key: AttributeKey; a: Attribute; b: Attribute }>): Lead | null {
  const both = (d: { a: Attribute; b: Attribute }) => `${theName(a.label)} ${says(d.a, plural(a))}, while ${theName(b.label)} ${says(d.b, plural(b))}`;
  for (const d of differences) {
    const more = MORE[d.key];
    const [x, y] = [magnitude(d.a), magnitude(d.b)];
    if (!more || !Number.isFinite(x) || !Number.isFinite(y) || x === y) continue;
    const first = (x > y) === (more.better === 'higher');
    return { text: `For ${more.reason}, choose ${theName((first ? a : b).label)}: ${both(d)}` };
  }
  const d = differences.find((x) => differ(x.a, x.b));
  // Not "They differ ...": a lead opens on its subject, not a pronoun leaning on the title.
  return d ? { text: `The first difference is ${d.key === 'material' ? 'what they are made of' : `their ${d.key}`}: ${both(d)}` } : null;
}

/** Which one of a kind: the attribute the products differ most in, from the least to the most. */
export function choiceLead(kind: string, sheets: readonly ProductSheet[]): Lead | null {
  for (const key of ['capacity', 'power', 'dimensions', 'weight', 'battery', 'cold', 'material'] as const) {
    const stated = sheets.flatMap((s) => { const at = attributesOfSheet(s).get(key); return at ? [{ s, at }] : []; });
    if (stated.length < 2) continue;
    if (key === 'material') {
      const kinds = [...new Map(stated.map((x) => [x.at.norm, x])).values()];
      if (kinds.length < 2) continue;
      return { text: `The ${kind} listed here differ in material: ${joinList(kinds.slice(0, 3).map((x) => `${theName(x.s.label)} ${says(x.at, plural(x.s))}`))}` };
    }
    const sorted = [...stated].sort((p, q) => magnitude(p.at) - magnitude(q.at));
    const [low, high] = [sorted[0]!, sorted[sorted.length - 1]!];
    if (magnitude(low.at) === magnitude(high.at)) continue;
    return { text: `By ${key === 'cold' ? 'hours cold' : key}, the ${kind} listed here run from ${low.at.value} (${theName(low.s.label)}) to ${high.at.value} (${theName(high.s.label)})` };
  }
  return null;
}

/** A policy question: the store's line that states a figure or a promise ("free", "30 days"). */
export function policyLead(policies: readonly Fact[]): Lead | null {
  const line = policies.find((f) => /\d|\bfree\b/i.test(f.text) && f.text.split(/\s+/).length <= 40);
  return line ? { text: withoutStop(oneLine(line.text)) } : null;
}
