/**
 * The route manifest: the single source of truth for the HTTP surface. The CDK API stack
 * makes one Lambda per entry and the local HTTP server serves the same entries, so the
 * two cannot drift. Auth classes follow the spec's Authentication table and D5-D8.
 */
import type { RateLimitName } from './core/constants';
import type { WorkflowName } from './core/workflows';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** PUBLIC: none; JWT: bearer token with org_id; KEY: X-API-Key; WEBHOOK: Standard Webhooks signature. */
export type AuthClass = 'PUBLIC' | 'JWT' | 'KEY' | 'WEBHOOK';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway resource path, `{name}` for path parameters. */
  path: string;
  auth: AuthClass;
  /** Module under functions/ exporting `handler`. */
  handler: string;
  rateLimit?: RateLimitName;
  /** Keep the body byte-for-byte (signatures are computed over it). */
  rawBody?: boolean;
  /** Lambda timeout; API Gateway cuts synchronous requests at 29 s anyway. */
  timeoutSeconds?: number;
  /** Publishes AI-site files (the CDK app grants the sites bucket and the release store). */
  writesSiteFiles?: true;
  /** The state machine this route starts (the CDK app grants StartExecution and passes its ARN). */
  startsWorkflow?: WorkflowName;
  /** The state machine whose executions this route reads (DescribeExecution). */
  readsWorkflow?: WorkflowName;
  /**
   * Uses the payment provider's SDK (`stripe`): the CDK app leaves it out of the bundle and
   * attaches the Lambda layer that holds it (lib/layers.ts); bench/bundle.ts measures alike.
   */
  usesStripe?: true;
  /** Loads the common English word list (the visibility brand-alias rule) from a Lambda layer (lib/layers.ts). */
  usesWordList?: true;
}

/** The manifest as written: its literal type lets a route key name its auth class (`AuthClassOf`). */
const MANIFEST = [
  { method: 'GET', path: '/health', auth: 'PUBLIC', handler: 'api/health/get' },

  // Onboarding and business
  { method: 'POST', path: '/api/business', auth: 'JWT', handler: 'api/business/create' },
  { method: 'POST', path: '/api/onboarding/generate-all', auth: 'JWT', handler: 'api/onboarding/generate-all', startsWorkflow: 'onboarding' },
  { method: 'GET', path: '/api/onboarding/status', auth: 'JWT', handler: 'api/onboarding/status' },
  { method: 'POST', path: '/api/validate-store', auth: 'PUBLIC', handler: 'api/store/validate', rateLimit: 'validateStore' },
  { method: 'GET', path: '/api/product-names', auth: 'PUBLIC', handler: 'api/store/product-names', rateLimit: 'productNames' },

  // Products, AI website, dashboard reads (D25)
  { method: 'GET', path: '/api/products/{business_id}', auth: 'JWT', handler: 'api/products/list' },
  { method: 'GET', path: '/api/ai-website/{org_slug}', auth: 'PUBLIC', handler: 'api/ai-website/get' },
  { method: 'GET', path: '/api/prompts/{business_id}', auth: 'JWT', handler: 'api/prompts/list' },
  { method: 'GET', path: '/api/visibility/{business_id}', auth: 'JWT', handler: 'api/visibility/get' },
  { method: 'GET', path: '/api/visibility/{business_id}/checks', auth: 'JWT', handler: 'api/visibility/checks' },
  { method: 'GET', path: '/api/visibility/{business_id}/products', auth: 'JWT', handler: 'api/visibility/products' },
  { method: 'GET', path: '/api/ai-recommendations/{business_id}', auth: 'JWT', handler: 'api/ai-recommendations/list' },
  { method: 'GET', path: '/api/articles/{business_id}', auth: 'JWT', handler: 'api/articles/list' },

  // Competitors
  { method: 'POST', path: '/api/competitor-research', auth: 'PUBLIC', handler: 'api/competitor-research/research', rateLimit: 'competitorResearch' },
  { method: 'POST', path: '/api/explore/add-competitor', auth: 'JWT', handler: 'api/explore/add-competitor' },
  { method: 'GET', path: '/api/explore/competitors', auth: 'JWT', handler: 'api/explore/list-competitors' },
  { method: 'GET', path: '/api/explore/competitor/{competitor_id}', auth: 'JWT', handler: 'api/explore/get-competitor' },

  // Domain proxy
  { method: 'GET', path: '/api/domain/get-proxy/{org_id}', auth: 'JWT', handler: 'api/domain/get-proxy' },
  { method: 'POST', path: '/api/domain/start-certificate/{org_id}', auth: 'JWT', handler: 'api/domain/start-certificate', startsWorkflow: 'start-certificate', readsWorkflow: 'start-certificate' },
  { method: 'GET', path: '/api/domain/start-certificate/{org_id}/{execution_id}', auth: 'JWT', handler: 'api/domain/start-certificate-status', readsWorkflow: 'start-certificate' },
  { method: 'POST', path: '/api/domain/complete-certificate/{org_id}', auth: 'JWT', handler: 'api/domain/complete-certificate', startsWorkflow: 'complete-certificate', readsWorkflow: 'complete-certificate' },
  { method: 'GET', path: '/api/domain/complete-certificate/{org_id}/{execution_id}', auth: 'JWT', handler: 'api/domain/complete-certificate-status', readsWorkflow: 'complete-certificate' },
  { method: 'POST', path: '/api/domain/mark-step-complete/{org_id}', auth: 'JWT', handler: 'api/domain/mark-step-complete', startsWorkflow: 'domain-connect', readsWorkflow: 'domain-connect' },
  { method: 'GET', path: '/api/domain/mark-step-complete/{org_id}/{execution_id}', auth: 'JWT', handler: 'api/domain/mark-step-complete-status', readsWorkflow: 'domain-connect' },
  { method: 'POST', path: '/api/domain/disconnect-proxy/{org_id}', auth: 'JWT', handler: 'api/domain/disconnect-proxy' },
  { method: 'POST', path: '/api/domain/mark-disconnect-complete/{org_id}', auth: 'JWT', handler: 'api/domain/mark-disconnect-complete', startsWorkflow: 'domain-disconnect', readsWorkflow: 'domain-disconnect' },
  { method: 'GET', path: '/api/domain/mark-disconnect-complete/{org_id}/{execution_id}', auth: 'JWT', handler: 'api/domain/mark-disconnect-complete-status', readsWorkflow: 'domain-disconnect' },
  { method: 'POST', path: '/api/domain/start-google-verification/{org_id}', auth: 'JWT', handler: 'api/domain/start-google-verification' },
  { method: 'POST', path: '/api/domain/complete-google-verification/{org_id}', auth: 'JWT', handler: 'api/domain/complete-google-verification' },
  { method: 'POST', path: '/api/domain/verify-dns/{org_id}', auth: 'JWT', handler: 'api/domain/verify-dns' },
  { method: 'POST', path: '/api/domain/resubmit-sitemap/{org_id}', auth: 'KEY', handler: 'api/domain/resubmit-sitemap' },
  { method: 'POST', path: '/api/domain/update-edge-function', auth: 'KEY', handler: 'api/domain/update-edge-function', startsWorkflow: 'edge-rollout', readsWorkflow: 'edge-rollout' },
  { method: 'GET', path: '/api/domain/update-edge-function/{execution_id}', auth: 'KEY', handler: 'api/domain/update-edge-function-status', readsWorkflow: 'edge-rollout' },

  // Billing
  { method: 'POST', path: '/api/billing-portal', auth: 'JWT', handler: 'api/billing/portal', usesStripe: true },
  { method: 'GET', path: '/api/subscription-status', auth: 'JWT', handler: 'api/billing/subscription-status', usesStripe: true },

  // Webhooks and members
  { method: 'POST', path: '/webhooks/ai-recommendation-store', auth: 'PUBLIC', handler: 'api/webhooks/ai-recommendation-store', rateLimit: 'aiRecommendation', rawBody: true },
  { method: 'POST', path: '/webhooks/idp', auth: 'WEBHOOK', handler: 'api/webhooks/idp', rawBody: true },
  { method: 'GET', path: '/organization/{org_id}/members', auth: 'JWT', handler: 'api/organization/members' },

  // Scheduled jobs (KEY, D6)
  { method: 'GET', path: '/api/cron/entities', auth: 'KEY', handler: 'api/cron/entities' },
  { method: 'POST', path: '/api/cron/detect-changes', auth: 'KEY', handler: 'api/cron/run-for-business', startsWorkflow: 'daily-schedule' },
  { method: 'POST', path: '/api/cron/update-ai-site', auth: 'KEY', handler: 'api/cron/run-for-business', startsWorkflow: 'daily-schedule' },
  { method: 'POST', path: '/api/cron/discover-products', auth: 'KEY', handler: 'api/cron/run-for-business', startsWorkflow: 'daily-schedule' },
  { method: 'POST', path: '/api/cron/discover-products-from-changes', auth: 'KEY', handler: 'api/cron/run-for-business', startsWorkflow: 'daily-schedule' },
  { method: 'POST', path: '/api/cron/generate-product-prompts', auth: 'KEY', handler: 'api/cron/run-for-business', startsWorkflow: 'daily-schedule' },
  { method: 'POST', path: '/api/cron/generate-product-llms-txt', auth: 'KEY', handler: 'api/cron/run-for-business', startsWorkflow: 'daily-schedule' },
  { method: 'POST', path: '/api/cron/update-all-timestamps', auth: 'KEY', handler: 'api/cron/update-all-timestamps', startsWorkflow: 'site-publish', readsWorkflow: 'site-publish', writesSiteFiles: true },
  { method: 'GET', path: '/api/cron/update-all-timestamps/{execution_id}', auth: 'KEY', handler: 'api/cron/site-publish-status', readsWorkflow: 'site-publish', writesSiteFiles: true },
  { method: 'GET', path: '/api/cron/ai-articles-quota', auth: 'KEY', handler: 'api/cron/ai-articles-quota' },
  { method: 'POST', path: '/api/cron/create-ai-article', auth: 'KEY', handler: 'api/cron/create-ai-article', writesSiteFiles: true },
  { method: 'POST', path: '/api/cron/deploy-site', auth: 'KEY', handler: 'api/cron/deploy-site', startsWorkflow: 'site-publish', readsWorkflow: 'site-publish', writesSiteFiles: true },
  { method: 'GET', path: '/api/cron/deploy-site/{execution_id}', auth: 'KEY', handler: 'api/cron/site-publish-status', readsWorkflow: 'site-publish', writesSiteFiles: true },
  { method: 'POST', path: '/api/cron/submit-indexnow', auth: 'KEY', handler: 'api/cron/submit-indexnow' },
  { method: 'GET', path: '/api/cron/sample-prompts', auth: 'KEY', handler: 'api/cron/sample-prompts' },
  { method: 'POST', path: '/api/cron/analyze-visibility', auth: 'KEY', handler: 'api/cron/analyze-visibility', startsWorkflow: 'visibility-analysis' },
  { method: 'GET', path: '/api/cron/analyze-visibility/{execution_id}', auth: 'KEY', handler: 'api/cron/analyze-visibility-status', readsWorkflow: 'visibility-analysis' },
  { method: 'POST', path: '/api/cron/store-visibility-report', auth: 'KEY', handler: 'api/cron/store-visibility-report', usesWordList: true },
  { method: 'POST', path: '/api/cron/store-visibility-score', auth: 'KEY', handler: 'api/cron/store-visibility-score' },
  { method: 'POST', path: '/api/cron/generate-prompts', auth: 'KEY', handler: 'api/cron/generate-prompts', startsWorkflow: 'regenerate-prompts', readsWorkflow: 'regenerate-prompts', writesSiteFiles: true },
  { method: 'GET', path: '/api/cron/generate-prompts/{execution_id}', auth: 'KEY', handler: 'api/manual-trigger/regenerate-prompts-status', readsWorkflow: 'regenerate-prompts', writesSiteFiles: true },
  { method: 'POST', path: '/api/cron/trigger-all', auth: 'KEY', handler: 'api/cron/trigger-all', startsWorkflow: 'daily-schedule' },
  { method: 'GET', path: '/api/cron/trigger-all/{execution_id}', auth: 'KEY', handler: 'api/cron/trigger-all-status', readsWorkflow: 'daily-schedule' },
  { method: 'POST', path: '/api/manual-trigger/regenerate-prompts', auth: 'KEY', handler: 'api/manual-trigger/regenerate-prompts', startsWorkflow: 'regenerate-prompts', readsWorkflow: 'regenerate-prompts', writesSiteFiles: true },
  { method: 'GET', path: '/api/manual-trigger/regenerate-prompts/{execution_id}', auth: 'KEY', handler: 'api/manual-trigger/regenerate-prompts-status', readsWorkflow: 'regenerate-prompts', writesSiteFiles: true },
] as const satisfies readonly RouteDef[];

export const ROUTES: readonly RouteDef[] = MANIFEST;

type ManifestRoute = (typeof MANIFEST)[number];
type KeyOfRoute<R> = R extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;
type AuthOfRoute<R, K> = R extends { auth: infer A } ? (KeyOfRoute<R> extends K ? A : never) : never;
/** `METHOD /path` of a manifest route: a typo is a compile error. */
export type RouteKey = KeyOfRoute<ManifestRoute>;
/** The auth class the manifest gives a route. */
export type AuthClassOf<K extends RouteKey> = AuthOfRoute<ManifestRoute, K>;

export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

const byKey = new Map(ROUTES.map((r) => [routeKey(r), r]));

export function findRoute(method: string, resourcePath: string): RouteDef | undefined {
  return byKey.get(`${method.toUpperCase()} ${resourcePath}`);
}

export function getRoute(key: string): RouteDef {
  const route = byKey.get(key);
  if (!route) throw new Error(`route ${key} is not in the manifest (functions/routes.ts)`);
  return route;
}

/** Stable CDK construct id / function name part for a route: `PostApiBusiness`. */
export function routeId(route: Pick<RouteDef, 'method' | 'path'>): string {
  const words = `${route.method} ${route.path}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join('');
}
