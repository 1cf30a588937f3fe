/**
 * The store's industry as its catalogue bears it out (issue 44). The keyword rules of
 * industry.ts score words wherever they occur, so a shed store scores "plants and gardening"
 * (every "Garden Shed") and a drinkware store "outdoor gear and wine and spirits" (camping
 * tags, a "Beer Pint"). Here a rule's label stands only when the products it describes are
 * at least half of the products with a kind, judged by what each product is: the head of its
 * kind ("Garden Shed" is a shed, "Coffee Beans" are coffee). Otherwise the industry is named
 * by the catalogue's own main kinds ("garden sheds, lighting and storage"). Pure.
 */
import { catalogueKinds } from '../products/kind';
import { pluralPhrase } from '../prompts/product-words';
import type { CatalogProduct, StoreSnapshot } from '../site/types';
import { INDUSTRY_RULES, inferIndustry, type IndustryInference } from './industry';
import { countLabels } from '../util/collections';
import { joinList, lowerLabel, singularKey, wordText, wordVariants } from './text';

/** Kinds named in an industry made of kinds. */
const KINDS_NAMED = 3;

/** The products' kinds (core/products/kind.ts), most common first; "Tops" and "top" are one. */
export function productKindCounts(products: readonly CatalogProduct[], businessName = ''): Array<{ kind: string; count: number }> {
  const spelled = new Map<string, string>();
  const kindOf = catalogueKinds(products, businessName);
  const keyed = countLabels(products, (p) => {
    const kind = kindOf(p);
    if (!kind) return '';
    const key = singularKey(kind);
    if (!spelled.has(key)) spelled.set(key, kind);
    return key;
  });
  return keyed.map(({ label, count }) => ({ kind: spelled.get(label) ?? label, count }));
}

/** Whether a kind is one the rule's keywords name: its head word, or its ending ("coffee beans"). */
function ruleNames(label: string, kind: string): boolean {
  const rule = INDUSTRY_RULES.find((r) => r.label === label);
  if (!rule) return false;
  const text = wordText(kind);
  return rule.keywords.some((keyword) => wordVariants(keyword).some((v) => text.endsWith(v)));
}

export function catalogueIndustry(snapshot: StoreSnapshot): IndustryInference {
  const inferred = inferIndustry(snapshot);
  const kinds = productKindCounts(snapshot.products, snapshot.business.name);
  const withKind = kinds.reduce((n, k) => n + k.count, 0);
  if (withKind === 0 || withKind < snapshot.products.length / 2) return inferred;
  const share = (label: string) => kinds.filter((k) => ruleNames(label, k.kind)).reduce((n, k) => n + k.count, 0) / withKind;
  // The rule labels the inference named, in its order ("specialty coffee and tea").
  const labels = inferred.basis === 'keywords'
    ? INDUSTRY_RULES.map((r) => r.label).filter((l) => inferred.industry.includes(l)).sort((a, b) => inferred.industry.indexOf(a) - inferred.industry.indexOf(b))
    : [];
  const borne = labels.filter((l) => share(l) >= 0.2);
  if (borne.length && labels.reduce((n, l) => n + share(l), 0) >= 0.5) return { ...inferred, industry: joinList(borne) };
  const named = kinds.slice(0, KINDS_NAMED).map((k) => pluralPhrase(lowerLabel(k.kind)));
  return { industry: joinList(named), basis: 'product-type', scores: inferred.scores };
}
