/**
 * The local workflow runner's executions, one item each (`PK = EXECUTION#<id>`), so a restart
 * can still read them. A running execution's item is also in the fleet index (GSI2, partition
 * `EXECUTIONS#RUNNING`), so a new process finds the executions the previous one left running
 * without a scan; the item's next write (its end) takes it out.
 */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WorkflowExecutionRecords } from '../../ports';
import { keys } from './keys';

const RUNNING_INDEX = 'EXECUTIONS#RUNNING';

export function createWorkflowExecutionRecords(db: DynamoDBDocumentClient, table: string): WorkflowExecutionRecords {
  return {
    async put(record) {
      const running = record.status === 'RUNNING' ? { GSI2PK: RUNNING_INDEX, GSI2SK: `${record.startedAt}#${record.executionId}` } : {};
      await db.send(new PutCommand({ TableName: table, Item: { ...keys.execution(record.executionId), type: 'workflow_execution', ...record, ...running } }));
    },
    async get(workflow, executionId) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.execution(executionId), ConsistentRead: true }));
      if (!Item || Item.workflow !== workflow) return null;
      return { status: Item.status, startedAt: Item.startedAt, stoppedAt: Item.stoppedAt ?? null, runner: Item.runner };
    },
    async listRunning() {
      const found: Awaited<ReturnType<WorkflowExecutionRecords['listRunning']>> = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db.send(new QueryCommand({
          TableName: table, IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': RUNNING_INDEX }, ExclusiveStartKey: startKey,
        }));
        for (const item of page.Items ?? []) {
          if (item.status === 'RUNNING') found.push({ workflow: item.workflow, executionId: item.executionId, startedAt: item.startedAt, runner: item.runner });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return found;
    },
  };
}
