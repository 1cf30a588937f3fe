/** The local workflow runner's executions, one item each (`PK = EXECUTION#<id>`), so a restart can still read them. */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WorkflowExecutionRecords } from '../../ports';
import { keys } from './keys';

export function createWorkflowExecutionRecords(db: DynamoDBDocumentClient, table: string): WorkflowExecutionRecords {
  return {
    async put(record) {
      await db.send(new PutCommand({ TableName: table, Item: { ...keys.execution(record.executionId), type: 'workflow_execution', ...record } }));
    },
    async get(workflow, executionId) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.execution(executionId), ConsistentRead: true }));
      if (!Item || Item.workflow !== workflow) return null;
      return { status: Item.status, startedAt: Item.startedAt, stoppedAt: Item.stoppedAt ?? null, runner: Item.runner };
    },
  };
}
