/**
 * A product's option values in words (D178): an options answer and a comparison's option
 * lines say what a reader asked as sentences, not as data lines ("Color: Navy, Bone").
 *
 *   optionsSentence   "The Enamel Camp Mug comes in two colors (Navy and Bone)."
 *   optionDifferences "Colors: both come in Sage Green; only the Towel 1 comes in Matte Black."
 *
 * The values are the catalogue's own (facts.ts `optionsOf`: 2+ values, never amounts).
 */
import pluralize from 'pluralize';
import { joinList, upperFirst } from '../generate/text';
import { theName, verbFor, type ProductSheet } from './facts';

type Option = ProductSheet['options'][number];

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** "two", "six"; figures past ten. */
export function countWord(n: number): string {
  return COUNT_WORDS[n] ?? String(n);
}

/** "the Enamel Camp Mug comes in", "the Cold Brew Pitcher Packs come in". */
const comesIn = (label: string) => `${theName(label)} ${verbFor(label) === 'are' ? 'come' : 'comes'} in`;

/** "Color" → "colors"; "Size (oz)" → "sizes in oz": the words before a bracket take the number. */
function nameFor(optionName: string, n: number): string {
  const [, words, unit] = /^(.*?)\s*(?:[([]\s*([^)\]]*?)\s*[)\]])?$/.exec(optionName.trim().toLowerCase())!;
  return `${pluralize(words!, n)}${unit ? ` in ${unit}` : ''}`;
}

/** "two colors (Navy and Bone)". */
function counted(option: Option): string {
  const n = option.values.length;
  return `${countWord(n)} ${nameFor(option.name, n)} (${joinList(option.values)})`;
}

/** One sentence naming every value of the given options. */
export function optionsSentence(label: string, options: readonly Option[]): string {
  return `${upperFirst(comesIn(label))} ${joinList(options.map(counted))}.`;
}

/**
 * For each option both products have (by name): the values both come in and the values only
 * one does, one sentence per option. `differ`: some value belongs to one product only.
 */
export function optionDifferences(a: ProductSheet, b: ProductSheet): { sentences: string[]; differ: boolean } {
  const sentences: string[] = [];
  let differ = false;
  for (const option of a.options) {
    const other = b.options.find((o) => o.name.toLowerCase() === option.name.toLowerCase());
    if (!other) continue;
    const both = option.values.filter((v) => other.values.includes(v));
    const onlyA = option.values.filter((v) => !other.values.includes(v));
    const onlyB = other.values.filter((v) => !option.values.includes(v));
    if (onlyA.length || onlyB.length) differ = true;
    const clauses = [
      both.length ? `both come in ${joinList(both)}` : '',
      onlyA.length ? `only ${comesIn(a.label)} ${joinList(onlyA)}` : '',
      onlyB.length ? `only ${comesIn(b.label)} ${joinList(onlyB)}` : '',
    ].filter(Boolean);
    sentences.push(`${upperFirst(nameFor(option.name, 2))}: ${clauses.join('; ')}.`);
  }
  return { sentences, differ };
}
