/** Signs identity-provider webhook deliveries the way Standard Webhooks senders do (svix). */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'svix';
import { DEV_WEBHOOK_SECRET } from '../../functions/local/runtime';
import type { TestStack } from './stack';

export type HeaderFamily = 'hook' | 'svix' | 'webhook';

export interface Delivery {
  /** Default: a fresh `msg_...` id. */
  id?: string;
  family?: HeaderFamily;
  /** Signing time. Default now. */
  at?: Date;
  secret?: string;
}

export const newMessageId = () => `msg_${randomUUID().replace(/-/g, '')}`;

export function signedHeaders(body: string, { id = newMessageId(), family = 'hook', at = new Date(), secret = DEV_WEBHOOK_SECRET }: Delivery = {}): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [`${family}-id`]: id,
    [`${family}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
    [`${family}-signature`]: new Webhook(secret).sign(id, at, body),
  };
}

/** POSTs a signed event to /webhooks/idp. */
export function deliver(stack: TestStack, event: unknown, delivery: Delivery = {}) {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  return stack.call('POST', '/webhooks/idp', { rawBody: body, headers: signedHeaders(body, delivery) });
}

/** Clerk-shaped organization events: `data` is the organization. */
export const organizationEvent = (type: 'created' | 'updated' | 'deleted', org: { id: string; slug?: string; name?: string; updated_at?: number; public_metadata?: Record<string, unknown> }) =>
  ({ type: `organization.${type}`, object: 'event', data: type === 'deleted' ? { deleted: true, object: 'organization', ...org } : { object: 'organization', ...org } });

/** Clerk-shaped membership events: `data` is the membership (the fake API's own object). */
export const membershipEvent = (type: 'created' | 'updated' | 'deleted', data: Record<string, unknown>) =>
  ({ type: `organizationMembership.${type}`, object: 'event', data });
