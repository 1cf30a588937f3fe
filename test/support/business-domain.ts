/**
 * The domain tests' one stand-in: a business's URL set to its own domain in the table directly.
 * This machine has no public DNS, so no route can create a business on a domain that only a
 * test DNS server knows; everything after this write runs through the API.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { keys } from '../../functions/adapters/dynamodb/keys';
import type { TestStack } from './stack';

/** The business of `org` now has the URL `https://<host>/` on the registrable domain `domain`. */
export async function setBusinessDomain(stack: TestStack, org: string, host: string, domain: string): Promise<void> {
  const db = createDocumentClient({ region: stack.config.region, endpoint: stack.config.dynamodbEndpoint });
  await db.send(new UpdateCommand({
    TableName: stack.config.tableName, Key: keys.business(org),
    UpdateExpression: 'SET #url = :url, #domain = :domain',
    ExpressionAttributeNames: { '#url': 'url', '#domain': 'domain' },
    ExpressionAttributeValues: { ':url': `https://${host}/`, ':domain': domain },
  }));
}
