/**
 * The fact sheets of a store's current catalogue, as the article planner reads them: every
 * product the AI site lists (facts.ts), the product families among them (families.ts), and
 * the sheets by kind and by job, so a comparison looks only among products of one kind made
 * for one job (questions.ts) instead of the whole catalogue.
 */
import { singularKey } from '../generate/text';
import type { CatalogProduct } from '../site/types';
import { productFamilies, type Families } from './families';
import { productPage, productSheet, type ProductSheet } from './facts';
import type { ArticleSources, ProductEntry } from './site-sources';

export interface ArticleCatalogue {
  sheets: ProductSheet[];
  byId: Map<string, ProductSheet>;
  families: Families;
  /** Kind (singular key) → job → sheets, in catalogue order. */
  byKindAndJob: Map<string, Map<string, ProductSheet[]>>;
  /** Kind → a job's last word → the kind's jobs ending in it ("knife" → "chefs knife", "bread knife"). */
  jobsByHead: Map<string, Map<string, string[]>>;
  /** The AI page of any product of the catalogue, a sheet or not (a name too long for a title has none). */
  pageOf: (product: CatalogProduct) => ProductEntry | null;
}

/** The kind a comparison groups by ("yoga mat" for "Yoga Mats"). */
export function kindKey(sheet: ProductSheet): string {
  return singularKey(sheet.kind);
}

/** The fact sheets of the current catalogue (products the AI site no longer lists get none). */
export function articleCatalogue(products: readonly CatalogProduct[], sources: ArticleSources, businessName: string): ArticleCatalogue {
  const sheets = products.map((p) => productSheet(p, sources, businessName)).filter((s): s is ProductSheet => s !== null);
  const byKindAndJob = new Map<string, Map<string, ProductSheet[]>>();
  const jobsByHead = new Map<string, Map<string, string[]>>();
  for (const sheet of sheets) {
    const kind = kindKey(sheet);
    const jobs = byKindAndJob.get(kind) ?? new Map<string, ProductSheet[]>();
    byKindAndJob.set(kind, jobs);
    const same = jobs.get(sheet.job);
    if (same) { same.push(sheet); continue; }
    jobs.set(sheet.job, [sheet]);
    const heads = jobsByHead.get(kind) ?? new Map<string, string[]>();
    jobsByHead.set(kind, heads);
    const head = sheet.job.split(' ').pop() ?? '';
    heads.set(head, [...(heads.get(head) ?? []), sheet.job]);
  }
  return { sheets, byId: new Map(sheets.map((s) => [s.product.productId, s])), families: productFamilies(products), byKindAndJob, jobsByHead, pageOf: (product) => productPage(product, sources) };
}
