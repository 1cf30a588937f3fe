/**
 * The page of a product family (D37): "Which designs does the Combo Yoga Mat come in?" answered
 * by the family's members, each with its link, its price and stock (live offer slots the publish
 * refreshes from the current catalogue, core/site/offer-slots.ts, so they are never stale: D36)
 * and what sets it apart beyond its design when the store states something (thickness, weight,
 * capacity ...); then what every member shares.
 */
import { joinList } from '../generate/text';
import { oneLine } from '../site/html';
import { offerText } from '../site/offer-slots';
import type { CatalogProduct } from '../site/types';
import { differ, productAttributes, says, type Attribute, type AttributeKey } from '../products/attributes';
import { attributesOfSheet } from './facts';
import type { AnswerBlock, MemberLine, Question, WrittenAnswer } from './questions-and-answers';

const MAX_SHARED = 4;

const ATTRIBUTE_NAMES: Record<AttributeKey, string> = {
  material: 'material', hardness: 'hardness', weight: 'weight', capacity: 'capacity', dimensions: 'dimensions', thickness: 'thickness',
  length: 'length', care: 'care', origin: 'origin', battery: 'battery life', rating: 'protection rating', power: 'power', brightness: 'brightness', warranty: 'warranty',
  cold: 'how long they keep drinks cold', hot: 'how long they keep drinks hot', parts: 'parts',
};

/** A member as the page lists it: its sheet's page and attributes, or (a name too long for a title) its catalogue entry's. */
interface Member {
  product: CatalogProduct;
  /** Its AI page's file path, or null (then the store's page is linked). */
  path: string | null;
  attributes: Map<AttributeKey, Attribute>;
}

export function writeFamily(question: Question): WrittenAnswer {
  const family = question.family;
  if (!family || family.members.length < 2) return { blocks: [], uncovered: [], sources: [], engine: 'extractive' };
  const sheets = new Map(question.subjects.map((s) => [s.product.productId, s]));
  const members: Member[] = family.members.map((product) => {
    const sheet = sheets.get(product.productId);
    return sheet
      ? { product, path: sheet.page?.path ?? null, attributes: attributesOfSheet(sheet) }
      : { product, path: family.pages[product.productId] ?? null, attributes: productAttributes(product) };
  });
  const keys = new Set(members.flatMap((m) => [...m.attributes.keys()]));
  const differing: AttributeKey[] = [];
  const shared: AttributeKey[] = [];
  for (const key of keys) {
    const values = members.map((m) => m.attributes.get(key));
    const stated = values.filter((v): v is Attribute => v !== undefined);
    // A difference only where two values differ (aluminium beside aluminium and leather is none); shared only when all are one.
    if (stated.some((a, i) => stated.slice(i + 1).some((b) => differ(a, b)))) differing.push(key);
    else if (values.every((v) => v !== undefined) && new Set(stated.map((a) => a.norm)).size === 1) shared.push(key);
  }
  const lines: MemberLine[] = members.map((m) => {
    const details = differing.map((k) => m.attributes.get(k)).filter((a) => a !== undefined).map((a) => says(a, false));
    return { productId: m.product.productId, label: oneLine(m.product.name), path: m.path, url: m.product.url, detail: joinList(details), offer: offerText(m.product) };
  });
  // How many there are and which are sold out is the lead's (leads.ts familyLead).
  const intro = 'The store lists each one separately:';
  // Said only when the store states a difference: "nothing differs" would deny the sizes or fabrics it lists elsewhere.
  const after = differing.length ? [`Beyond the ${family.differs}, they differ in ${joinList(differing.map((k) => ATTRIBUTE_NAMES[k]))}, as listed.`] : [];
  const sharing = shared.slice(0, MAX_SHARED).map((k) => `Each ${says(members[0]!.attributes.get(k)!, false)}.`);
  const blocks: AnswerBlock[] = [
    { heading: null, sentences: [intro], items: [], members: lines },
    ...(after.length ? [{ heading: null, sentences: after, items: [] }] : []),
    ...(sharing.length ? [{ heading: 'What they share', sentences: sharing, items: [] }] : []),
  ];
  const sources = members.filter((m) => m.path !== null).map((m) => ({ path: m.path!, label: oneLine(m.product.name) }));
  return { blocks, uncovered: [], sources, engine: 'extractive' };
}
