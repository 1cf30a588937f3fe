/**
 * Batch 2b records of one business and day, in the organization's partition: the sample
 * (written once: a retried or re-run day checks the same prompts), one item per check
 * (platform, prompt: a retry overwrites its own item, never adds one) and the report.
 * Checks and reports expire after CHECK_RETENTION_DAYS (`expires_at`: DynamoDB's TTL on
 * AWS; readers filter expired items, since the embedded server has no TTL).
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CHECK_RETENTION_DAYS, type VisibilityCheck, type VisibilitySample } from '../../core/visibility/checks';
import type { Clock, VisibilityCheckRepository } from '../../ports';
import { batchGetAll, isConditionFailure } from './client';
import { keys } from './keys';
import { queryPrefix } from './query-all';

const DAY_SECONDS = 86_400;

export function createVisibilityCheckRepository(db: DynamoDBDocumentClient, table: string, clock: Clock): VisibilityCheckRepository {
  const expiresAt = (runDate: string) => Math.floor(Date.parse(`${runDate}T00:00:00Z`) / 1000) + (CHECK_RETENTION_DAYS + 1) * DAY_SECONDS;
  const live = (item: Record<string, any> | undefined) =>
    item && !(typeof item.expires_at === 'number' && item.expires_at <= clock.now().getTime() / 1000) ? item : undefined;
  const strip = ({ PK: _pk, SK: _sk, type: _type, expires_at: _exp, ...rest }: Record<string, any>) => rest;

  return {
    async claimSample(sample) {
      try {
        await db.send(new PutCommand({
          TableName: table,
          Item: { ...keys.visibilitySample(sample.org_slug, sample.run_date), type: 'visibility_sample', ...sample, expires_at: expiresAt(sample.run_date) },
          ConditionExpression: 'attribute_not_exists(PK)',
        }));
        return sample;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const existing = await this.getSample(sample.org_slug, sample.run_date);
        if (!existing) throw err;
        return existing;
      }
    },

    async getSample(orgSlug, runDate) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.visibilitySample(orgSlug, runDate), ConsistentRead: true }));
      const item = live(Item);
      return item ? (strip(item) as VisibilitySample) : null;
    },

    async putCheck(check) {
      await db.send(new PutCommand({
        TableName: table,
        Item: { ...keys.visibilityCheck(check.org_slug, check.run_date, check.platform, check.prompt_id), type: 'visibility_check', ...check, expires_at: expiresAt(check.run_date) },
      }));
    },

    async listChecks(orgSlug, runDate) {
      const items = await queryPrefix(db, table, keys.org(orgSlug), keys.visibilityCheckPrefix(runDate));
      return items.filter((i) => live(i)).map((i) => strip(i) as VisibilityCheck);
    },

    async putReport(orgSlug, runDate, report) {
      await db.send(new PutCommand({
        TableName: table,
        Item: { ...keys.visibilityReport(orgSlug, runDate), type: 'visibility_report', org_slug: orgSlug, run_date: runDate, report, expires_at: expiresAt(runDate) },
      }));
    },

    async getReport(orgSlug, runDate) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.visibilityReport(orgSlug, runDate), ConsistentRead: true }));
      return live(Item)?.report ?? null;
    },

    async getReports(orgSlug, runDates) {
      // By key, in one batch: a day's checks share the reports' key range, so a range query would read them all.
      const days = [...new Set(runDates)].sort();
      const items = await batchGetAll(db, table, days.map((runDate) => keys.visibilityReport(orgSlug, runDate)), { consistent: true });
      const byDay = new Map(items.map((item) => live(item)).filter((item) => item !== undefined).map((item) => [item!.run_date as string, item!.report]));
      return days.flatMap((runDate) => (byDay.has(runDate) ? [{ runDate, report: byDay.get(runDate)! }] : []));
    },
  };
}
