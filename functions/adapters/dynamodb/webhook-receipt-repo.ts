/**
 * Receipts of processed inbound webhook messages: one item `WEBHOOK#<source>#<id>` /
 * `RECEIPT`, written with a conditional put only after the message was processed, so a
 * message whose processing failed is processed again when the sender retries it, and one
 * that succeeded is a no-op however often it is delivered again (D27).
 *
 * Receipts expire after RECEIPT_RETENTION_DAYS (`expires_at`: DynamoDB's TTL on AWS; the
 * embedded database has no TTL, so reads ignore expired receipts and a put may replace one).
 * Senders retry for a few days at most (Standard Webhooks / Svix: about 1.5 days).
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock, WebhookReceipts } from '../../ports';
import { conditionalWrite } from './client';
import { keys } from './keys';

export const RECEIPT_RETENTION_DAYS = 30;

export function createWebhookReceipts(db: DynamoDBDocumentClient, table: string, clock: Clock): WebhookReceipts {
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  return {
    async seen(source, messageId) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.webhookReceipt(source, messageId), ConsistentRead: true }));
      return Boolean(Item) && !(typeof Item!.expires_at === 'number' && Item!.expires_at <= nowSeconds());
    },

    record(source, messageId, { eventType, processedAt }) {
      const now = nowSeconds();
      return conditionalWrite(() => db.send(new PutCommand({
        TableName: table,
        Item: {
          ...keys.webhookReceipt(source, messageId),
          type: 'webhook_receipt',
          source,
          message_id: messageId,
          event_type: eventType,
          processed_at: processedAt,
          expires_at: now + RECEIPT_RETENTION_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at <= :now',
        ExpressionAttributeValues: { ':now': now },
      })));
    },
  };
}
