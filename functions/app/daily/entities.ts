/** The businesses the daily schedule processes, one page at a time (GET /api/cron/entities). */
import type { Container } from '../../container';

export async function listEntities(container: Container, page: { cursor: string | null; limit: number }) {
  const limit = Math.min(1000, Math.max(1, page.limit));
  const { businesses, nextCursor } = await container.businessListing.list({ cursor: page.cursor, limit });
  const rows = await Promise.all(businesses.map(async (b) => {
    const [site, products] = await Promise.all([container.aiSites.get(b.orgSlug), container.products.count(b.orgSlug)]);
    return { business_id: b.orgSlug, entity_id: b.id, name: b.name, url: b.url, has_ai_site: Boolean(site?.releaseId), products };
  }));
  return { businesses: rows, total: rows.length, next_cursor: nextCursor };
}
