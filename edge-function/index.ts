/**
 * Lambda@Edge origin-request handler (D4, D28), one function shared by every customer
 * distribution.
 *
 * Lambda@Edge allows no environment variables, so the per-customer setting travels in the
 * distribution itself: the store origin carries the origin custom header `x-ai-site-host`
 * naming the customer's AI-site host (`{slug}.{AI_SITE_DOMAIN}`). CloudFront puts origin
 * custom headers into the origin-request event (`request.origin.custom.customHeaders`).
 *
 * - Store paths: the request is returned untouched (the distribution's default origin is
 *   the store; Host stays the customer's domain, forwarded by the origin request policy).
 * - AI paths (./route.ts): `request.origin` becomes a custom https origin on the AI-site
 *   host and `request.headers.host` is set to that host, so the AI host picks the site.
 *   URI, query string, method and every other header stay as they came.
 * - Fail safe: when the header is missing, empty or not a plain host name, even AI paths
 *   stay on the store, which keeps the customer's site working whatever the misconfiguration.
 *
 * Routing depends on the URI only (never the User-Agent). No run-time imports, no
 * environment variables: the bundle is this file plus ./route.ts.
 */
import type { CloudFrontRequest, CloudFrontRequestEvent, CloudFrontRequestResult } from 'aws-lambda';
import { route } from './route';

export const AI_SITE_HOST_HEADER = 'x-ai-site-host';

/** A DNS host name without port, scheme or path (labels of letters, digits, `-`, `_`). */
const HOST_NAME = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)+$/i;

/** The AI-site host configured on the request's origin, or undefined when absent or malformed. */
export function aiSiteHostOf(request: CloudFrontRequest): string | undefined {
  const origin = request.origin;
  const headers = origin?.custom?.customHeaders ?? origin?.s3?.customHeaders;
  const value = headers?.[AI_SITE_HOST_HEADER]?.[0]?.value?.trim().toLowerCase();
  return value && value.length <= 253 && HOST_NAME.test(value) ? value : undefined;
}

export function routeRequest(request: CloudFrontRequest): CloudFrontRequest {
  if (route(request.uri) !== 'ai') return request;
  const host = aiSiteHostOf(request);
  if (!host) return request;
  request.origin = {
    custom: {
      domainName: host,
      port: 443,
      protocol: 'https',
      path: '',
      sslProtocols: ['TLSv1.2'],
      readTimeout: 30,
      keepaliveTimeout: 5,
      customHeaders: {},
    },
  };
  request.headers.host = [{ key: 'Host', value: host }];
  return request;
}

export const handler = async (event: CloudFrontRequestEvent): Promise<CloudFrontRequestResult> =>
  routeRequest(event.Records[0].cf.request);
