/**
 * A store's sentence made fit to quote in an article (issue 45, item 5). Pure text work:
 *
 * - Characters: mis-decoded text repaired where the bytes leave no doubt: UTF-8 read as
 *   Windows-1252 ("itâ€™s", "Â£25", "cafÃ©"), as Mac Roman ("it‚Äôs"), and the single
 *   low quote "‚" after a letter ("it‚ is", "don‚t"), which English never writes: the
 *   store meant ’.
 * - Bullets: "• Adjustable • Illuminates up to 3 metres •" is two list items, without glyphs;
 *   "- name of the product" loses the dash the store typed.
 * - Context: a sentence quoted away from the one it followed in the store's text loses what
 *   its opening leant on. A leading connective ("Moreover,", "Also") is removed; a leading
 *   pronoun ("It", "They", "Its", "This is") becomes the product's name when it can only be
 *   the product (a product's own description, the pronoun's number agreeing with the name),
 *   and the sentence is dropped otherwise.
 */

/** The product a quoted sentence is about, as a sentence names it ("The Cork Block"), and whether it takes "are". */
export interface Subject {
  name: string;
  plural: boolean;
}

const CP1252: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a, '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e,
  '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};
/** A character that stands for a UTF-8 continuation byte (0x80-0xBF) once read as Windows-1252 or Latin-1. */
const CONT = '[\\u0080-\\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]';
/**
 * A lead byte read as Latin-1, then its continuations. Only the leads no text puts before such a
 * character: Â and Ã (Latin-1 letters and signs: "Ã©", "Â£"), â (punctuation: "â€™") and ð
 * (emoji); "CAFÉ™" is a capital É and a trade mark, not a sequence.
 */
const CP1252_MOJIBAKE = new RegExp(`[ÂÃ]${CONT}|â${CONT}{2}|ð${CONT}{3}`, 'g');
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function redecoded(mojibake: string): string {
  const bytes = [...mojibake].map((ch) => CP1252[ch] ?? ch.charCodeAt(0));
  try {
    return UTF8.decode(Uint8Array.from(bytes));
  } catch {
    return mojibake; // not a UTF-8 sequence after all: left as written
  }
}

/** E2 80 xx (quotes, dashes, ellipsis, bullet) read as Mac Roman: "‚Äô" for ’. */
const MAC_ROMAN: Record<string, string> = { 'ô': '’', 'ò': '‘', 'ú': '“', 'ù': '”', 'ì': '–', 'î': '—', '¶': '…', '¢': '•' };

export function repairCharacters(text: string): string {
  return text
    .replace(/‚Ä([ôòúùìî¶¢])/g, (_, ch: string) => MAC_ROMAN[ch]!)
    .replace(CP1252_MOJIBAKE, redecoded)
    .replace(/(?<=\p{L})‚/gu, '’');
}

const BULLETS = /\s*[•▪◦‣]\s*/;

/** "• A • B •" → ["A", "B"], "- A" → ["A"] (a list marker the store typed); a text without bullets is one part. */
export function bulletParts(text: string): string[] {
  return text.split(BULLETS).map((p) => p.trim().replace(/^[-*–—]\s+/, '')).filter((p) => /\p{L}|\p{N}/u.test(p));
}

/** Connectives removed with or without a comma ("Also available in ...", "And that pop ..."). */
const LOOSE = 'and|but|also|plus|otherwise|moreover|furthermore|additionally|therefore|consequently';
/** Connectives removed only before a comma: without one they start a clause of their own ("However you use it", "So light that ..."). */
const BEFORE_COMMA = "however|besides|thus|hence|so|then|finally|lastly|in addition|as a result|on top of that|what[’']s more|that said|likewise|similarly|meanwhile|instead|last but not least|as well";
const CONNECTIVE = new RegExp(`^(?:(?:${LOOSE})\\b,?|(?:${BEFORE_COMMA}),)\\s+`, 'i');
/** "When you are, ...": a clause left hanging without the sentence before it. */
const ELLIPTIC = /^(?:when|if|once|whenever|as soon as)\s+(?:you|it|they|we)\s+(?:are|is|do|does|have|has|can|will)\s*,/i;
/**
 * "It is important to ...": the "it" stands for what follows, not for anything before. ("It is
 * easy to clean" is the product: it is named.)
 */
const DUMMY_IT = /^it(?:\s+is|[’']s)(?:\s+not)?\s+(?:\w+\s+)?(?:important|recommended|advisable|advised|necessary|essential|possible|a good idea|best|worth)\s+(?:to|that|noting)\b/i;
/** "This is ...", "These come ...": the demonstrative stands for the product. */
const THIS_PRODUCT = /^(this|these)\s+(?=(?:is|are|has|have|comes|come|features|feature|includes|include|keeps|keep|offers|offer|boasts|boast|fits|fit|holds|hold|can|will|also)\b)/i;
/** "This means ...", "That makes ...": the demonstrative stands for the sentence before. */
const THIS_STATEMENT = /^(?:this|that|these|those)\s+(?:means|makes|allows|ensures|gives|helps|lets|provides|was|were|way|is why|is because)\b/i;

const CONTRACTED: Record<string, string> = { s: 'is', re: 'are', ll: 'will', ve: 'have', d: 'would' };
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const possessive = (s: Subject) => (s.plural && /s$/i.test(s.name) ? `${s.name}’` : `${s.name}’s`);

/** "Moreover, it keeps ..." → "It keeps ...": what a connective joined is not there. */
export function withoutConnective(sentence: string): string {
  let s = sentence;
  for (let m = CONNECTIVE.exec(s); m; m = CONNECTIVE.exec(s)) s = upperFirst(s.slice(m[0].length));
  return s;
}

/** Characters repaired and bullets gone; a bullet inside a sentence parted two statements: a stop where none ends the first. */
export function cleanSentence(sentence: string): string {
  return bulletParts(repairCharacters(sentence)).map((p, i, all) => (i < all.length - 1 && !/[.!?;:]$/.test(p) ? `${p};` : p)).join(' ');
}

/**
 * A sentence that opens an answer, or follows text it was not written after (see the header):
 * its connective removed and its pronoun named, or null when the pronoun can't be resolved.
 * `subject` null: no product to name (a store's policy line).
 */
export function standAlone(sentence: string, subject: Subject | null): string | null {
  const s = withoutConnective(sentence);
  if (ELLIPTIC.test(s) || THIS_STATEMENT.test(s)) return null;
  if (DUMMY_IT.test(s)) return s;
  const rules: Array<[RegExp, boolean, (x: Subject) => string]> = [
    [/^its\b/i, false, possessive],
    [/^it\b/i, false, (x) => x.name],
    [/^their\b/i, true, possessive],
    [/^they\b/i, true, (x) => x.name],
  ];
  for (const [pronoun, plural, named] of rules) {
    if (!pronoun.test(s)) continue;
    // "It’s" → "The X is": a name takes no contraction.
    const full = s.replace(/^(it|they)[’'](s|re|ll|ve|d)\b/i, (_, p: string, c: string) => `${p} ${CONTRACTED[c.toLowerCase()]}`);
    return subject && subject.plural === plural ? full.replace(pronoun, named(subject)) : null;
  }
  const demonstrative = THIS_PRODUCT.exec(s);
  if (demonstrative) {
    const plural = demonstrative[1]!.toLowerCase() === 'these';
    return subject && subject.plural === plural ? `${subject.name} ${s.slice(demonstrative[0].length)}` : null;
  }
  return s;
}

const key = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * One sentence of the store's `source` (its text in order) quoted after `previous` (null: it
 * opens the answer or its paragraph): characters and bullets repaired, and made to stand alone
 * unless it follows its own neighbour in the source. A sentence the source does not hold was
 * composed for the answer: it continues whatever precedes it. Null: drop it.
 */
export function quotedSentence(sentence: string, previous: string | null, source: readonly string[], subject: Subject | null): string | null {
  const clean = cleanSentence(sentence);
  if (!clean) return null;
  const at = source.findIndex((s) => key(s) === key(sentence));
  const inContext = previous !== null && (at === -1 || (at > 0 && key(source[at - 1]!) === key(previous)));
  return inContext ? clean : standAlone(clean, subject);
}
