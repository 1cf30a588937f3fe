/**
 * AI articles: one item per article under `ARTICLE#<slug>` in the organization's partition,
 * and, for an article a daily run wrote, a copy under `ARTICLEDAY#<run date>#<slug>`, so a
 * day's articles are one strongly consistent Query (2a's publish, the concurrent-twin check)
 * instead of a read of every article the business ever had.
 * The slug is claimed with a conditional put, so two creates racing for one title keep one
 * article; the week's and the entity's counters (article-stats.ts) are counted only for the
 * article that was saved, and given back when its files could not be stored. A retired article
 * (its product left the catalogue) gives back its entity's count only: its week created it.
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ArticleRecord } from '../../core/articles/record';
import type { ArticleRepository, ArticleStats } from '../../ports';
import { conditionalWrite } from './client';
import { keys } from './keys';
import { queryPrefix } from './query-all';

export function createArticleRepository(db: DynamoDBDocumentClient, table: string, stats: ArticleStats): ArticleRepository {
  return {
    async add(orgSlug, article) {
      const claimed = await conditionalWrite(() => db.send(new PutCommand({
        TableName: table,
        Item: { ...keys.article(orgSlug, article.slug), type: 'article', org_slug: orgSlug, ...article },
        ConditionExpression: 'attribute_not_exists(PK)',
      })));
      if (!claimed) return false;
      if (article.run_date) await db.send(new PutCommand({ TableName: table, Item: { ...keys.articleOfDay(orgSlug, article.run_date, article.slug), type: 'article_day', ...article } }));
      await stats.recordArticle(orgSlug, article.week_start, article.product_id);
      return true;
    },

    async remove(orgSlug, article) {
      const removed = await deleteArticle(orgSlug, article);
      if (removed) await stats.unrecordArticle(orgSlug, article.week_start, article.product_id);
    },

    async retire(orgSlug, article) {
      const removed = await deleteArticle(orgSlug, article);
      // An entity that is gone has no count to give back (its update's condition refuses it).
      if (removed) await conditionalWrite(() => stats.unrecordEntityArticle(orgSlug, article.product_id));
      return removed;
    },

    async list(orgSlug) {
      return toRecords(await queryPrefix(db, table, keys.org(orgSlug), keys.articlePrefix));
    },

    async get(orgSlug, slug) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.article(orgSlug, slug) }));
      return Item ? toRecords([Item])[0] : null;
    },

    async listOfRunDate(orgSlug, runDate) {
      return toRecords(await queryPrefix(db, table, keys.org(orgSlug), keys.articleDayPrefix(runDate)));
    },
  };

  /** Deletes the article (and its day copy); false when it was already gone (nothing counted twice). */
  async function deleteArticle(orgSlug: string, article: ArticleRecord): Promise<boolean> {
    const removed = await conditionalWrite(() => db.send(new DeleteCommand({
      TableName: table, Key: keys.article(orgSlug, article.slug), ConditionExpression: 'attribute_exists(PK)',
    })));
    if (article.run_date) await db.send(new DeleteCommand({ TableName: table, Key: keys.articleOfDay(orgSlug, article.run_date, article.slug) }));
    return removed;
  }
}

const toRecords = (items: Record<string, any>[]): ArticleRecord[] => items
  .map(({ PK: _pk, SK: _sk, type: _type, org_slug: _org, ...article }) => article as ArticleRecord)
  .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.slug.localeCompare(b.slug));
