/** WEBHOOK routes: a Standard Webhooks / svix signature over the raw body (D27). */
import { Webhook, WebhookVerificationError } from 'svix/dist/webhook';
import { ProviderNotConfiguredError, UnauthorizedError, ValidationError } from '../../core/errors';
import { countMetric } from '../../metrics';
import type { Authenticator } from '.';

/** The spec's hook-* headers and the svix-* / webhook-* families real providers send (D27). */
const SIGNATURE_HEADER_FAMILIES = ['hook', 'svix', 'webhook'];

export const webhookAuth: Authenticator<'WEBHOOK'> = {
  authClass: 'WEBHOOK',
  async verify(headers, rawBody, container) {
    const family = SIGNATURE_HEADER_FAMILIES.find((f) => headers[`${f}-id`] || headers[`${f}-signature`] || headers[`${f}-timestamp`]);
    const id = family && headers[`${family}-id`];
    const timestamp = family && headers[`${family}-timestamp`];
    const signature = family && headers[`${family}-signature`];
    if (!id || !timestamp || !signature) {
      countMetric('WebhookRejections', 1, { reason: 'unsigned' });
      throw new ValidationError('missing signature headers: hook-id, hook-timestamp and hook-signature are required');
    }
    const secret = await container.secrets.idpWebhookSecret();
    if (!secret) throw new ProviderNotConfiguredError('webhook signing secret is not configured (IDP_WEBHOOK_SECRET)');
    const webhook = new Webhook(secret);
    try {
      webhook.verify(rawBody, { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signature });
    } catch (err) {
      if (err instanceof WebhookVerificationError) {
        countMetric('WebhookRejections', 1, { reason: 'bad-signature' });
        throw new UnauthorizedError(`invalid webhook signature: ${err.message}`);
      }
      // svix JSON.parses the payload only once a signature matched: a signed body that is not
      // JSON is the sender's bad input (400), never a server error.
      if (err instanceof SyntaxError) throw new ValidationError(`invalid JSON body: ${err.message}`);
      throw err;
    }
    return { kind: 'webhook', messageId: id };
  },
};
