/**
 * Colour words, read the same way wherever a product's name or option is split into what it
 * is and which colourway it comes in (prompt siblings, article families).
 */

/** Colour words a title suffix or a colour option may hold ("Trail Tee - Red", Color: Slate). */
export const COLOUR_WORDS: ReadonlySet<string> = new Set([
  'black', 'white', 'grey', 'gray', 'charcoal', 'silver', 'gold', 'red', 'blue', 'navy', 'green', 'olive', 'sage', 'mint', 'teal', 'turquoise',
  'yellow', 'mustard', 'orange', 'coral', 'peach', 'pink', 'rose', 'blush', 'purple', 'lavender', 'lilac', 'plum', 'violet', 'brown', 'tan', 'beige',
  'sand', 'cream', 'ivory', 'natural', 'clay', 'terracotta', 'stone', 'slate', 'midnight', 'forest', 'ocean', 'sky', 'berry', 'wine', 'burgundy',
  'rust', 'moss', 'khaki', 'indigo', 'camo', 'copper', 'bronze', 'graphite', 'smoke', 'ash', 'denim', 'mustard', 'maroon', 'aqua',
]);

/** Words that only qualify a colour ("Dark Forest", "Royal Burgundy", "Matte Black"). */
export const COLOUR_MODIFIERS: ReadonlySet<string> = new Set([
  'light', 'dark', 'deep', 'pale', 'bright', 'royal', 'matte', 'glossy', 'metallic', 'pastel', 'neon', 'jet', 'dusty', 'soft', 'warm', 'cool',
]);

/** More colour names stores use that are no ordinary word elsewhere in a product name. */
export const MORE_COLOURS: ReadonlySet<string> = new Set([
  'fuchsia', 'fuschia', 'magenta', 'cyan', 'emerald', 'jade', 'cobalt', 'azure', 'aegean', 'crimson', 'scarlet', 'ruby', 'amber', 'ochre',
  'mauve', 'taupe', 'walnut', 'chocolate', 'cacao', 'espresso', 'caramel', 'mocha', 'oatmeal', 'pewter', 'gunmetal', 'champagne',
  'lemon', 'lime', 'mango', 'apricot', 'salmon', 'cherry', 'raspberry', 'blackberry', 'eucalyptus', 'seafoam', 'sapphire', 'onyx', 'pearl',
  'multi', 'multicolor', 'multicolour', 'rainbow', 'leopard', 'tortoiseshell', 'camel', 'nude', 'oyster', 'frost', 'polar', 'tide', 'lagoon',
]);

/** Whether a word (any case) names a colour ("Burgundy", "Aegean"); modifiers alone do not. */
export function isColourWord(word: string): boolean {
  const w = word.toLowerCase();
  return COLOUR_WORDS.has(w) || MORE_COLOURS.has(w);
}

/** Whether the words from `at` on start with a colour: "Dark Forest", "Royal Burgundy", "Black" (not "Light & 65W"). */
export function colourAt(words: readonly string[], at: number): number {
  let i = at;
  while (i < words.length && COLOUR_MODIFIERS.has(words[i]!.toLowerCase())) i++;
  if (i >= words.length || !isColourWord(words[i]!)) return 0;
  while (i < words.length && isColourWord(words[i]!)) i++;
  return i - at;
}

