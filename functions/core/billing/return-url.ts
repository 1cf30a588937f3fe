/**
 * The billing portal's `return_url` (spec: body `{return_url}` required): where the payment
 * provider sends the user back. It must be an absolute http(s) URL with a host, written out
 * in full (`https://...`, not a scheme-relative or `https:host` form the URL parser would
 * complete), without credentials, whitespace or control characters, at most 2,048
 * characters. Any host is allowed: the session URL goes back only to the caller who asked.
 */
export const RETURN_URL_MAX_LENGTH = 2048;

/** The normalized URL (`URL.href`), or null when `value` is not an acceptable return URL. */
export function parseReturnUrl(value: string): string | null {
  if (value.length === 0 || value.length > RETURN_URL_MAX_LENGTH) return null;
  if (!/^https?:\/\/[^/]/i.test(value) || /[\s\x00-\x1f\x7f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) return null;
  return url.href;
}
