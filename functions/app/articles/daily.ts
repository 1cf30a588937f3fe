/**
 * Batch 2a's articles (spec: "many parallel create-ai-article calls, then one deploy"):
 * 1. the day's plan (which entities get how many articles, from the quota policy) is stored
 *    once per business and day, so a retry follows the same plan even though the quota of a
 *    one-time burst reads 0 once the first articles exist;
 * 2. each planned entity creates the articles it still lacks for that day (a retry creates
 *    only the missing ones); the quota is a ceiling (D35): what the gate turned down, and why,
 *    is stored as the entity's outcome of the day, and a product no longer in the catalogue
 *    is not planned at all;
 * 3. one publish of every site part refreshes every page's check date (D112) and puts the
 *    new articles live.
 */
import { createHash } from 'node:crypto';
import { artifactKeys } from '../../core/artifacts';
import { articleModelOf } from '../../engines/article-writer';
import type { Container } from '../../container';
import { failingInto, holdDay, type BusinessTaskInput } from '../daily';
import { storeUnreadable } from '../../core/daily/run';
import { MS_PER_DAY } from '../../core/visibility/score';
import { publishChangedSiteParts, publishSiteParts, type CatalogArtifact } from '../site';
import type { ArticleModel, ArticleModelUsage } from '../../core/articles/compose';
import { createArticles, type RejectedQuestion } from './create';
import { loadArticleSite, prepareArticleSources, type ArticleSite } from './materials';
import type { ArticleRecord } from '../../core/articles/record';
import { articleQuotaOf } from './quota';
import { runClaimed } from '../step-claim';
import { dailyStepClaimsOf } from '../../engines/step-claims';

/** One entity's line of the day's plan. */
export interface PlannedEntity {
  /** Product slug; null: the business entity. */
  product_id: string | null;
  count: number;
}

/** One Map item: several entities, written from one read of the site. */
export interface ArticleBatch extends BusinessTaskInput {
  entities: PlannedEntity[];
}

/**
 * Articles one Map item may plan: a model-written article takes a few seconds and an item
 * must finish within its task's 300 s; an extractive one takes milliseconds, so offline an
 * item holds ten times as many. Entities are grouped up to this many planned articles (an
 * entity is never split): every item reads the site once.
 */
export const ARTICLES_PER_ITEM = 40;
export const ARTICLES_PER_ITEM_EXTRACTIVE = 400;

/** The plan's entities in Map items of at most `perItem` planned articles (one entity may exceed it alone). */
export function itemsOfPlan(entities: readonly PlannedEntity[], perItem = ARTICLES_PER_ITEM): PlannedEntity[][] {
  const items: PlannedEntity[][] = [];
  let current: PlannedEntity[] = [];
  let planned = 0;
  for (const entity of entities) {
    if (current.length && planned + entity.count > perItem) {
      items.push(current);
      current = [];
      planned = 0;
    }
    current.push(entity);
    planned += entity.count;
  }
  if (current.length) items.push(current);
  return items;
}

interface ArticlePlan {
  run_date: string;
  items: PlannedEntity[];
}

export function planDailyArticles(container: Container, input: BusinessTaskInput): Promise<{ items: ArticleBatch[] }> {
  return failingInto(container, input, '2a', () => planOnce(container, input));
}

async function planOnce(container: Container, input: BusinessTaskInput): Promise<{ items: ArticleBatch[] }> {
  await holdDay(container, input);
  // No article is written from yesterday's facts on a day the store could not be read.
  const run = await container.dailyRuns.getBusinessRun(input.execution_id, input.org_slug);
  if (run && storeUnreadable(run.steps)) return { items: [] };
  const key = artifactKeys.articlePlan(input.org_slug, input.run_date);
  let plan = await container.artifacts.get<ArticlePlan>(key);
  if (!plan) {
    const [{ quota, products }, catalog] = await Promise.all([
      articleQuotaOf(container, input.org_slug, input.run_date),
      container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(input.org_slug)),
    ]);
    // Removed products keep their entities (and their quota line), but get no new article.
    const listed = new Set((catalog?.products ?? []).map((p) => p.productId));
    const slugOf = new Map(products.filter((p) => listed.has(p.productId)).map((p) => [p.id, p.productId]));
    const items = [
      ...(quota.business && quota.business.daily_quota > 0 ? [{ product_id: null, count: quota.business.daily_quota }] : []),
      ...quota.products.filter((p) => p.daily_quota > 0 && slugOf.has(p.id)).map((p) => ({ product_id: slugOf.get(p.id)!, count: p.daily_quota })),
    ];
    plan = { run_date: input.run_date, items };
    await container.artifacts.put(key, plan);
  }
  const perItem = articleModelOf(container) ? ARTICLES_PER_ITEM : ARTICLES_PER_ITEM_EXTRACTIVE;
  // Parsed here once, so the items that run at once each read the stored sources, not the release.
  if (plan.items.length) await prepareArticleSources(container, input.org_slug);
  return { items: itemsOfPlan(plan.items, perItem).map((entities) => ({ ...input, entities })) };
}

/** What one planned entity published on a day, and why the rest of its quota was not (D35). */
export interface ArticleOutcome {
  product_id: string | null;
  planned: number;
  published: number;
  rejected: RejectedQuestion[];
  shortfall_reason: string | null;
  /** The article model's calls, tokens and dropped sentences; null when the extractive engine wrote. */
  model: ArticleModelUsage | null;
}

/**
 * Creates the articles the batch's entities still lack today, and records each entity's outcome.
 * One invocation of an item at a time (D240): two copies at once would each count the same
 * articles missing, then both pay the model and write them. A copy delivered meanwhile asks to
 * be asked again (StepClaimed) until the holder is done, then finds nothing missing.
 */
export async function createArticleBatch(container: Container, batch: ArticleBatch) {
  // Nothing counts as settled without running, and a copy's StepClaimed is not the item failing:
  // only the holder's work records a failure on 2a.
  const outcome = await runClaimed(
    container, dailyStepClaimsOf(container), batch.org_slug, batch.execution_id, articleItemStep(batch), async () => null,
    () => failingInto(container, batch, '2a', () => createMissingArticles(container, batch)),
  );
  return 'result' in outcome ? outcome.result : outcome.settled;
}

/** The claim's step name of one 2a item: its entities, hashed (an item's entities never change within a day's plan). */
const articleItemStep = (batch: ArticleBatch) =>
  `2a_${createHash('sha256').update(batch.entities.map((e) => e.product_id ?? '').join('\n')).digest('hex').slice(0, 16)}`;

async function createMissingArticles(container: Container, batch: ArticleBatch) {
  await holdDay(container, batch);
  // One read of the site and one parse of its sources for every entity of the item, and none
  // when every entity already has its articles (a retried item).
  let loaded: Promise<ArticleSite> | null = null;
  const site = () => (loaded ??= loadArticleSite(container, batch.org_slug));
  const model = articleModelOf(container);
  let articles = await container.articles.list(batch.org_slug);
  const entities = [];
  for (const entity of batch.entities) {
    const { summary, created } = await createEntityArticles(container, batch, entity, site, articles, model);
    // The next entity's gate sees what this one just wrote.
    articles = [...articles, ...created];
    entities.push(summary);
  }
  return { entities };
}

async function createEntityArticles(
  container: Container, batch: ArticleBatch, entity: PlannedEntity, site: () => Promise<ArticleSite>, articles: ArticleRecord[], model: ArticleModel | null,
) {
  const key = artifactKeys.articleOutcome(batch.org_slug, batch.run_date, entity.product_id ?? 'business');
  // What an earlier delivery of this item recorded (at least once, D196): its turn-downs are
  // not asked again (a paid call each with a model), and its spend stays counted.
  const before = await container.artifacts.get<ArticleOutcome>(key);
  const existing = articles.filter((a) => a.run_date === batch.run_date && a.product_id === entity.product_id).length;
  const missing = Math.max(0, entity.count - existing);
  const created = missing
    ? await createArticles(container, batch.org_slug, {
      productId: entity.product_id, count: missing, runDate: batch.run_date, existing: articles, model, site: await site(),
      turnedDown: before?.rejected.map((r) => r.title),
    })
    : { articles: [], rejected: [], shortfall: null, modelUsage: null };
  const outcome: ArticleOutcome = {
    product_id: entity.product_id, planned: entity.count, published: existing + created.articles.length,
    rejected: [...(before?.rejected ?? []), ...created.rejected],
    // A repeat that found nothing missing keeps the first delivery's reason.
    shortfall_reason: missing ? created.shortfall : before?.shortfall_reason ?? null,
    model: summedUsage(before?.model ?? null, created.modelUsage),
  };
  // A repeat that found nothing missing rewrites nothing (or records the outcome an earlier
  // delivery could not, when it stopped after writing its articles).
  if (missing || !before) await container.artifacts.put(key, outcome);
  return {
    created: created.articles.map((a) => a.record),
    summary: { product_id: entity.product_id, planned: entity.count, already: existing, created: created.articles.length, rejected: created.rejected.length, shortfall: created.shortfall },
  };
}

function summedUsage(a: ArticleModelUsage | null, b: ArticleModelUsage | null): ArticleModelUsage | null {
  if (!a || !b) return a ?? b;
  return {
    ...b, calls: a.calls + b.calls, cost_units: a.cost_units + b.cost_units,
    dropped_sentences: a.dropped_sentences + b.dropped_sentences, fallbacks: a.fallbacks + b.fallbacks,
  };
}

/** The day's outcomes summed: planned (the quota), published, and per entity why the rest was not. */
async function dayOutcome(container: Container, input: BusinessTaskInput) {
  const keys = await container.artifacts.list(artifactKeys.articleOutcomes(input.org_slug, input.run_date));
  const outcomes = (await Promise.all(keys.map((k) => container.artifacts.get<ArticleOutcome>(k)))).filter((o): o is ArticleOutcome => o !== null);
  const planned = outcomes.reduce((n, o) => n + o.planned, 0);
  const published = outcomes.reduce((n, o) => n + o.published, 0);
  const models = outcomes.map((o) => o.model).filter((m): m is ArticleModelUsage => m != null);
  return {
    articles_planned: planned,
    ...(models.length ? {
      model_calls: models.reduce((n, m) => n + m.calls, 0),
      cost_units: models.reduce((n, m) => n + m.cost_units, 0),
      cost_unit: 'tokens',
      ungrounded_sentences_dropped: models.reduce((n, m) => n + m.dropped_sentences, 0),
      model_fallbacks: models.reduce((n, m) => n + m.fallbacks, 0),
    } : {}),
    shortfall: Math.max(0, planned - published),
    not_published: outcomes.filter((o) => o.published < o.planned).map((o) => ({
      product_id: o.product_id, planned: o.planned, published: o.published, reason: o.shortfall_reason, rejected: o.rejected.slice(0, 10),
    })),
  };
}

/**
 * A site whose content did not change is republished (every page's check date and title year
 * moved, D112) only this often: a publish writes every object of a release, so a daily
 * refresh of an unchanged 5,000-product site would write ~15,000 objects a day to say
 * nothing new (D167). A new year always republishes (titles say the year).
 */
export const UNCHANGED_REFRESH_DAYS = 28;

/** Whether an unchanged site is due its check-date refresh: a new year, or the last publish `UNCHANGED_REFRESH_DAYS` ago. */
export function refreshDue(lastPublishedAt: string | null | undefined, now: Date): boolean {
  if (!lastPublishedAt) return true;
  const last = new Date(lastPublishedAt);
  return last.getUTCFullYear() !== now.getUTCFullYear() || now.getTime() - last.getTime() >= UNCHANGED_REFRESH_DAYS * MS_PER_DAY;
}

/**
 * 2a's one deploy: every part (the new articles' included), every page's check date
 * refreshed. Nothing is published when no part changed, unless the site is due its refresh
 * (`refreshDue`): an unchanged day writes no object, and a second run of the day none either.
 */
export async function publishArticlesAndTimestamps(container: Container, input: BusinessTaskInput) {
  const [today, site] = await Promise.all([container.articles.listOfRunDate(input.org_slug, input.run_date), container.aiSites.get(input.org_slug)]);
  // Due: the last publish that moved every page's check date (D180), not the last publish.
  const checkedAt = site?.checkedAt ?? site?.deployedAt;
  const due = refreshDue(checkedAt, container.clock.now());
  const release = due ? await publishSiteParts(container, input.org_slug) : await publishChangedSiteParts(container, input.org_slug);
  return {
    articles_created: today.length,
    // Who wrote them: the model, or the extractive engine (offline, or the model's fallback).
    written_by: { model: today.filter((a) => a.engine === 'model').length, extractive: today.filter((a) => a.engine !== 'model').length },
    ...(await dayOutcome(container, input)),
    article_paths: today.map((a) => a.article_path),
    deployed: release !== null,
    ...(release
      ? { release_id: release.releaseId, files: release.fileCount, refreshed_at: release.deployedAt }
      : { reason: `no new article or part changed, and the last refresh is under ${UNCHANGED_REFRESH_DAYS} days old (${checkedAt?.slice(0, 10) ?? 'never'})` }),
  };
}
