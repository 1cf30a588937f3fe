/**
 * The fact card: what every document about one product says first (issue 44, D205), so the
 * passage an assistant retrieves for the product's name holds its facts too.
 *
 *   - The IceFlow Flip Straw Tumbler | 20 OZ: Tumbler by Stanley, USD 35.00 (was USD 45.00), in stock (Rose Quartz: sold out).
 *   - The IceFlow Flip Straw Tumbler | 20 OZ Color options: Black, Frost, Rose Quartz.
 *   - The IceFlow Flip Straw Tumbler | 20 OZ specs: material stainless steel; capacity 20 oz.
 *
 * Every line names the product, so a passage cut from the middle of a page still says whose
 * fact it is. Kind, price and stock (what is sold out named) first; then options and the attributes
 * the store's own words state (product-facts.ts). Nothing here is invented: a fact the
 * catalogue does not state is left out.
 */
import { escapeHtml, oneLine } from './html';
import { asNote } from './offers';
import type { ProductFacts } from './product-facts';
import type { AttributeKey } from '../products/attributes';

/** How an attribute is labelled on the card and in structured data. */
export const ATTRIBUTE_LABELS: Record<AttributeKey, string> = {
  material: 'material', dimensions: 'dimensions', capacity: 'capacity', length: 'length', thickness: 'thickness', weight: 'weight',
  power: 'power', brightness: 'brightness', rating: 'protection rating', battery: 'battery life', hardness: 'hardness', cold: 'keeps drinks cold for',
  hot: 'keeps drinks hot for', care: 'care', origin: 'origin', warranty: 'warranty', parts: 'parts',
};

/** `Tumbler by Stanley`, `by Stanley`, `Tumbler`, or '' when neither is known. */
export function kindAndBrand(kind: string | null, brand: string | null): string {
  if (kind && brand) return `${kind} by ${brand}`;
  return kind ?? (brand ? `by ${brand}` : '');
}


/** The card's lines, as plain text (see the header). */
export function factCardLines(facts: ProductFacts): string[] {
  const name = facts.name;
  // The price and stock statements of every other file (offers.ts): "in stock (Matte Black: sold out)".
  const head = [kindAndBrand(facts.kind, facts.brand), facts.price ?? 'price not listed', asNote(facts.stock)].filter(Boolean).join(', ');
  const lines = [`${name}: ${head}.`];
  // "Color options: ..."; an option already called "Ready Painted Options" is not doubled.
  for (const option of facts.options) lines.push(`${name} ${option.name}${/\boptions?$/i.test(option.name) ? '' : ' options'}: ${option.values.join(', ')}.`);
  if (facts.attributes.length) {
    lines.push(`${name} specs: ${facts.attributes.map((a) => `${ATTRIBUTE_LABELS[a.key]} ${oneLine(a.value)}`).join('; ')}.`);
  }
  return lines;
}

/** The card as a markdown list (llms files, markdown replicas). */
export function factCardMarkdown(facts: ProductFacts): string {
  // A line starting with `#` or `>` would read as a heading or a quote: the list marker keeps it text.
  return factCardLines(facts).map((line) => `- ${line}`).join('\n');
}

/** The class of the card's list on a page: file-facts.ts reads the card's first line by it. */
export const FACT_CARD_CLASS = 'fact-card';

/** The card as an HTML list, escaped. */
export function factCardHtml(facts: ProductFacts): string {
  return `<ul class="${FACT_CARD_CLASS}">\n${factCardLines(facts).map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}\n</ul>`;
}
