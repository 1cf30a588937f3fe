/**
 * POST /webhooks/idp: identity-provider events (spec: Events; D27, D29).
 *
 * The route's auth class already verified the Standard Webhooks signature over the raw body
 * (functions/http/auth.ts: `hook-*`, `svix-*` or `webhook-*` headers, 5-minute tolerance)
 * and refused a signed body that is not JSON (400). Here:
 *   1. the envelope `{type, data}` and the fields the event's action needs are checked
 *      (400 naming the field);
 *   2. a type outside the spec's table is acknowledged and ignored (200 with a note);
 *   3. a message id already processed is acknowledged without processing it again
 *      (`duplicate: true`);
 *   4. the event is applied (functions/app/organizations/events.ts); when the identity
 *      provider fails the answer is 5xx, so the sender retries, and the id is NOT recorded;
 *   5. only then the message id is recorded (a conditional put).
 * Response: `{status: 'success', event_type}`.
 */
import * as z from 'zod/mini';
import { safeParse } from 'zod/v4/core';
import { applyIdpEvent } from '../../app/organizations/events';
import { ValidationError } from '../../core/errors';
import { isHandledEvent, isMembershipEvent, type HandledEventType, type IdpEvent } from '../../core/organizations/events';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { webhookReceiptsOf } from '../../engines/idp';
import { webhookAuth } from '../../http/auth/webhook';

export const IDP_WEBHOOK_SOURCE = 'idp';
const MAX_MESSAGE_ID_CHARS = 256;

const required = (what: string) => z.string({ error: (iss) => (iss.input === undefined ? `is required (${what})` : `must be a string (${what})`) }).check(z.minLength(1, `is required (${what})`), z.maxLength(256, 'is longer than 256 characters'));
const slug = z.pipe(z.string({ error: (iss) => (iss.input === undefined ? 'is required (the organization slug)' : 'must be a string') }), orgSlug);
const optionalText = z.optional(z.nullable(z.string({ error: 'must be a string' })));
const timestamp = z.optional(z.nullable(z.number({ error: 'must be a number (ms)' })));

const envelope = z.looseObject({
  type: required('the event type'),
  data: z.looseObject({}, { error: 'is required (an object)' }),
});

/** `data` of organization events: the organization itself. `organization.created` must carry the slug. */
const organizationData = (slugRequired: boolean) => z.looseObject({
  id: required("the provider's organization id"),
  slug: slugRequired ? slug : z.optional(z.nullable(slug)),
  name: optionalText,
  updated_at: timestamp,
  public_metadata: z.optional(z.nullable(z.looseObject({
    stripe_customer_id: z.optional(z.nullable(z.string().check(z.regex(/^cus_[A-Za-z0-9]{1,64}$/, 'must be a payment customer id (cus_...)')))),
  }, { error: 'must be an object' }))),
});

/** `data` of membership events: the membership, whose `organization` names the organization. */
const membershipData = z.looseObject({
  organization: z.looseObject({
    id: required("the provider's organization id"),
    slug: z.optional(z.nullable(slug)),
    name: optionalText,
  }, { error: 'is required (an object)' }),
});

/** `{status, event_type}` (spec: Events), with what this service adds when it applies. */
const response = z.object({
  status: z.literal('success'),
  event_type: z.string(),
  note: z.optional(z.string()).check(z.describe('why nothing, or less than usual, was done (an unhandled type is acknowledged and ignored)')),
  duplicate: z.optional(z.literal(true)).check(z.describe('the message id was processed before: acknowledged, not processed again')),
});

export const handler = endpoint('POST /webhooks/idp', { authenticator: webhookAuth, response }, async ({ body, auth, container, log }) => {
  if (auth.messageId.length > MAX_MESSAGE_ID_CHARS) throw new ValidationError(`invalid webhook id: longer than ${MAX_MESSAGE_ID_CHARS} characters`);
  const { type, data } = check(envelope, parseJson(body));

  if (!isHandledEvent(type)) {
    log.info('identity-provider event ignored', { event_type: type, webhook_id: auth.messageId });
    return { body: { status: 'success', event_type: type, note: `event type ${type} is not handled: acknowledged and ignored` } };
  }
  const event = toEvent(type, data);
  if (await webhookReceiptsOf(container).seen(IDP_WEBHOOK_SOURCE, auth.messageId)) {
    log.info('identity-provider event already processed', { event_type: type, webhook_id: auth.messageId });
    return { body: { status: 'success', event_type: type, duplicate: true } };
  }
  const outcome = await applyIdpEvent(container, event);
  await webhookReceiptsOf(container).record(IDP_WEBHOOK_SOURCE, auth.messageId, { eventType: type, processedAt: container.clock.now().toISOString() });
  log.info('identity-provider event processed', { event_type: type, webhook_id: auth.messageId, org: outcome.orgSlug, members: outcome.memberCount, note: outcome.note });
  return { body: { status: 'success', event_type: type, ...(outcome.note ? { note: outcome.note } : {}) } };
});

/** The signature check parsed it already; this keeps the handler honest on its own. */
function parseJson(raw: unknown): unknown {
  try {
    return JSON.parse(String(raw ?? ''));
  } catch (err) {
    throw new ValidationError(`invalid JSON body: ${(err as Error).message}`);
  }
}

function check<S extends z.ZodMiniType>(schema: S, value: unknown, prefix = ''): z.infer<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.data as z.infer<S>;
  const issue = result.error.issues[0];
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body';
  throw new ValidationError(`invalid event: ${field}: ${issue.message}`);
}

function toEvent(type: HandledEventType, data: Record<string, unknown>): IdpEvent {
  if (isMembershipEvent(type)) {
    const { organization } = check(membershipData, data, 'data');
    return { type, organization: { providerOrgId: organization.id, slug: organization.slug ?? undefined, name: organization.name ?? undefined } };
  }
  const org = check(organizationData(type === 'organization.created'), data, 'data');
  return {
    type,
    organization: {
      providerOrgId: org.id, slug: org.slug ?? undefined, name: org.name ?? undefined, updatedAt: org.updated_at ?? undefined,
      stripeCustomerId: org.public_metadata?.stripe_customer_id ?? undefined,
    },
  };
}
