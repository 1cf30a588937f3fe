import { NotFoundError, ValidationError } from '../core/errors';
import { storeDomain } from '../core/store/store-url';
import type { Container } from '../container';

/**
 * The business a URL belongs to: its AI-site host (`<slug>.<AI_SITE_DOMAIN>`), a customer
 * domain its CDN distribution serves, or its store's domain. 404 when none.
 */
export async function businessOfSourceUrl(container: Container, sourceUrl: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(sourceUrl) ? sourceUrl : `https://${sourceUrl}`);
  } catch {
    throw new ValidationError('source_url must be a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError('source_url must be an http or https URL');
  const host = url.hostname.toLowerCase();
  const aiSuffix = `.${container.config.aiSiteDomain.toLowerCase()}`;
  if (host.endsWith(aiSuffix)) {
    const slug = host.slice(0, -aiSuffix.length);
    if (await container.businesses.get(slug)) return slug;
  }
  const routed = await container.distributions.findOrg(host);
  if (routed) return routed.orgSlug;
  const business = await container.businesses.findByDomain(storeDomain(url));
  if (business) return business.orgSlug;
  throw new NotFoundError(`no business serves ${host}`);
}
