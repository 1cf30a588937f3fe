/**
 * The deterministic mention matcher: whether an AI answer mentions and recommends the
 * entity, which known competitors it names and what kind of site each citation is. Pure:
 * no I/O. It decides when no judge model is configured (or the judge fails) and
 * cross-checks the judge otherwise (evaluate.ts); the judge is told the same rules.
 *
 * Rules (kept simple on purpose; nuance is the judge's job):
 *
 * Names. The entity's name, its aliases, its distinctive product names and the known
 * competitors' names are found with the service's one name matcher (core/text/name-match:
 * any casing, spacing, punctuation, "&"/"and", CamelCase joined, possessive; whole words
 * only, so "Ember" never matches "remember", "Sukha" never "Sukhasana", and "Harbor & Pine"
 * never "Harbor Pines"). An occurrence of the entity's name or alias is not the entity when
 * it is part of a longer name or an ordinary word (core/visibility/longer-names.ts): followed
 * by a capitalised word that is not a legal-form word nor one of the store's own name words
 * ("Finch Trading Co.", "Harbor & Pine Outfitters" for "Harbor & Pine Coffee Co."), or a
 * one-word name written all in lower case ("a finch landed"). Which aliases the entity has
 * is decided upstream (core/visibility/brand-aliases.ts: a single word only when the store
 * uses it standalone and it is not a common English word). Names are looked for in the
 * text with every URL and host blanked
 * out: a brand word inside some other site's URL (`https://reddit.com/r/yoga/sukha-review`)
 * is not a mention.
 * - An alias counts when it has at least one word that is not ordinary language (stop,
 *   legal, shop, colour, size, material or common product/category word): "Sukha" does,
 *   "Yoga Mat" does not; an alias of under 4 letters in all ("PRO", "eKO") never does,
 *   since it is matched case-insensitively and reads as an ordinary word ("pro tip").
 * - A product name counts when it has at least two words and at least one that is not
 *   ordinary ("Cloud Nine Yoga Mat" does, "Cork Yoga Mat" does not), and only in full; a
 *   one-word product name ("Lotus") is too ambiguous and never counts on its own.
 *
 * Domains. A host written in the text (`sukha.com`, `www.sukha.com`,
 * `https://shop.sukha.com/x`) that equals one of the entity's hosts (`domains` and
 * `aiSiteDomains`, `www.` ignored) or is a subdomain of one is the entity; a host that
 * merely contains the brand (`sukha-reviews.net`) or a path naming it is not. E-mail
 * addresses are read the same way (by their domain), never as a name.
 *
 * mentioned = a counted name, alias or product name in the text; or an entity host in the
 * text; or a citation of an entity host. A citation of the store (or AI site) counts as a
 * mention because the answer sourced the entity, but it is never a recommendation.
 *
 * recommended = mentioned in a recommending context. The text is cut into units: each
 * list line (`-`, `*`, `•`, `1.`, `1)`, a numbered heading `### 2. ...`, a table row
 * `| ... |`) is one unit, other lines are cut into sentences; units are cut into clauses
 * at `;` and at "but / however / whereas / although". A clause names the entity when it
 * has a counted name, alias or product, or a bare entity host ("Sukha.com"; a full URL
 * does not count). Such a clause recommends the entity when it is not negated and either
 * - it is in a top-level list item (not an indented sub-item) whose list is not introduced
 *   by a negative line ("Brands to avoid:"), or
 * - it has a recommend word: best, recommend, try, consider, top pick/choice/rated, go
 *   with, great/good/solid/excellent/popular/perfect/ideal option/choice/pick/bet/alternative, ideal,
 *   favourite, go-to, stands out, worth a look/trying/it, check out, can't go wrong.
 * Negated: "stay away", "steer clear", "beware", not/never/don't/wouldn't/can't/isn't...
 * followed (within one word) by recommend, buy, worth, the best, a good, a great; and
 * "avoid", except before an -ing word ("avoid slipping"; "avoid buying/using/ordering/
 * purchasing/getting" stays negative), after "help(s)" ("helps avoid") or opening the
 * clause ("To avoid injury, ...").
 * Known limitation: a clause that recommends a competitor over the entity with a
 * recommend word ("Unlike Sukha, Manduka is the best") counts for both.
 *
 * competitorsMentioned = known competitors named in the text (name, or their host written
 * in the text; citations alone do not count, they are labelled `competitor` instead), in
 * order of first appearance, as written in `competitors`. A competitor that is the entity
 * itself (same name or an entity host) is ignored.
 *
 * citations = every cited URL in the answer's order: its host equal to or a subdomain of an
 * `aiSiteDomains` host → `ai_site`; of another entity host → `store`; of a competitor's
 * domain → `competitor`; anything else (unparsable URLs included) → `other`.
 */
import { distinctiveTokens, findName, nameTokens } from '../text/name-match';
import { namesIt, ownWordsOf } from './longer-names';
import type { AnswerVerdict, CitationKind, EntityIdentity, PlatformAnswer } from './platform-answer';

// ---------------------------------------------------------------------------------------
// Hosts and URLs
// ---------------------------------------------------------------------------------------

/** "https://WWW.Sukha.com:443/x" or "sukha.com." → "sukha.com"; null when there is no host. */
export function normalizeHost(value: string): string | null {
  let v = value.trim().toLowerCase();
  if (!v) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//.test(v)) v = `http://${v.replace(/^\/\//, '')}`;
  let host: string;
  try {
    host = new URL(v).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.+$/, '').replace(/^www\d*\./, '');
  return host && host.includes('.') ? host : null;
}

/** Whether `host` is `domain` or one of its subdomains (both normalised). */
export function hostMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function hostList(values: readonly string[]): string[] {
  return [...new Set(values.map(normalizeHost).filter((h): h is string => Boolean(h)))];
}

/** A URL, bare host or e-mail address written in a text: where, its host, and whether it was a bare host. */
interface TextHost {
  index: number;
  end: number;
  host: string;
  /** Written as a name ("Sukha.com"): no scheme and no path. */
  bare: boolean;
}

const URL_CHARS = String.raw`[^\s<>()\[\]{}"'\u0060|]`;
const HOST = String.raw`(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}`;
const URL_IN_TEXT = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.%+\-])[\p{L}\p{N}_.%+\-]+@(${HOST})(?![\p{L}\p{N}_-])` +
    '|' +
    String.raw`https?:\/\/(${URL_CHARS}+)` +
    '|' +
    String.raw`(?<![\p{L}\p{N}_@.\-\/])(${HOST})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])(\/${URL_CHARS}*)?`,
  'giu',
);

/** The URLs, hosts and e-mail addresses written in a text, and the text with each blanked out (same length). */
function scanUrls(text: string): { blanked: string; hosts: TextHost[] } {
  const hosts: TextHost[] = [];
  let blanked = '';
  let last = 0;
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const index = m.index ?? 0;
    const end = index + m[0].length;
    // Groups: 1 e-mail domain, 2 URL after the scheme, 3 bare host, 4 its path.
    const host = normalizeHost(m[1] ?? m[2] ?? m[3] ?? '');
    if (host) hosts.push({ index, end, host, bare: m[3] !== undefined && !m[4] });
    blanked += text.slice(last, index) + ' '.repeat(m[0].length);
    last = end;
  }
  blanked += text.slice(last);
  return { blanked, hosts };
}

export interface CitationRules {
  entityHosts: string[];
  aiSiteHosts: string[];
  competitorHosts: string[];
}

export function citationRules(entity: EntityIdentity): CitationRules {
  return {
    entityHosts: hostList([...entity.domains, ...(entity.aiSiteDomains ?? [])]),
    aiSiteHosts: hostList(entity.aiSiteDomains ?? []),
    competitorHosts: hostList(entity.competitors.flatMap((c) => (c.domain ? [c.domain] : []))),
  };
}

/** The kind of one cited URL (see the module comment). */
export function classifyCitation(url: string, rules: CitationRules): CitationKind {
  const host = normalizeHost(url);
  if (!host) return 'other';
  if (rules.aiSiteHosts.some((d) => hostMatches(host, d))) return 'ai_site';
  if (rules.entityHosts.some((d) => hostMatches(host, d))) return 'store';
  if (rules.competitorHosts.some((d) => hostMatches(host, d))) return 'competitor';
  return 'other';
}

// ---------------------------------------------------------------------------------------
// Which names count
// ---------------------------------------------------------------------------------------

/** Ordinary words: never what makes an alias or product name distinctive. */
const ORDINARY = new Set([
  // colours and finishes
  'black', 'white', 'grey', 'gray', 'silver', 'gold', 'red', 'blue', 'navy', 'green', 'olive', 'sage', 'mint', 'teal', 'yellow', 'orange',
  'pink', 'rose', 'purple', 'lavender', 'brown', 'tan', 'beige', 'sand', 'ivory', 'natural', 'clear', 'matte', 'dark',
  // sizes and quantities
  'xs', 'xl', 'xxl', 'small', 'medium', 'large', 'mini', 'extra', 'long', 'wide', 'tall', 'short', 'thick', 'thin', 'standard', 'regular',
  'big', 'pack', 'set', 'pair', 'piece', 'bundle', 'size', 'new', 'edition', 'version', 'mm', 'cm', 'inch', 'oz', 'lb', 'kg', 'ml',
  // materials
  'cork', 'jute', 'hemp', 'wool', 'linen', 'silk', 'cotton', 'organic', 'recycled', 'rubber', 'foam', 'bamboo', 'wood', 'wooden', 'leather',
  'vegan', 'canvas', 'steel', 'stainless', 'glass', 'ceramic', 'silicone', 'plastic', 'metal', 'merino', 'cashmere', 'denim', 'tpe', 'pvc',
  'eva', 'nbr', 'microfiber', 'suede', 'marble', 'brass', 'copper', 'aluminum', 'aluminium', 'titanium', 'porcelain', 'stoneware', 'kapok',
  // marketing words
  'premium', 'classic', 'original', 'essential', 'essentials', 'basic', 'deluxe', 'luxury', 'eco', 'friendly', 'ultra', 'super', 'best',
  'lite', 'plus', 'max', 'signature', 'everyday', 'daily', 'performance', 'comfort', 'soft', 'non', 'slip', 'grip', 'lightweight', 'portable',
  'travel', 'home', 'handmade', 'sustainable', 'hot', 'cold', 'warm', 'fresh', 'pure', 'simple', 'modern', 'vintage',
  // product and category words
  'yoga', 'pilates', 'meditation', 'fitness', 'gym', 'sport', 'sports', 'running', 'outdoor', 'kitchen', 'garden', 'pet', 'dog', 'cat',
  'baby', 'kids', 'men', 'mens', 'women', 'womens', 'unisex', 'mat', 'block', 'strap', 'towel', 'bag', 'bottle', 'cushion', 'bolster',
  'blanket', 'pillow', 'wheel', 'ball', 'band', 'shirt', 'tee', 'top', 'hoodie', 'sweater', 'jacket', 'coat', 'pant', 'pants', 'legging',
  'leggings', 'shorts', 'dress', 'skirt', 'bra', 'sock', 'socks', 'shoe', 'shoes', 'boot', 'boots', 'sneaker', 'sneakers', 'hat',
  'cap', 'scarf', 'glove', 'gloves', 'mug', 'cup', 'bowl', 'plate', 'pot', 'pan', 'knife', 'candle', 'soap', 'lotion', 'cream', 'oil',
  'serum', 'balm', 'spray', 'cleaner', 'tea', 'coffee', 'bean', 'beans', 'blend', 'roast', 'chocolate', 'snack', 'box', 'case', 'cover',
  'holder', 'stand', 'rack', 'tray', 'basket', 'lamp', 'light', 'chair', 'table', 'desk', 'bed', 'sheet', 'rug', 'gift', 'card', 'accessory',
  'accessories', 'tool', 'tools', 'gear', 'equipment', 'jewelry', 'necklace', 'ring', 'bracelet', 'earring', 'earrings', 'watch', 'wallet',
  'backpack', 'tote', 'belt', 'pad', 'cloth', 'wrap', 'kit', 'refill', 'starter', 'collection', 'line', 'series', 'model', 'product',
]);

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && /[^su]s$/.test(word)) return word.slice(0, -1);
  return word;
}

function notOrdinary(token: string): boolean {
  return token.length >= 2 && !/^\d/.test(token) && !ORDINARY.has(token) && !ORDINARY.has(singular(token));
}

/** Whether an alias can be told apart from ordinary language (see the module comment). */
export function aliasCounts(alias: string): boolean {
  const tokens = distinctiveTokens(alias);
  if (tokens.join('').length < 4) return false; // "PRO", "eKO", "Go": ordinary words too
  return tokens.some(notOrdinary);
}

/** Whether a product name can be told apart from ordinary language (see the module comment). */
export function productNameCounts(productName: string): boolean {
  const words = nameTokens(productName).filter((t) => !/^\d+$/.test(t));
  return words.length >= 2 && distinctiveTokens(productName).some(notOrdinary);
}

// ---------------------------------------------------------------------------------------
// Recommending context
// ---------------------------------------------------------------------------------------

const RECOMMEND = new RegExp(
  String.raw`\b(?:best|recommend(?:s|ed|ing|ation|ations)?|try|consider|top[- ]?(?:pick|picks|choice|choices|rated)|go with|` +
    String.raw`(?:great|good|solid|excellent|popular|strong|safe|perfect|ideal)\s+(?:option|options|choice|choices|pick|picks|bet|fit|alternative|alternatives)|` +
    String.raw`ideal|favou?rites?|go-to|stands? out|worth (?:a look|checking|considering|trying|it)|check out|can'?t go wrong)\b`,
  'i',
);
const NEG_WORD = String.raw`\b(?:not|never|don'?t|doesn'?t|didn'?t|wouldn'?t|won'?t|can'?t|cannot|couldn'?t|shouldn'?t|isn'?t|aren'?t|wasn'?t)`;
const NEGATION = new RegExp(
  String.raw`\bavoid(?:s|ed)?\b(?!\s+(?!buying|using|ordering|purchasing|getting)\w+ing\b)|\bstay(?:ing)? away\b|\bsteer(?:ing)? clear\b|\bbeware\b|` +
    String.raw`${NEG_WORD}\s+(?:\w+\s+)?(?:recommend|buy|worth|(?:the|a|an)\s+(?:best|good|great))`,
  'i',
);
/** "avoid" that is advice about something else: "helps avoid", "To avoid injury, ...". */
const BENIGN_AVOID = /\bhelp(?:s|ing)?\s+(?:to\s+|you\s+)?avoid\b|^\W*to avoid\b/i;

function negated(clause: string): boolean {
  const text = clause.replace(/[’‘]/g, "'");
  if (!NEGATION.test(text)) return false;
  // Only a benign "avoid" and nothing else negative: not negated.
  const withoutBenign = text.replace(BENIGN_AVOID, ' ');
  return NEGATION.test(withoutBenign);
}

function recommends(clause: string): boolean {
  return RECOMMEND.test(clause.replace(/[’‘]/g, "'"));
}

interface Clause {
  start: number;
  end: number;
  /** In a top-level list item whose list is not introduced negatively. */
  listed: boolean;
  /** In a list item under a negative lead-in ("Brands to avoid:"). */
  negativeList: boolean;
}

const LIST_ITEM = /^(\s*)(?:[-*+•‣◦▪]\s+|\d{1,3}[.)]\s+|#{1,6}\s*\d{1,3}[.)]\s+|\|(?!\s*:?-{2,}))/u;
const SENTENCE_END = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}*_"“'(\[])/gu;
const CLAUSE_BREAK = /;|,?\s+(?:but|however|whereas|although)\b/gi;

/** Cuts `[start, end)` of `text` at the matches of `re`. */
function cut(text: string, start: number, end: number, re: RegExp): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = start;
  for (const m of text.slice(start, end).matchAll(re)) {
    const at = start + (m.index ?? 0);
    if (at > from) out.push([from, at]);
    from = at + m[0].length;
  }
  if (end > from) out.push([from, end]);
  return out;
}

/** The clauses of a text (see the module comment), as index ranges of `text`. */
function clausesOf(text: string): Clause[] {
  const clauses: Clause[] = [];
  let leadInNegative = false;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    const end = start + line.length;
    offset = end + 1;
    if (!line.trim()) continue;
    const item = LIST_ITEM.exec(line);
    if (item) {
      const sub = item[1].replace(/\t/g, '  ').length >= 2;
      for (const [a, b] of cut(text, start, end, CLAUSE_BREAK)) {
        clauses.push({ start: a, end: b, listed: !sub && !leadInNegative, negativeList: leadInNegative });
      }
      continue;
    }
    leadInNegative = negated(line);
    for (const [s, e] of cut(text, start, end, SENTENCE_END)) {
      for (const [a, b] of cut(text, s, e, CLAUSE_BREAK)) clauses.push({ start: a, end: b, listed: false, negativeList: false });
    }
  }
  return clauses;
}

// ---------------------------------------------------------------------------------------
// The verdict
// ---------------------------------------------------------------------------------------

export function matchAnswer(answer: Pick<PlatformAnswer, 'text' | 'citations' | 'sourceHosts'>, entity: EntityIdentity): AnswerVerdict {
  const text = answer.text ?? '';
  const rules = citationRules(entity);
  const { blanked, hosts } = scanUrls(text);
  const isEntityHost = (host: string) => rules.entityHosts.some((d) => hostMatches(host, d));

  const aliases = entity.aliases.filter((n) => n && n.trim() && aliasCounts(n));
  const products = entity.productNames.filter((n) => n && n.trim() && productNameCounts(n));
  const own = ownWordsOf([entity.name, ...aliases], products);
  const namesIn = (part: string) => (entity.name.trim() !== '' && namesIt(part, entity.name, own))
    || aliases.some((n) => namesIt(part, n, own, true))
    || products.some((n) => namesIt(part, n, own));

  // Recommending context, clause by clause.
  let namedInText = false;
  let recommended = false;
  for (const clause of clausesOf(text)) {
    const part = blanked.slice(clause.start, clause.end);
    const present = namesIn(part) || hosts.some((h) => h.bare && h.index >= clause.start && h.index < clause.end && isEntityHost(h.host));
    if (!present) continue;
    namedInText = true;
    if (recommended || clause.negativeList || negated(part)) continue;
    if (clause.listed || recommends(part)) recommended = true;
  }

  // A link that hides its source (Gemini's grounding redirects) is classified by the source
  // host the vendor states for it (PlatformAnswer.sourceHosts), never by the redirect's own.
  const citations = answer.citations.map((url) => {
    const source = answer.sourceHosts?.[url];
    return { url, kind: classifyCitation(source ? `https://${source}/` : url, rules) };
  });
  const mentioned = namedInText
    || hosts.some((h) => isEntityHost(h.host))
    || citations.some((c) => c.kind === 'store' || c.kind === 'ai_site');

  // Competitors, by first appearance.
  const entityNameFolded = nameTokens(entity.name).join(' ');
  const found: Array<{ name: string; at: number }> = [];
  const seen = new Set<string>();
  for (const competitor of entity.competitors) {
    const name = competitor.name?.trim() ?? '';
    const domain = competitor.domain ? normalizeHost(competitor.domain) : null;
    if (domain && isEntityHost(domain)) continue;
    if (name && nameTokens(name).join(' ') === entityNameFolded) continue;
    const key = name.toLowerCase() || domain || '';
    if (!key || seen.has(key)) continue;
    let at = name ? findName(blanked, name) : -1;
    if (domain) {
      const byHost = hosts.find((h) => hostMatches(h.host, domain));
      if (byHost && (at < 0 || byHost.index < at)) at = byHost.index;
    }
    if (at < 0) continue;
    seen.add(key);
    found.push({ name: name || domain || '', at });
  }
  found.sort((a, b) => a.at - b.at);

  return {
    mentioned: mentioned || recommended,
    recommended,
    competitorsMentioned: found.map((f) => f.name),
    citations,
    by: 'matcher',
  };
}
