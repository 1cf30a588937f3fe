/**
 * The identity provider's side: its membership API (IDP_API_URL, IDP_SECRET_KEY, read per
 * call: on AWS the secret reaches the config only through container.ready()) and the
 * processed webhook message ids (D27).
 */
import { createWebhookReceipts } from '../adapters/dynamodb/webhook-receipt-repo';
import { createIdpDirectory } from '../adapters/external/idp/memberships';
import { perContainer } from './per-container';

export const idpDirectoryOf = perContainer(({ config }) => createIdpDirectory({ settings: () => config.idp }), { needsSecrets: false });
export const webhookReceiptsOf = perContainer(({ dynamo, clock }) => createWebhookReceipts(dynamo.db, dynamo.table, clock), { needsSecrets: false });
