/** GET /api/domain/get-proxy/{org_id} (JWT): the spec's "Proxy information" of the business. */
import * as z from 'zod/mini';
import { getProxyInfo } from '../../app/domain/cdn';
import { endpoint } from '../../http/endpoint';
import { nullableString, orgSlug } from '../../http/schemas';
import { requireBusiness } from '../../app/business';
import { certificateType, googleVerificationStatus, nullableText, proxyStatus } from './domain-schemas';
import { jwtAuth } from '../../http/auth/jwt';

/** The spec's proxy information, plus the connection's progress (D148); the success contract. */
const response = z.object({
  has_proxy: z.boolean(),
  proxy_status: z.nullable(proxyStatus),
  cdn_domain: nullableString,
  distribution_id: nullableString,
  certificate_arn: nullableText('set once Part 1 completes'),
  origin_cname: nullableText('where the domain originally pointed (CNAME target or A-record address)'),
  original_www_cname: nullableText('original CNAME, kept for disconnect; null for an apex'),
  custom_domain: nullableString,
  domain_type: z.enum(['subdomain', 'apex']).check(z.describe('subdomain when no proxy exists')),
  naked_domain: nullableString,
  subdomain_label: nullableText('www, a label, a.b, or @ for an apex'),
  original_apex_a_records: z.array(z.string()).check(z.describe('original A records of an apex domain (apex only)')),
  apex_gateway_ips: z.nullable(z.array(z.string())).check(z.describe('addresses for the Part 2 A records (apex); null for subdomains')),
  certificate_type: z.nullable(certificateType),
  certificate_not_after: nullableText('end of validity of the certificate on the distribution (ISO)'),
  native_certificate_status: nullableText('the certificate manager\'s status of the native certificate (PENDING_VALIDATION, ISSUED, ...)'),
  google_verification_status: z.nullable(googleVerificationStatus),
  public_origin: nullableText('the origin the site names (https://<custom domain> once connected)'),
}).check(z.meta({ id: 'ProxyInfo' }));

export const handler = endpoint('GET /api/domain/get-proxy/{org_id}', { authenticator: jwtAuth,
  path: z.object({ org_id: orgSlug }),
  response,
}, async ({ path, container }) => {
  await requireBusiness(container, path.org_id);
  return { body: await getProxyInfo(container, path.org_id) };
});
