/**
 * Lambda@Edge origin-request handler (D4), shared by every customer distribution.
 * Lambda@Edge allows no environment variables, so per-distribution settings arrive as
 * origin custom headers: `x-ai-site-host` names the customer's AI-site host
 * (`{slug}.{AI_SITE_DOMAIN}`). Store paths leave the request untouched (the distribution's
 * own origin is the store); AI paths switch the origin to the AI-site host and set Host.
 */
import type { CloudFrontRequest, CloudFrontRequestEvent, CloudFrontRequestResult } from 'aws-lambda';
import { route } from './route';

export const AI_SITE_HOST_HEADER = 'x-ai-site-host';

/** The AI-site host configured on the request's origin, or undefined. */
export function aiSiteHostOf(request: CloudFrontRequest): string | undefined {
  const origin = request.origin;
  const headers = origin?.custom?.customHeaders ?? origin?.s3?.customHeaders;
  const value = headers?.[AI_SITE_HOST_HEADER]?.[0]?.value?.trim();
  return value ? value : undefined;
}

export function routeRequest(request: CloudFrontRequest): CloudFrontRequest {
  if (route(request.uri) !== 'ai') return request;
  const host = aiSiteHostOf(request);
  // A distribution without the header is misconfigured: serve the store rather than fail.
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
