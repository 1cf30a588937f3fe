import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PLATFORM_KEYS } from '../../core/constants';
import type { TrackedPrompt } from '../../core/model';
import { promptId, promptIdentity } from '../../core/prompts/prompt-identity';
import type { PromptRepository } from '../../ports';
import { putAllIfAbsent } from './client';
import { keys } from './keys';
import { queryPrefix } from './query-all';

export function createPromptRepository(db: DynamoDBDocumentClient, table: string): PromptRepository {
  return {
    async list(orgSlug, filter = {}) {
      const items = await queryPrefix(db, table, keys.org(orgSlug), keys.promptPrefix(filter.entityId));
      return items.map(toPrompt).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    async addMissing(prompts) {
      // Unique within the business (D33): a prompt whose identity is tracked on any entity
      // of the business (or earlier in this batch) is not added again.
      const seen = new Map<string, Set<string>>();
      const identities = async (orgSlug: string) => {
        let set = seen.get(orgSlug);
        if (!set) {
          const items = await queryPrefix(db, table, keys.org(orgSlug), keys.promptPrefix());
          set = new Set(items.map((i) => promptIdentity(String(i.prompt ?? ''))));
          seen.set(orgSlug, set);
        }
        return set;
      };
      const items: Record<string, unknown>[] = [];
      for (const p of prompts) {
        const tracked = await identities(p.orgSlug);
        const identity = promptIdentity(p.prompt);
        if (tracked.has(identity)) continue;
        const id = promptId(p.entityId, p.prompt);
        items.push({ ...keys.prompt(p.orgSlug, p.entityId, id), type: 'prompt', ...p, id });
        tracked.add(identity);
      }
      return putAllIfAbsent(db, table, items);
    },

    async recordResults(target, results, testedAt) {
      // One single-item upsert per prompt: concurrent writers touch disjoint attributes
      // or write identical values, and a prompt that is not tracked yet gets created.
      for (const result of results) {
        const id = promptId(target.entityId, result.prompt);
        const names: Record<string, string> = {};
        const values: Record<string, unknown> = {
          ':tested': testedAt, ':id': id, ':prompt': result.prompt, ':entity': target.entityId,
          ':org': target.orgSlug, ':product': target.productId, ':source': 'generated', ':type': 'prompt',
        };
        // Only booleans are written: a platform that produced none today keeps its earlier
        // result (D30: a stored boolean is never overwritten by null).
        const sets = PLATFORM_KEYS.flatMap((k, i) => {
          if (typeof result[k] !== 'boolean') return [];
          names[`#p${i}`] = k;
          values[`:p${i}`] = result[k];
          return [`#p${i} = :p${i}`];
        });
        await db.send(new UpdateCommand({
          TableName: table,
          Key: keys.prompt(target.orgSlug, target.entityId, id),
          UpdateExpression: `SET ${[...sets, ''].join(', ')}lastTestedAt = :tested, id = if_not_exists(id, :id), prompt = if_not_exists(prompt, :prompt), entityId = :entity, orgSlug = :org, productId = if_not_exists(productId, :product), #source = if_not_exists(#source, :source), createdAt = if_not_exists(createdAt, :tested), #type = :type`,
          ExpressionAttributeNames: { ...names, '#source': 'source', '#type': 'type' },
          ExpressionAttributeValues: values,
        }));
      }
    },
  };
}

function toPrompt(item: Record<string, any>): TrackedPrompt {
  const results = Object.fromEntries(PLATFORM_KEYS.map((k) => [k, item[k] ?? null])) as Record<(typeof PLATFORM_KEYS)[number], boolean | null>;
  return {
    id: item.id,
    orgSlug: item.orgSlug,
    prompt: item.prompt,
    entityId: item.entityId,
    productId: item.productId ?? null,
    source: item.source ?? 'generated',
    lastTestedAt: item.lastTestedAt ?? null,
    createdAt: item.createdAt,
    ...results,
  };
}
