/**
 * The catalogue by kind (core/products/kind.ts): which products are tumblers, which garden
 * sheds. The kind pages (kind-pages.ts) and llms.txt's product groups read the same grouping,
 * so a group in llms.txt links to the page that lists all of it. Pure.
 */
import type { KindOf } from '../products/kind';
import { singularKey } from '../generate/text';
import { SlugAllocator, slugify } from './paths';
import type { CatalogProduct } from './types';

/** A kind gets a page of its own from this many products on (one product: its own page says it). */
export const MIN_KIND_PRODUCTS = 2;

export interface KindGroup<P extends { product: CatalogProduct }> {
  /** As the store spells it most often ("Garden Shed", "Tumbler"). */
  kind: string;
  /** Path segment under `/ai/kinds/`. */
  slug: string;
  /** In catalogue order. */
  products: P[];
}

/**
 * Every kind with at least `MIN_KIND_PRODUCTS` products, most products first (ties: first
 * seen). "Tops" and "top" are one kind, spelled as most of its products spell it.
 */
export function kindGroups<P extends { product: CatalogProduct }>(refs: readonly P[], kindOf: KindOf): Array<KindGroup<P>> {
  const byKey = new Map<string, { spellings: Map<string, number>; products: P[]; first: number }>();
  refs.forEach((ref, i) => {
    const kind = kindOf(ref.product);
    if (!kind) return;
    const key = singularKey(kind);
    const entry = byKey.get(key) ?? { spellings: new Map<string, number>(), products: [] as P[], first: i };
    entry.spellings.set(kind, (entry.spellings.get(kind) ?? 0) + 1);
    entry.products.push(ref);
    byKey.set(key, entry);
  });
  const allocator = new SlugAllocator();
  return [...byKey.values()]
    .filter((e) => e.products.length >= MIN_KIND_PRODUCTS)
    .sort((a, b) => b.products.length - a.products.length || a.first - b.first)
    .map((e) => {
      const kind = [...e.spellings].sort((a, b) => b[1] - a[1])[0]![0];
      return { kind, slug: allocator.take(slugify(kind, 'kind')), products: e.products };
    });
}
