/**
 * Stale content leaves (issue 20 item 5; docs/decisions.md D150 "Removed products' articles leave
 * the site"): when the store's catalogue no longer holds a product, every article of that
 * product (records whose `product_id` is its slug), and every article that names it as a
 * subject (a comparison's counterpart, a business article's products: `subjects`), is
 * retired: its site part is deleted and
 * its record removed, so the next publish of the parts (the same day's merged deploy) leaves
 * it out: 404 on the AI host and at `/ai/<slug>/`, gone from the sitemap, the AI home and
 * llms.txt, and from GET /api/articles. The product's entity stays (products.ts), its article
 * count drops with its articles; the week's count keeps them (they were created that week).
 *
 * Safe to repeat: the part goes first, then the record, so a retry after a crash in between
 * still finds the record and finishes; a part or record already gone is no error and is
 * counted once. Compared against the stored catalogue artifact (1b's), never a partial read:
 * without a catalogue, or with an empty one (a listing that failed or was hidden is far more
 * likely than a store with no product at all), nothing is retired.
 */
import { articlePart, artifactKeys } from '../../core/artifacts';
import type { ArticleRecord } from '../../core/articles/record';
import type { Container } from '../../container';
import { deleteSitePart, type CatalogArtifact } from '../site';

export interface RetiredArticles {
  /** The retired articles' paths (`/<slug>/`). */
  retired: string[];
  /** The product slugs whose articles were retired. */
  products: string[];
}

export async function retireArticlesOfRemovedProducts(container: Container, orgSlug: string): Promise<RetiredArticles> {
  const catalog = await container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
  if (!catalog || catalog.products.length === 0) return { retired: [], products: [] };
  const listed = new Set(catalog.products.map((p) => p.productId));
  // An article is stale when any product it is about left: its own, a comparison's counterpart,
  // a business article's listed products (`subjects`).
  const about = (a: ArticleRecord) => [...(a.product_id ? [a.product_id] : []), ...(a.subjects ?? [])];
  const stale = (await container.articles.list(orgSlug)).filter((a) => about(a).some((id) => !listed.has(id)));
  const retired: string[] = [];
  for (const article of stale) {
    await deleteSitePart(container, orgSlug, articlePart(article.slug));
    await container.articles.retire(orgSlug, article);
    retired.push(article.article_path);
  }
  return { retired, products: [...new Set(stale.flatMap((a) => about(a).filter((id) => !listed.has(id))))].sort() };
}
