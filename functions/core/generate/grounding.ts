/**
 * Grounding of model-written text (D36): a sentence published as a fact about a store must
 * be supported by that store's own content, or it is dropped. A model asked to "use only the
 * content" still invents (a lifetime guarantee, a roastery in Reykjavik, "100% cotton"), and
 * an invented sentence in llms.txt or on the AI home is read by AI assistants as the store's
 * word. Pure and deterministic, no I/O; the offline engine's sentences are quotes of the
 * store and are never checked.
 *
 * Rules of `checkSentence` (every word compared by a light stem key: case, accents,
 * possessives, plurals, -ed/-ing/-ly and a final e folded, so "roasted" = "roasts"):
 * 1. Figures: every number must occur in the sources with the same unit ("30 days" =
 *    "30-day" = "30 day"; "10%" = "10 percent"). Currency is dropped ("$45" = "45" =
 *    "45.00 USD"), so amounts compare by value. A bare number matches any source figure of
 *    that value. Codes mixing letters and digits (SKUs, "V60") must occur as written.
 * 2. Names: capitalised words that do not start a sentence or clause and are not connective
 *    words (all-caps ones like "US" included), grouped in runs ("Southeast Portland"), must
 *    occur in the sources, runs as consecutive words. A capitalised word that starts a
 *    sentence says nothing about being a name: it only counts in rule 6.
 * 3. Materials (the catalogue's material list, core/prompts/product-lines.ts) must occur.
 * 4. Policies: store terms (free, free shipping, returns, refund, exchange, warranty,
 *    guarantee, lifetime, money back, worldwide, same/next day) must occur; attribute terms
 *    (certified, organic, handmade, vegan, fair trade, compostable, recycled, award,
 *    patented, "X-free", ...) must also occur in a source sentence that shares another word
 *    with the claim ("All coffees are certified organic" fails when only the teas are).
 *    "made in X" needs the sources to say made (manufactured, produced, ...) in X.
 * 5. The store's name (`names`, any casing, "&"/"and" alike) and connective words (stop
 *    words, contractions and generic verbs: is, sells, offers, ...) are always supported.
 * 6. Coverage: at least `MIN_COVERAGE` of the remaining content words (generic shop words
 *    like "store" or "products" left out) occur in the sources, so an invented claim made
 *    of ordinary words ("the best-selling mat among professional athletes") is dropped while
 *    a paraphrase, which reuses the store's words, passes. It is a floor, not a proof: on a
 *    big catalogue most ordinary words occur somewhere, so rules 1-4 do the precise work.
 *
 * Not caught (known limits): a negation of a stated fact ("we do not ship to Canada"), a
 * place name that starts its sentence (rule 6 only), and facts moved between two things the
 * store does name (only attributes are bound to their subject, rule 4).
 *
 * Cost: the index is built once per narrative (linear in the sources: sets of word keys,
 * word pairs and figures); checking a sentence is O(words) set look-ups.
 */
import { MATERIALS } from '../prompts/product-lines';
import { splitSentences } from './text';

/** Share of a sentence's content words that must occur in the sources (rule 6). */
export const MIN_COVERAGE = 0.6;

/** What the sources say, pre-tokenised. Opaque: build it with `groundingIndex`. */
export interface GroundingIndex {
  /** @internal Stem keys of every word (codes as written, lower case). */
  readonly words: ReadonlySet<string>;
  /** @internal "a b" for every two consecutive words of a source sentence. */
  readonly pairs: ReadonlySet<string>;
  /** @internal "45" for every figure, "30|day" for figures with a unit. */
  readonly figures: ReadonlySet<string>;
  /** @internal Attribute term → every word of the source sentences stating it; "madein:x" keys. */
  readonly context: ReadonlyMap<string, ReadonlySet<string>>;
  /** @internal The store's name(s) as key sequences (connectives dropped). */
  readonly names: readonly string[][];
}

export interface SentenceVerdict {
  sentence: string;
  supported: boolean;
  /** What the sources lack, e.g. ['Reykjavik', '100%', 'lifetime guarantee']. */
  missing: string[];
}

// ---------------------------------------------------------------------------------------
// Words

const STEMS = new Map<string, string>();

/** Light stem key: folded case and accents, no possessive, plural, -ed, -ing, -ly, final e. */
function stem(word: string): string {
  const cached = STEMS.get(word);
  if (cached !== undefined) return cached;
  let w = word.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/['’]s$/, '').replace(/['’]/g, '');
  if (w.length > 3 && !/\d/.test(w)) {
    if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
    else if (/(?:sses|xes|ches|shes|zes)$/.test(w)) w = w.slice(0, -2);
    else if (/[^su]s$/.test(w)) w = w.slice(0, -1);
    if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
    else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
    else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
    if (w.length > 3) w = w.replace(/e+$/, '');
  }
  if (STEMS.size > 200_000) STEMS.clear();
  STEMS.set(word, w);
  return w;
}

function undouble(w: string): string {
  return /([b-df-hj-km-np-rtv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

const keys = (words: string) => words.split(' ').map(stem);

/** Connective words: never a claim, always supported (compared lower case, unstemmed). */
const STOP = new Set(`a an the and or but nor so yet of in on at to for from by with without within into onto over under
about above below between among through across after before during per via as than then that this these those there here
it its they them their theirs we our ours you your yours he she him his her hers i me my mine who whom whose which what
when where why how is are was were be been being am do does did done doing has have had having can could will would shall
should may might must not no yes also too very just only both each every everything all any anything some many much more
most such own other up out off if because while whether etc eg ie s t re ve ll d n us one ones something someone
fully completely entirely totally always usually often really truly highly carefully simply especially particularly
it's that's there's we're we've we'll you're you'll they're i'm don't doesn't isn't aren't can't won't
sell sells sold selling offer offers offered offering provide provides provided providing include includes included including
feature features featured carry carries carried bring brings get gets let lets find finds make makes come comes like well
dollar dollars euro euros`.split(/\s+/));
/** Currency codes: amounts compare by value, so a code is neither a name nor a claim. */
const CURRENCIES = new Set('usd eur gbp cad aud nzd jpy chf sek nok dkk inr'.split(' '));
const isStop = (t: Token) => {
  const lower = t.raw.toLowerCase().replace(/’/g, "'");
  return STOP.has(lower) || CURRENCIES.has(lower);
};
/** Generic shop words: not a claim either, but they name a subject (rule 4 counts them, rule 6 does not). */
const GENERIC = new Set(keys('store shop online website site page catalogue catalog list product item range selection variety choice option variant customer shopper brand business company'));

const UNITS: Record<string, string> = {
  day: 'day', days: 'day', week: 'week', weeks: 'week', month: 'month', months: 'month', year: 'year', years: 'year', yr: 'year', yrs: 'year',
  hour: 'hour', hours: 'hour', hr: 'hour', hrs: 'hour', minute: 'minute', minutes: 'minute', min: 'minute', mins: 'minute',
  oz: 'oz', ounce: 'oz', ounces: 'oz', lb: 'lb', lbs: 'lb', pound: 'lb', pounds: 'lb', g: 'g', gr: 'g', gram: 'g', grams: 'g',
  kg: 'kg', kilo: 'kg', kilos: 'kg', kilogram: 'kg', kilograms: 'kg', mg: 'mg', ml: 'ml', cl: 'cl', l: 'l', litre: 'l', liter: 'l',
  litres: 'l', liters: 'l', mm: 'mm', cm: 'cm', m: 'm', metre: 'm', meter: 'm', metres: 'm', meters: 'm', inch: 'in', inches: 'in',
  ft: 'ft', foot: 'ft', feet: 'ft', percent: '%', pct: '%', x: 'x',
};
/** Words allowed between a number and its unit: "2-4 business days". */
const UNIT_GAP = new Set(['business', 'working', 'calendar', 'full']);
const ORDINAL = new Set(['st', 'nd', 'rd', 'th']);

/** Store policy terms (rule 4): must occur. Multi-word ones as consecutive words. */
const STORE_TERMS = ['free', 'free shipping', 'free delivery', 'free returns', 'free exchanges', 'free gift', 'free samples', 'returns', 'refund',
  'exchange', 'warranty', 'guarantee', 'guaranteed', 'lifetime', 'lifetime guarantee', 'lifetime warranty', 'money back', 'money back guarantee',
  'worldwide', 'international', 'internationally', 'same day', 'next day'];
/** Attribute terms (rule 4): must occur in a source sentence sharing another word with the claim. */
const ATTRIBUTE_TERMS = ['certified', 'certification', 'organic', 'handmade', 'handcrafted', 'hand made', 'hand crafted', 'hand sewn', 'vegan',
  'compostable', 'biodegradable', 'recyclable', 'recycled', 'sustainable', 'sustainably', 'ethically', 'fair trade', 'carbon neutral',
  'climate neutral', 'b corp', 'award', 'awarded', 'award winning', 'patented', 'kosher', 'halal', 'hypoallergenic', 'non toxic', 'non gmo',
  'dermatologist', 'clinically', 'fda'];
/** Words after which "in X" says where a product is made. */
const MADE_HEADS = new Set(keys('made manufactured produced handmade handcrafted crafted sewn built'));

interface Term { words: string[]; attribute: boolean }
const FREE = stem('free');
/** Terms by their first key, longest first, so "lifetime guarantee" wins over "lifetime". */
const TERMS = new Map<string, Term[]>();
for (const [list, attribute] of [[STORE_TERMS, false], [ATTRIBUTE_TERMS, true]] as const) {
  for (const t of list) {
    const term: Term = { words: keys(t), attribute };
    TERMS.set(term.words[0], [...(TERMS.get(term.words[0]) ?? []), term].sort((a, b) => b.words.length - a.words.length));
  }
}
const POLICY_WORDS = new Set([...TERMS.values()].flatMap((ts) => ts.flatMap((t) => t.words)).filter((w) => w !== 'in'));
const MATERIAL_TERMS = new Map<string, string[][]>();
for (const m of MATERIALS) {
  const k = keys(m);
  MATERIAL_TERMS.set(k[0], [...(MATERIAL_TERMS.get(k[0]) ?? []), k].sort((a, b) => b.length - a.length));
}

// ---------------------------------------------------------------------------------------
// Tokens

interface Token {
  raw: string;
  /** Stem key of a word; normalised value of a number; lower-case code. */
  key: string;
  kind: 'word' | 'number' | 'code';
  /** Canonical unit of a number ('' when none); set by `attachUnits`. */
  unit: string;
  /** Starts a sentence or clause: its capital says nothing. */
  start: boolean;
  /** Only a space or a hyphen since the previous token (names and phrases run over it). */
  joined: boolean;
  /** Exactly a hyphen since the previous token ("PVC-free"). */
  hyphen: boolean;
  /** The next token was read as this number's unit or ordinal suffix. */
  consumed: boolean;
  from: number;
  to: number;
}

const TOKEN = /[$€£¥₹]?\d+(?:[.,]\d+)*%?|[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;

function normNumber(text: string): string {
  let t = text.replace(/^[$€£¥₹]/, '').replace(/%$/, '');
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
  else if (/^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/.test(t)) t = t.replace(/\./g, '').replace(',', '.');
  else t = t.replace(',', '.');
  const n = Number(t);
  return Number.isFinite(n) ? String(n) : t;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const from = m.index;
    const gap = text.slice(last, from);
    last = from + raw.length;
    const start = out.length === 0 || /[.!?:;"“”‘(\[—–•|\n]/.test(gap) || /\s'/.test(gap);
    const joined = /^[\s-]*$/.test(gap) && !/\n/.test(gap);
    const hyphen = gap === '-';
    if (/^[$€£¥₹]?\d/.test(raw)) {
      out.push({ raw, key: normNumber(raw), kind: 'number', unit: raw.endsWith('%') ? '%' : '', start, joined, hyphen, consumed: false, from, to: last });
    } else if (/\d/.test(raw)) {
      out.push({ raw, key: raw.toLowerCase(), kind: 'code', unit: '', start, joined, hyphen, consumed: false, from, to: last });
    } else {
      out.push({ raw, key: stem(raw), kind: 'word', unit: '', start, joined, hyphen, consumed: false, from, to: last });
    }
  }
  attachUnits(out);
  return out;
}

/** "30-day", "12oz", "2-4 business days", "4 or 6 mm": units and ordinals join their numbers. */
function attachUnits(tokens: Token[]): void {
  tokens.forEach((t, i) => {
    if (t.kind !== 'number' || t.unit) return;
    let j = i + 1;
    if (tokens[j]?.joined && UNIT_GAP.has(tokens[j].raw.toLowerCase())) j++;
    const next = tokens[j];
    if (!next || !next.joined || next.kind !== 'word') return;
    const lower = next.raw.toLowerCase();
    if (ORDINAL.has(lower) && next.from === t.to) { next.consumed = true; return; }
    const unit = UNITS[lower];
    if (!unit || (unit === 'x' && next.from !== t.to)) return;
    t.unit = unit;
    next.consumed = true;
    if (j > i + 1) tokens[i + 1].consumed = true;
    // Numbers listed before it share the unit: "4, 5 or 6 mm", "2-4 days".
    for (let k = i - 1; k >= 0; k--) {
      const p = tokens[k];
      if (p.kind === 'number' && !p.unit) p.unit = unit;
      else if (!(p.kind === 'word' && ['and', 'or', 'to'].includes(p.raw.toLowerCase()))) break;
    }
  });
}

/** Start of a term (list of keys) at token i: its length, or 0. Words only, connected. */
function matchAt(tokens: readonly Token[], i: number, words: readonly string[]): number {
  for (let k = 0; k < words.length; k++) {
    const t = tokens[i + k];
    if (!t || t.kind !== 'word' || t.key !== words[k] || (k > 0 && !t.joined)) return 0;
  }
  return words.length;
}

function termAt(tokens: readonly Token[], i: number): Term | null {
  // "PVC-free", "plastic-free": a claim of absence, an attribute of its own
  const next = tokens[i + 1];
  if (tokens[i].kind === 'word' && next?.hyphen && next.key === FREE) return { words: [tokens[i].key, FREE], attribute: true };
  for (const term of TERMS.get(tokens[i].key) ?? []) if (matchAt(tokens, i, term.words)) return term;
  return null;
}

/** "made in X" at token i (i = the head word): the key of X, or null. */
function madeInAt(tokens: readonly Token[], i: number): { key: string; end: number } | null {
  if (!MADE_HEADS.has(tokens[i].key) || tokens[i + 1]?.raw.toLowerCase() !== 'in') return null;
  let j = i + 2;
  if (tokens[j]?.raw.toLowerCase() === 'the') j++;
  const place = tokens[j];
  return place && place.kind === 'word' ? { key: place.key, end: j } : null;
}

// ---------------------------------------------------------------------------------------
// Index

/**
 * Indexes the sources (plain text: titles, descriptions, page text, product fields). Pass
 * the store's name in `names` (it is also indexed as a source): in any casing it is always
 * supported and counts neither for nor against coverage. Without `names`, a name given as a
 * source is still supported, only counted like any other words.
 */
export function groundingIndex(sources: readonly string[], options: { names?: readonly string[] } = {}): GroundingIndex {
  const words = new Set<string>();
  const pairs = new Set<string>();
  const figures = new Set<string>();
  const context = new Map<string, Set<string>>();
  const addContext = (key: string, tokens: readonly Token[]) => {
    let set = context.get(key);
    if (!set) context.set(key, (set = new Set()));
    for (const t of tokens) if (t.kind === 'word' && !isStop(t)) set.add(t.key);
  };
  for (const source of [...(options.names ?? []), ...sources]) {
    for (const sentence of splitSentences(source)) {
      const tokens = tokenize(sentence);
      tokens.forEach((t, i) => {
        words.add(t.key);
        if (i > 0) pairs.add(`${tokens[i - 1].key} ${t.key}`);
        if (t.kind === 'number') {
          figures.add(t.key);
          if (t.unit) figures.add(`${t.key}|${t.unit}`);
        }
        if (t.kind !== 'word') return;
        const term = termAt(tokens, i);
        if (term?.attribute) addContext(term.words.join(' '), tokens);
        const made = madeInAt(tokens, i);
        if (made) addContext(`madein:${made.key}`, tokens);
      });
    }
  }
  const names = (options.names ?? [])
    .map((n) => tokenize(n).map((t) => t.key).filter((k) => !CONNECTORS.has(k)))
    .filter((k) => k.length);
  return { words, pairs, figures, context, names };
}

const CONNECTORS = new Set(['and', 'n', 'of', 'the']);

/** Marks the tokens that spell the store's name ("Ember & Leaf", "EMBER AND LEAF'S"). */
function nameTokens(tokens: readonly Token[], names: readonly string[][]): Set<number> {
  const marked = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    for (const name of names) {
      const hit: number[] = [];
      let j = i;
      for (const key of name) {
        while (hit.length && tokens[j] && CONNECTORS.has(tokens[j].key)) hit.push(j++);
        if (tokens[j]?.key !== key) { hit.length = 0; break; }
        hit.push(j++);
      }
      if (hit.length) hit.forEach((h) => marked.add(h));
    }
  }
  return marked;
}

// ---------------------------------------------------------------------------------------
// Checks

/** Whether consecutive keys all occur as consecutive words of the sources. */
function hasRun(index: GroundingIndex, run: readonly string[]): boolean {
  if (run.length === 1) return index.words.has(run[0]);
  for (let k = 1; k < run.length; k++) if (!index.pairs.has(`${run[k - 1]} ${run[k]}`)) return false;
  return true;
}

function isName(t: Token): boolean {
  if (t.kind !== 'word' || t.start || !/^\p{Lu}/u.test(t.raw) || CURRENCIES.has(t.raw.toLowerCase())) return false;
  return /^\p{Lu}{2,}$/u.test(t.raw) || !isStop(t); // "US" is a place, "us" a pronoun
}

/** `minCoverage`: rule 6's share; a label (an audience, an industry) is checked with 1, every content word. */
export function checkSentence(sentence: string, index: GroundingIndex, minCoverage = MIN_COVERAGE): SentenceVerdict {
  const tokens = tokenize(sentence);
  const own = nameTokens(tokens, index.names);
  const missing: string[] = [];
  const reported = new Set<number>();
  const miss = (from: number, to: number) => {
    const text = sentence.slice(tokens[from].from, tokens[to].to);
    let fresh = false;
    for (let k = from; k <= to; k++) if (!reported.has(k)) { reported.add(k); fresh = true; }
    if (fresh && !missing.includes(text)) missing.push(text);
  };
  const used = new Set<number>(own);
  // Words that can be the subject of an attribute claim (rule 4). The store's name is one too:
  // "<store> is certified organic" needs a source that says so of the store, not of its teas.
  const subjects = tokens.flatMap((t, i) => (t.kind === 'word' && !t.consumed && !isStop(t) && !POLICY_WORDS.has(t.key) ? [i] : []));
  const attributed = (ctx: ReadonlySet<string> | undefined, from: number, to: number) => {
    const others = subjects.filter((i) => i < from || i > to);
    return ctx !== undefined && (!others.length || others.some((i) => ctx.has(tokens[i].key)));
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (own.has(i) || t.consumed) continue;
    // 1. figures and codes
    if (t.kind === 'number') {
      if (!index.figures.has(t.unit ? `${t.key}|${t.unit}` : t.key)) {
        let end = i;
        while (tokens[end + 1]?.consumed) end++;
        miss(i, end);
      }
      continue;
    }
    if (t.kind === 'code') {
      if (!index.words.has(t.key)) miss(i, i);
      continue;
    }
    // 4. policies ("made in X" first: it binds the place)
    const made = madeInAt(tokens, i);
    if (made && !attributed(index.context.get(`madein:${made.key}`), i, made.end)) miss(i, made.end);
    if (!used.has(i)) {
      const term = termAt(tokens, i);
      if (term) {
        const end = i + term.words.length - 1;
        for (let k = i; k <= end; k++) used.add(k);
        const stated = hasRun(index, term.words) && (!term.attribute || attributed(index.context.get(term.words.join(' ')), i, end));
        if (!stated) miss(i, end);
        continue;
      }
      // 3. materials
      const material = (MATERIAL_TERMS.get(t.key) ?? []).find((m) => matchAt(tokens, i, m) && tokens[i + m.length]?.key !== FREE);
      if (material) {
        const end = i + material.length - 1;
        for (let k = i; k <= end; k++) used.add(k);
        if (!hasRun(index, material)) miss(i, end);
        continue;
      }
    }
    // 2. names, as runs of capitalised words
    if (isName(t) && !used.has(i)) {
      let end = i;
      while (tokens[end + 1] && tokens[end + 1].joined && isName(tokens[end + 1]) && !own.has(end + 1)) end++;
      for (let k = i; k <= end; k++) used.add(k);
      if (!hasRun(index, tokens.slice(i, end + 1).map((x) => x.key))) miss(i, end);
      i = end;
    }
  }

  // 6. coverage of the content words
  const content = tokens.flatMap((t, i) => (t.kind === 'word' && !own.has(i) && !t.consumed && t.key.length > 1 && !isStop(t) && !GENERIC.has(t.key) ? [i] : []));
  const unsupported = content.filter((i) => !index.words.has(tokens[i].key));
  if (content.length && (content.length - unsupported.length) / content.length < minCoverage) {
    for (const i of unsupported) if (!reported.has(i) && !missing.includes(tokens[i].raw)) missing.push(tokens[i].raw);
  }
  return { sentence, supported: missing.length === 0, missing };
}

/** Splits text into sentences, keeps the supported ones in order, joined by a space. */
export function groundText(text: string, index: GroundingIndex): { text: string; kept: string[]; dropped: SentenceVerdict[] } {
  const kept: string[] = [];
  const dropped: SentenceVerdict[] = [];
  for (const sentence of splitSentences(text)) {
    const verdict = checkSentence(sentence, index);
    if (verdict.supported) kept.push(sentence);
    else dropped.push(verdict);
  }
  return { text: kept.join(' '), kept, dropped };
}
