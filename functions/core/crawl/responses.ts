/**
 * What a fetched response is: a real page, or a bot challenge / block / password page that
 * must never be hashed or read as content (web-protocols.md §5). No HTML parser here, so
 * code that must stay small (the competitor reader) can use it too.
 */
export interface ResponseLike {
  status: number;
  /** Final URL after redirects (when known: a landing on /password is a block). */
  url?: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Optional body (only its head is looked at). */
  body?: string | Buffer;
}

/** Statuses that mean "the store refused us", not "the page is gone". */
const BLOCKING_STATUSES: Record<number, string> = {
  403: 'HTTP 403 (forbidden: bot protection or access denied)',
  429: 'HTTP 429 (rate limited)',
  430: 'HTTP 430 (security rejection)',
  503: 'HTTP 503 (service unavailable or bot protection)',
};

/**
 * The reason a response is a bot challenge, a block, or a password page, or null when it
 * is a real answer from the store (web-protocols.md §5): `cf-mitigated: challenge` on any
 * status, 403/429/430/503, a landing on `/password`, or a "Just a moment…" challenge body.
 */
export function blockedReason(response: ResponseLike): string | null {
  if ((response.headers['cf-mitigated'] ?? '').toLowerCase().includes('challenge')) {
    return `bot challenge (HTTP ${response.status}, cf-mitigated: challenge)`;
  }
  const byStatus = BLOCKING_STATUSES[response.status];
  if (byStatus) return byStatus;
  try {
    if (response.url && /^\/password\/?$/i.test(new URL(response.url).pathname)) return 'store is password-protected (redirected to /password)';
  } catch {
    // no usable URL: nothing to say about it
  }
  if (response.body !== undefined) {
    const head = (typeof response.body === 'string' ? response.body.slice(0, 8192) : response.body.subarray(0, 8192).toString('utf8'));
    if (/<title>\s*(?:Just a moment\.\.\.|Attention Required! \| Cloudflare)\s*<\/title>/i.test(head) || /\/cdn-cgi\/challenge-platform\//i.test(head)) {
      return `bot challenge page (HTTP ${response.status})`;
    }
  }
  return null;
}

/** True for an HTML content type (a missing content type is not HTML). */
export function isHtmlContentType(contentType: string | undefined): boolean {
  return /^\s*(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType ?? '');
}
