/**
 * Which templated wording fits a catalogue. A template written for one kind of store must not
 * be applied to another: "ingredients" is a word for what is eaten, drunk or put on skin,
 * never for yoga mats. The choice follows the catalogue's inferred industry (industry.ts,
 * scored on product types, collections, tags and names), and the facts' own words.
 */

/** Industries whose products have ingredients (INDUSTRY_RULES labels). */
const CONSUMABLE_INDUSTRIES = /\b(coffee|tea|food|wine|spirits|supplements?|skincare|beauty)\b/i;

/** True when the catalogue's industry is one whose products are consumed (food, drink, skincare, supplements). */
export function hasIngredients(industry: string): boolean {
  return CONSUMABLE_INDUSTRIES.test(industry);
}

/**
 * The question that introduces the store's material/ingredient facts:
 * "ingredients" only for consumable catalogues, "materials" for everything else, both when a
 * consumable store's facts also speak of materials (packaging, equipment).
 */
export function materialsQuestion(storeName: string, industry: string, facts: readonly string[]): string {
  if (!hasIngredients(industry)) return `What does ${storeName} say about the materials of its products?`;
  const mentionsMaterials = facts.some((f) => /\b(materials?|recycl|compostable|biodegradable|plastic)/i.test(f));
  return mentionsMaterials ? `What does ${storeName} say about its ingredients and materials?` : `What does ${storeName} say about its ingredients?`;
}
