/**
 * The shopper needs a product question may ask about (D37): "Is the X good for <need>?" is asked
 * only for a need of this curated vocabulary, found in the product's own text, and the title
 * says the need in the vocabulary's words, never in a phrase lifted from the merchant's copy
 * ("good for soothing coastal hues?", "good for easing after each practice?" were such phrases).
 *
 * Each need: the words a title uses, the wording that states it in a store's text (a sentence
 * that says it, not a word that happens to occur: "non-slip", "keeps drinks cold for 24 hours",
 * "waterproof"), and the words an answer that states it uses (the gate's facet, quality.ts).
 * A sentence that denies it ("not waterproof", "not for hot yoga") states nothing.
 */

export interface ShopperNeed {
  /** Stable id: the question's key is `need:<id>`. */
  id: string;
  /** How a title says it: "Is the X good for <phrase>?". */
  phrase: string;
  /** A sentence of the product's text that states the need. */
  stated: RegExp;
  /** Words an answer states it with (the gate's facet), compounds included ("leakproof"). */
  facet: string[];
  /** Products the need can be asked of, by name or kind (none: any): a cookset holding a non-slip board is not "good for preventing slipping". */
  of?: RegExp;
  /** A sentence anywhere in the product's text that rules the need out ("not suitable for outdoor use"): then it is not asked. */
  deniedBy?: RegExp;
  /** In the same sentence, words that make the match about something else ("water-resistant, tested to withstand spills"). */
  aside?: RegExp;
  /** A product whose name already says it ("Noise Cancelling Headphones"): asking restates what it is. */
  namedBy?: RegExp;
}

/** Any of the words (regex alternatives), whole, any case. */
const anyWord = (words: readonly string[]) => new RegExp(`\\b(?:${words.join('|')})\\b`, 'i');

const DRINK_VESSEL_WORDS = ['bottles?', 'tumblers?', 'flasks?', 'mugs?', 'cups?', 'quenchers?', 'coolers?', 'jugs?', 'growlers?', 'cans?', 'pitchers?', 'thermos(?:es)?', 'canteens?', 'carafes?', 'drinkware'];
/** What keeps a drink cold or hot: a food jar keeps food, not drinks. */
const DRINK_VESSELS = anyWord(DRINK_VESSEL_WORDS);
/** What can leak: a drink vessel, or what else holds a liquid or is carried with one (a countertop socket's "spill proof" lid keeps spills out, it holds none). */
const LEAKING_THINGS = anyWord([...DRINK_VESSEL_WORDS, 'jars?', 'containers?', 'boxes', 'bags?', 'backpacks?', 'pouch(?:es)?', 'lids?', 'tanks?', 'kettles?', 'pots?', 'bowls?', 'dispensers?', 'sprayers?', 'hoses?', 'cases?']);

export const SHOPPER_NEEDS: readonly ShopperNeed[] = [
  { id: 'slipping', phrase: 'preventing slipping', stated: /\b(?:non[- ]?slip|anti[- ]?slip|slip[- ](?:resistant|proof)|without slipping|won'?t slip|slipp(?:ing|age|ery)|grippy)\b/i, facet: ['slip', 'nonslip', 'grip', 'grippy'], of: /\b(?:mats?|rugs?|boards?|shoes?|boots?|socks?|gloves?|grips?|blocks?|steps?|pads?|liners?|sandals?|slippers?|trays?|coasters?|towels?|straps?|soles?)\b/i },
  { id: 'sweat', phrase: 'heavy sweating', stated: /\bsweat(?:y|ing|[- ]?wicking|[- ]?proof|[- ]?resistant)?\b(?![- ]?(?:shirts?|ers?|pants|suits?|band))/i, facet: ['sweat'] },
  { id: 'hot-yoga', phrase: 'hot yoga', stated: /\b(?:hot yoga|bikram)\b/i, facet: ['hot'] },
  { id: 'joints', phrase: 'sensitive joints', stated: /\b(?:joints?|knees?)\b[^.]{0,60}\b(?:cushion|support|protect|comfort|pain|pressure)|\b(?:cushion|support|protect|comfort|pain|pressure)\w*\b[^.]{0,60}\b(?:joints?|knees?)\b/i, facet: ['joint', 'knee'] },
  { id: 'back-pain', phrase: 'back pain', stated: /\b(?:back pain|lumbar|lower back|posture)\b/i, facet: ['back', 'lumbar', 'posture'] },
  { id: 'travel', phrase: 'travel', stated: /\b(?:travel(?:l?ing|s)?|packable|carry[- ]on|suitcase|luggage)\b/i, facet: ['travel', 'packable', 'suitcase', 'luggage', 'carry'] },
  { id: 'small-spaces', phrase: 'small spaces', stated: /\b(?:small (?:kitchens?|spaces?|gardens?|rooms?|flats?|apartments?)|space[- ]saving|tight spaces?|compact (?:kitchens?|spaces?|gardens?))\b/i, facet: ['small', 'space'] },
  { id: 'cold-drinks', phrase: 'keeping drinks cold', stated: /\b(?:keeps?|keeping|stays?|staying)\b[^.]{0,40}\b(?:ice[- ]cold|cold|iced|chilled)\b|\bcold for (?:up to )?\d+/i, facet: ['keep', 'cold'], of: DRINK_VESSELS },
  { id: 'hot-drinks', phrase: 'keeping drinks hot', stated: /\b(?:keeps?|keeping|stays?|staying)\b[^.]{0,40}\b(?:piping )?hot\b|\bhot for (?:up to )?\d+/i, facet: ['keep', 'hot'], of: DRINK_VESSELS },
  { id: 'leaks', phrase: 'preventing leaks', stated: /\b(?:leak[- ]?(?:proof|resistant|free)|spill[- ]?(?:proof|resistant)|won'?t leak|without leaking|no leaks?)\b/i, facet: ['leak', 'leakproof', 'spill', 'spillproof'], of: LEAKING_THINGS },
  { id: 'sensitive-skin', phrase: 'sensitive skin', stated: /\b(?:sensitive skin|hypoallergenic)\b/i, facet: ['skin', 'hypoallergenic'] },
  { id: 'wet-weather', phrase: 'wet weather', stated: /\b(?:waterproof|water[- ]resistant|weather[- ]?proof|weather[- ]resistant|all[- ]weather|rain(?:proof)?|IPX?[4-8]\d?)\b(?![- ](?:treatment|coating|paint|stain|membrane|felt|cover|sealant|finish))/i, facet: ['wet', 'weather', 'waterproof', 'weatherproof', 'water', 'rain', 'rainproof', 'ip44', 'ip54', 'ip55', 'ip65', 'ip66', 'ip67', 'ip68', 'ipx4', 'ipx5', 'ipx7', 'ipx8'],
    aside: /\bspill/i,
    deniedBy: /\bnot (?:suitable|intended|designed|meant|recommended|rated|for)\b[^.;]{0,20}\b(?:outdoors?|outside|exterior|external|wet)\b|\b(?:for )?indoor use only\b/i },
  { id: 'cold-weather', phrase: 'cold weather', stated: /\b(?:keeps? you warm|warmth|cold (?:weather|days|nights|winters?|mornings?)|winter)\b/i, facet: ['cold', 'warm', 'winter'] },
  { id: 'hot-weather', phrase: 'hot weather', stated: /\b(?:keeps? you cool|hot (?:weather|days|summers?)|summer (?:days|heat))\b/i, facet: ['hot', 'cool', 'summer'] },
  { id: 'noise', phrase: 'blocking noise', stated: /\b(?:noise[- ]cancell?(?:ing|ation)|block(?:s|ing)? out (?:the )?noise|noise isolation|(?:active|passive) isolation)\b/i, facet: ['noise'], namedBy: /\bnoise[- ]cancell?(?:ing|ation)\b/i },
  { id: 'workouts', phrase: 'workouts', stated: /\b(?:workouts?|the gym|running|training sessions?|exercise)\b/i, facet: ['workout', 'gym', 'running', 'exercise', 'training'], of: /\b(?:bottles?|shakers?|mats?|shorts|leggings|tights|bras?|tops?|tees?|t-shirts?|shirts?|vests?|joggers|shoes?|trainers|sneakers|headphones?|earbuds?|earphones?|bands?|weights?|dumbbells?|kettlebells?|towels?|socks?|jackets?|activewear|sportswear|gym)\b/i },
  // A USB cable in the box makes headphones chargeable, not a charger.
  { id: 'charging', phrase: 'charging devices', stated: /\b(?:USB(?:-[AC])?|Qi|wireless charg(?:er|ing)|charg(?:e|es|ing) (?:your )?(?:phones?|devices?|laptops?|tablets?))\b/, facet: ['charging', 'charge', 'usb', 'qi'], of: /\b(?:chargers?|charging|power ?banks?|outlets?|sockets?|hubs?|docks?|stations?|adapters?|extension|power ?strips?|surge)\b/i },
  { id: 'child-safety', phrase: 'child safety', stated: /\b(?:child[- ]?(?:safe|proof|resistant|safety)|tamper[- ]resistant|safe for (?:kids|children|little ones))\b/i, facet: ['child', 'safe', 'tamper'] },
  { id: 'rot', phrase: 'resisting rot', stated: /\b(?:rot|decay|pressure[- ]treated|tanali[sz]ed)\b/i, facet: ['rot', 'treated', 'decay'] },
  { id: 'rust', phrase: 'resisting rust', stated: /\b(?:rust|corrosion)[- ]?(?:proof|resistant|free|resistance)\b|\bwon'?t rust\b/i, facet: ['rust', 'corrosion'] },
  { id: 'creases', phrase: 'avoiding creases', stated: /\b(?:crease[- ]resistant|wrinkle[- ](?:free|resistant)|non[- ]iron|without creasing)\b/i, facet: ['crease', 'wrinkle', 'iron'] },
  { id: 'sharpness', phrase: 'staying sharp', stated: /\b(?:edge retention|stays? sharp(?:er)?|holds? (?:an|its|a keen) edge|razor[- ]sharp)\b/i, facet: ['sharp', 'edge'] },
  { id: 'camping', phrase: 'camping', stated: /\b(?:camping|campsites?|backpacking|hiking trips?)\b/i, facet: ['camp', 'camping', 'campsite', 'backpack', 'backpacking', 'hiking'] },
  { id: 'lunches', phrase: 'packed lunches', stated: /\b(?:packed lunch(?:es)?|lunch ?box(?:es)?|meal prep|leftovers)\b/i, facet: ['lunch', 'meal', 'leftover'] },
  // Guests in the sense of hosting them: "an entertaining companion for your baby" is not about guests.
  { id: 'entertaining', phrase: 'entertaining guests', stated: /\b(?:entertaining (?:guests|friends|family)|dinner parties|garden parties|hosting (?:guests|friends|parties|dinners?|gatherings)|your guests)\b/i, facet: ['entertain', 'guest', 'parties', 'hosting'], of: /\b(?:glass(?:es)?|tumblers?|jugs?|pitchers?|decanters?|platters?|boards?|bowls?|trays?|plates?|tables?|chairs?|benches?|sets?|coolers?|buckets?|ovens?|bbqs?|barbecues?|grills?|heaters?|lights?|lanterns?|gazebos?|pergolas?|dining|sofas?|loungers?|firepits?|fire pits?)\b/i },
];

/** Words before a need that deny it: "not waterproof", "never for hot yoga", "isn't dishwasher-safe". */
const DENIED = /\b(?:not|never|no|without|isn'?t|aren'?t|don'?t|doesn'?t|avoid)\s+(?:\w+\s+){0,2}$/i;

/** Whether a need can be asked of a product at all (its `of`: by name or kind). */
export function needFits(need: ShopperNeed, nameAndKind: string): boolean {
  return (!need.of || need.of.test(nameAndKind)) && !need.namedBy?.test(nameAndKind);
}

/** Whether a sentence of the product's text rules the need out (`deniedBy`). */
export function needRuledOut(need: ShopperNeed, sentences: readonly string[]): boolean {
  return need.deniedBy !== undefined && sentences.some((s) => need.deniedBy!.test(s));
}

/** Where a sentence states the need (and does not deny it), or null. */
export function needMatch(sentence: string, need: ShopperNeed): RegExpExecArray | null {
  const hit = need.stated.exec(sentence);
  if (!hit || need.aside?.test(sentence)) return null;
  return DENIED.test(sentence.slice(Math.max(0, hit.index - 30), hit.index)) ? null : hit;
}

/** Whether a sentence states the need (and does not deny it). */
export function statesNeed(sentence: string, need: ShopperNeed): boolean {
  return needMatch(sentence, need) !== null;
}

/** The need of a question key's value (`need:<id>`). */
export function needById(id: string): ShopperNeed | undefined {
  return SHOPPER_NEEDS.find((n) => n.id === id);
}

/** The vocabulary's need a title phrase names, or null ("soothing coastal hues" names none). */
export function needOfPhrase(phrase: string): ShopperNeed | null {
  const p = phrase.trim().toLowerCase();
  return SHOPPER_NEEDS.find((n) => n.phrase === p) ?? null;
}
