/** Store URL rules: what a user may type (a bare domain or a full URL) and how it is normalized. */
import { ValidationError } from '../errors';

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * `shop.example.com`, `https://shop.example.com/collections/x` → `https://shop.example.com`.
 * A bare domain gets https; an explicit http:// is kept (local stores).
 */
export function parseStoreUrl(input: string, field = 'url'): URL {
  const text = input.trim();
  if (!text) throw new ValidationError(`${field} is required`);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ValidationError(`${field} is not a valid domain or URL: ${text}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError(`${field} must use http or https`);
  if (url.username || url.password) throw new ValidationError(`${field} must not contain credentials`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!HOSTNAME.test(host) && !/^[\d.]+$/.test(host) && !host.includes(':')) {
    throw new ValidationError(`${field} has an invalid host name: ${url.hostname}`);
  }
  return new URL(`${url.protocol}//${url.host}`);
}

/** The domain a store is known by: lowercase host without `www.` and without port. */
export function storeDomain(url: URL): string {
  return url.hostname.toLowerCase().replace(/^www\./, '');
}
