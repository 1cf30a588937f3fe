/**
 * The facets a store's own words give a product (D35: a question is asked only when the
 * store's content says something about it), read sentence by sentence so each facet comes
 * with the facts that state it:
 * - problems: what a text says a product prevents, reduces, relieves or helps with
 *   ("prevents slipping" → "preventing slipping", "helps with back pain" → "back pain");
 * - audiences: the people a text says it is for ("for home baristas", "beginner-friendly");
 * - uses: what it is made, ideal or designed for (prompts' `useCases`);
 * - care, origin, materials and features, by their wording.
 * Nothing is inferred: a facet no sentence states is not a facet.
 */
import { lowerLabel, splitSentences } from '../generate/text';
import { containsName } from '../text/name-match';

/** "prevents X" → "preventing X"; null: the object reads as it is ("helps with back pain" → "back pain"). */
const PROBLEM_VERBS: Array<{ re: RegExp; gerund: string | null }> = [
  { re: /\bprevent(?:s|ing)?\b/i, gerund: 'preventing' },
  { re: /\breduc(?:e|es|ing)\b/i, gerund: 'reducing' },
  { re: /\b(?:reliev(?:e|es|ing)|relief from)\b/i, gerund: 'relieving' },
  { re: /\b(?:avoid(?:s|ing)?|no more|say goodbye to)\b/i, gerund: 'avoiding' },
  { re: /\bsooth(?:e|es|ing)\b/i, gerund: 'soothing' },
  { re: /\beas(?:e|es|ing)\b/i, gerund: 'easing' },
  { re: /\beliminat(?:e|es|ing)\b/i, gerund: 'eliminating' },
  { re: /\bminimi[sz](?:e|es|ing)\b/i, gerund: 'minimizing' },
  { re: /\bprotect(?:s|ing)? against\b/i, gerund: 'protecting against' },
  { re: /\b(?:helps? with|struggl(?:e|es|ing) with|tired of)\b/i, gerund: null },
];
const PROBLEM_CLAUSE = new RegExp(
  `\\b(${PROBLEM_VERBS.map((v) => v.re.source.replace(/^\\b|\\b$/g, '')).join('|')})\\s+([^.;:!?,()]{3,80})`,
  'gi',
);
/** The object ends at a linking word: "prevents slipping during hot yoga" → "slipping". */
const OBJECT_END = /\s+(?:during|when|while|with|without|and|or|so|because|in|on|at|for|from|by|that|which|who|to|after|before|as|thanks|all|every|even)\b/i;
const OBJECT_START_STOP = /^(you|your|yours|it|its|this|that|these|those|them|us|our|any|all|every|more|less|up|out|into|over|of|to|in|on|at|for|with|by|from|as|is|are|was|be|can|will|and|or|but|while|when)$/i;
/** People are audiences, not problems. */
const PEOPLE_HEAD = /^(people|person|everyone|anyone|someone|beginners?|students?|parents?|moms?|dads?|kids?|children|child|babies|baby|toddlers?|teens?|men|women|families|family|lovers?|fans?|enthusiasts?|drinkers?|brewers?|baristas?|roasters?|cooks?|chefs?|bakers?|athletes?|runners?|cyclists?|travell?ers?|hikers?|campers?|yogis?|owners?|professionals?|pros?|experts?|buyers?|shoppers?|customers?|users?|makers?|artists?|gardeners?|readers?|gamers?|collectors?|cafes?|cafés?|restaurants?|offices?|teams?|businesses|business|households?|couples?|friends?|him|her|them|gifters?|givers?|pets?|dogs?|cats?|connoisseurs?|aficionados?|foodies?|newcomers?|homes?|eaters?|sleepers?|snackers?|learners?|kids?|seniors?|students?|commuters?)$/i;

function problemPhrase(raw: string, gerund: string | null, businessName: string): string | null {
  // "prevents the lid from leaking": the problem is after "from", not the lid.
  if (/^\s*\S+(?:\s+\S+){0,3}?\s+from\s/i.test(raw) && OBJECT_END.exec(raw)?.[0].trim().toLowerCase() === 'from') return null;
  const object = (raw.split(OBJECT_END)[0] ?? '').trim();
  let words = object.split(/\s+/).filter(Boolean);
  while (words.length && /^(the|a|an)$/i.test(words[0] as string)) words = words.slice(1);
  if (!words.length || words.length > 4 || OBJECT_START_STOP.test(words[0] as string)) return null;
  const phrase = lowerLabel(words.join(' ').replace(/[^\p{L}\p{N}' -]/gu, '').trim());
  return acceptable(phrase, businessName) ? (gerund ? `${gerund} ${phrase}` : phrase) : null;
}

function acceptable(phrase: string, businessName: string): boolean {
  if (!phrase || phrase.length < 3 || phrase.length > 48 || /\d/.test(phrase) || !/\p{L}{3,}/u.test(phrase)) return false;
  const words = phrase.split(' ');
  if (words.length > 5 || /^(and|or|of|the|a|an|to|with|for)$/i.test(words[words.length - 1] as string)) return false;
  if (PEOPLE_HEAD.test(words[words.length - 1] as string)) return false;
  return !containsName(phrase, businessName);
}

/** The problem phrases one text states: "prevents X" clauses. */
export function problemClauses(text: string, businessName: string): string[] {
  const out: string[] = [];
  for (const sentence of splitSentences(text)) {
    for (const m of sentence.matchAll(PROBLEM_CLAUSE)) {
      const verb = PROBLEM_VERBS.find((v) => v.re.test(m[1] as string));
      const phrase = problemPhrase(m[2] as string, verb ? verb.gerund : null, businessName);
      if (phrase) out.push(phrase);
    }
  }
  return out;
}


/** People who are not an audience one would ask about ("him", "them", "everyone"). */
const NOT_AN_AUDIENCE = /^(him|her|them|everyone|anyone|someone|people|person|homes?|business|businesses|offices?|restaurants?|cafes?|cafés?|teams?|dogs?|cats?|pets?|users?|customers?|buyers?|shoppers?)$/i;
const AUDIENCE_FOR = /\bfor (?:the |all |every |any |most |both )?((?:[\p{L}-]+(?: |$|(?=[.,;:!?)]))){1,3})/giu;
const FRIENDLY = /\b(beginner|kid|child|family|travel|pet)-friendly\b/gi;

/**
 * The audiences a text names: "for home cooks who prep" → "home cooks", "beginner-friendly" →
 * "beginners". The shortest run of 1-3 words after "for" that ends in a plural noun of people
 * (PEOPLE_HEAD); none when a function word comes first ("for you and your friends").
 */
export function audiencesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(AUDIENCE_FOR)) {
    // "Not for children under 3", "not suitable for beginners": a warning, not an audience.
    if (/\bnot\s+(?:\w+\s+){0,2}$/i.test(text.slice(Math.max(0, (m.index ?? 0) - 30), m.index))) continue;
    const words = (m[1] as string).trim().toLowerCase().split(' ');
    for (let n = 1; n <= words.length; n++) {
      const run = words.slice(0, n);
      if (run.some((w) => OBJECT_START_STOP.test(w) || /^(and|or|&|who|that|which)$/.test(w))) break;
      const head = run[n - 1] as string;
      if (PEOPLE_HEAD.test(head) && !NOT_AN_AUDIENCE.test(head) && /s$|people|men|children/.test(head)) {
        out.push(run.join(' '));
        break;
      }
    }
  }
  for (const m of text.matchAll(FRIENDLY)) {
    const who = (m[1] as string).toLowerCase();
    out.push(who === 'beginner' ? 'beginners' : who === 'kid' ? 'kids' : who === 'child' ? 'children' : who === 'family' ? 'families' : who === 'travel' ? 'travelers' : 'pet owners');
  }
  return [...new Set(out)];
}

/** How a product is looked after: washing, cleaning, storing, oiling ... */
export const CARE = /\b((?:hand|machine|spot)[- ]wash(?:able)?|wash (?:it|them|in|with|by|before|after|cold|warm)|clean (?:it|them|with)|easy to clean|wipe(?:s|d)? (?:clean|down|with|it|them)|dishwasher|rinse|descal(?:e|ing)|re-?season|oil (?:it|them|the)|store (?:it|them|in|flat|rolled)|care (?:for|instructions)|air[- ]dry|tumble[- ]dry|do not (?:wash|soak|bleach|iron))\b/i;

const ORIGIN_VERBS = ['made', 'grown', 'sewn', 'woven', 'crafted', 'produced', 'roasted', 'thrown', 'harvested', 'distilled', 'designed', 'printed', 'handmade', 'assembled', 'sourced', 'built', 'knitted', 'blown', 'forged'];
/**
 * Where a product is made, grown or comes from: a verb of making ("Made", "handmade",
 * "wheel-thrown") then "in"/"from" and a place name (a capital and a small letter: "Made in
 * Portugal", not "made from FSC-certified pulp").
 */
export const ORIGIN = new RegExp(`\\b(?:${ORIGIN_VERBS.map((v) => `[${v[0]!.toUpperCase()}${v[0]}]${v.slice(1)}`).join('|')}) (?:in|from)\\s+\\p{Lu}\\p{Ll}`, 'u');

/** What a product is for: "ideal for", "made for", "designed for", "use it for". */
export const USE = /\b(?:(?:perfect|ideal|great|built|made|designed|suited|best|good|meant|works?|intended)\s+(?:\w+\s+)?for|use (?:it|them) (?:for|to|as|on|in)|(?:works|good|great) as)\b/i;

/** Sentences of `texts` that state a facet phrase (at least half of its words, in any form). */
export function stating<T extends { text: string }>(facts: readonly T[], phrase: string): T[] {
  const words = phrase.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3).map((w) => w.slice(0, Math.max(4, w.length - 3)));
  if (!words.length) return [];
  return facts.filter((f) => {
    const text = f.text.toLowerCase();
    return words.filter((w) => text.includes(w)).length >= Math.ceil(words.length / 2);
  });
}

