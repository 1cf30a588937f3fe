/**
 * The facets a store's own words give a product (D35: a question is asked only when the
 * store's content says something about it), read sentence by sentence so each facet comes
 * with the facts that state it:
 * - audiences: the people a text says it is for ("for home baristas", "beginner-friendly");
 * - uses: what it is made, ideal or designed for (prompts' `useCases`);
 * - care, origin, materials and features, by their wording.
 * Nothing is inferred: a facet no sentence states is not a facet.
 */

/** Words that cannot start a run of words naming people ("for you and your friends"). */
const OBJECT_START_STOP = /^(you|your|yours|it|its|this|that|these|those|them|us|our|any|all|every|more|less|up|out|into|over|of|to|in|on|at|for|with|by|from|as|is|are|was|be|can|will|and|or|but|while|when)$/i;
/** Nouns of people: what an audience ("for home cooks") ends with. */
const PEOPLE_HEAD = /^(people|person|everyone|anyone|someone|beginners?|students?|parents?|moms?|dads?|kids?|children|child|babies|baby|toddlers?|teens?|men|women|families|family|lovers?|fans?|enthusiasts?|drinkers?|brewers?|baristas?|roasters?|cooks?|chefs?|bakers?|athletes?|runners?|cyclists?|travell?ers?|hikers?|campers?|yogis?|owners?|professionals?|pros?|experts?|buyers?|shoppers?|customers?|users?|makers?|artists?|gardeners?|readers?|gamers?|collectors?|cafes?|cafés?|restaurants?|offices?|teams?|businesses|business|households?|couples?|friends?|him|her|them|gifters?|givers?|pets?|dogs?|cats?|connoisseurs?|aficionados?|foodies?|newcomers?|homes?|eaters?|sleepers?|snackers?|learners?|kids?|seniors?|students?|commuters?)$/i;

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

