/**
 * IndexNow submissions, pure (the protocol: https://www.indexnow.org/documentation;
 * ../shared/reference/web-protocols.md §1).
 *
 * Protocol rules applied by `buildIndexNowSubmissions`:
 * - one submission is `POST` JSON `{host, key, keyLocation, urlList}`;
 * - at most 10,000 URLs per submission (more URLs: more submissions, same host and key);
 * - one host per submission: every URL must be on `host` (a subdomain, `www` against the
 *   naked domain, is another host). URLs of another host are refused and reported, never sent;
 * - URLs are absolute `http:`/`https:` (a batch may mix both), without credentials; fragments
 *   are dropped, and URLs are de-duplicated after parsing (first occurrence kept);
 * - the key is 8-128 characters of `a-z A-Z 0-9 -`; `keyLocation` is a URL on the same host,
 *   and a key file in a sub-directory only validates URLs under that directory, so URLs
 *   outside it are refused too.
 *
 * Which URLs, in which form (`indexNowUrls`, D28: "search-engine submissions use the URL form
 * that resolves on the host submitted"):
 * - The submission host is the customer domain when one serves the site (`publicOrigin` set
 *   and not the AI-site host), else the AI-site host (`{slug}.{AI_SITE_DOMAIN}`). Never both:
 *   the key file only proves ownership of the host it is served on, and one submission per
 *   business per run goes to one host.
 * - Key location: on a customer domain only the routed paths reach the AI site, and
 *   `/<key>.txt` is not one of them (it would go to the store), so the key is proven with the
 *   routed `/indexing-key.txt` (same content, exactly the key). On the AI-site host the
 *   protocol's own location `/<key>.txt` is used.
 * - AI articles (`articlePaths`; root `/{slug}/` files on the AI host): on a customer domain
 *   their routed form `/ai/{slug}/`; on the AI-site host `/{slug}/`, where the file is (the
 *   AWS AI-site router has no `/ai/` fallback, so the root form is the one that resolves
 *   everywhere). Accepted inputs: `slug`, `/slug/`, `/slug`, `/slug/index.html`, `/ai/slug/`.
 * - Other AI-site paths (`aiPaths`: file or URL paths where the file lives on the AI host,
 *   e.g. `/llms.txt`, `/llms/x.txt`, `/ai/products/x/index.html`): on a customer domain their
 *   routed form (`aiHref`: `/llms.txt`, `/llms/*`, `/ai/...` stay, anything else gets `/ai`
 *   in front); on the AI-site host their own path (directory form for `index.html`).
 * - Changed store URLs from batch 1a (`changedUrls`: added, changed and removed store pages;
 *   removed ones too, the engines then see their 404/410):
 *   - with a customer domain, the store is served on that same host through the CDN, and the
 *     key file is there (`/indexing-key.txt`), so a store URL whose host is exactly the
 *     customer domain's host is included as it is; a root-relative store path is put on the
 *     customer domain. A store URL on another host (the naked domain against `www`, the
 *     platform's own `*.myshopify.com` host...) is excluded, never rewritten across hosts; a
 *     store URL whose path the CDN routes to the AI site (`/llms.txt`, `/robots.txt`,
 *     `/sitemap.xml`, `/ai/...`) is excluded too: on that host it is not the store's page;
 *   - without a customer domain, store URLs are on the store's host, which is not the host the
 *     AI site's key proves: they are excluded (submitted under the AI host's key they would
 *     be refused, 422; as their own host, the key file is not there, 403).
 *   Every exclusion is reported with its reason.
 */
import { isIP } from 'node:net';
import { ValidationError } from '../errors';
import { SITE_PATHS, aiHref, isRoutedPath, stripQueryAndHash, urlPathOfFile } from '../site/paths';
import { classifyAddress } from '../net/address-policy';

/** The protocol's limit of URLs in one submission. */
export const INDEXNOW_MAX_URLS_PER_SUBMISSION = 10_000;
/** 8 to 128 characters of a-z, A-Z, 0-9 and `-`. */
const INDEXNOW_KEY_PATTERN = /^[A-Za-z0-9-]{8,128}$/;

/** The JSON body of one IndexNow POST. */
export interface IndexNowSubmission {
  host: string;
  key: string;
  keyLocation: string;
  urlList: string[];
}

/** A URL left out, and why. */
export interface ExcludedUrl {
  url: string;
  reason: string;
}

export interface IndexNowBatches {
  /** In input order; each at most `maxUrlsPerSubmission` URLs, all on `host`. Empty when no URL is left. */
  submissions: IndexNowSubmission[];
  /** URLs that may not be sent (another host, not absolute http(s), outside the key file's directory...). */
  refused: ExcludedUrl[];
  /** Repeated URLs dropped (after parsing). */
  duplicates: number;
}

export function isValidIndexNowKey(key: string): boolean {
  return INDEXNOW_KEY_PATTERN.test(key);
}

/** The submission host as IndexNow wants it: a host name (optionally `:port`), no scheme, no path. Throws when it is not one. */
export function normalizeIndexNowHost(host: string): string {
  const text = host.trim();
  if (!text || /[\s/\\@?#]/.test(text) || text.includes('://')) {
    throw new ValidationError(`IndexNow host must be a host name without scheme or path, got ${JSON.stringify(host)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(`http://${text}`);
  } catch {
    throw new ValidationError(`IndexNow host must be a host name without scheme or path, got ${JSON.stringify(host)}`);
  }
  if (!parsed.hostname) throw new ValidationError(`IndexNow host must be a host name, got ${JSON.stringify(host)}`);
  return parsed.host;
}

/** True when `url` is on `host` (the host name; also the port when `host` names one). */
export function urlBelongsToHost(url: URL, host: string): boolean {
  const expected = new URL(`http://${host}`);
  if (url.hostname !== expected.hostname) return false;
  return expected.port === '' || url.port === expected.port;
}

/** The directory a key file validates: `/a/b/key.txt` → `/a/b/`. */
function keyDirectory(keyLocation: URL): string {
  return keyLocation.pathname.slice(0, keyLocation.pathname.lastIndexOf('/') + 1) || '/';
}

/** Parses a URL to submit: absolute http(s), no credentials, fragment dropped. A string reason when it is not one. */
function parseSubmittableUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `not an http(s) URL (${url.protocol})`;
  if (url.username || url.password) return 'carries credentials';
  url.hash = '';
  return url;
}

/**
 * Splits URLs into IndexNow submissions for one host and key. Throws a ValidationError when
 * the key, host or key location make any submission impossible; individual URLs that may
 * not be sent are returned in `refused` instead.
 */
export function buildIndexNowSubmissions(input: {
  host: string;
  key: string;
  keyLocation: string;
  urls: readonly string[];
  /** Default (and maximum) 10,000. */
  maxUrlsPerSubmission?: number;
}): IndexNowBatches {
  const { key } = input;
  if (!isValidIndexNowKey(key)) throw new ValidationError('IndexNow key must be 8-128 characters of a-z, A-Z, 0-9 and -');
  const host = normalizeIndexNowHost(input.host);
  const keyLocation = parseSubmittableUrl(input.keyLocation);
  if (typeof keyLocation === 'string') throw new ValidationError(`IndexNow keyLocation is ${keyLocation}: ${JSON.stringify(input.keyLocation)}`);
  if (!urlBelongsToHost(keyLocation, host)) throw new ValidationError(`IndexNow keyLocation ${keyLocation.href} is not on the host ${host}`);
  const limit = Math.min(INDEXNOW_MAX_URLS_PER_SUBMISSION, Math.max(1, Math.floor(input.maxUrlsPerSubmission ?? INDEXNOW_MAX_URLS_PER_SUBMISSION)));
  const directory = keyDirectory(keyLocation);

  const seen = new Set<string>();
  const accepted: string[] = [];
  const refused: ExcludedUrl[] = [];
  let duplicates = 0;
  for (const raw of input.urls) {
    const url = parseSubmittableUrl(raw);
    if (typeof url === 'string') {
      refused.push({ url: raw, reason: url });
      continue;
    }
    if (!urlBelongsToHost(url, host)) {
      refused.push({ url: raw, reason: `on another host (${url.host}); this submission is for ${host}` });
      continue;
    }
    if (!url.pathname.startsWith(directory)) {
      refused.push({ url: raw, reason: `outside ${directory}, the directory of the key file that validates this submission` });
      continue;
    }
    if (seen.has(url.href)) {
      duplicates++;
      continue;
    }
    seen.add(url.href);
    accepted.push(url.href);
  }

  const submissions: IndexNowSubmission[] = [];
  for (let i = 0; i < accepted.length; i += limit) {
    submissions.push({ host, key, keyLocation: keyLocation.href, urlList: accepted.slice(i, i + limit) });
  }
  return { submissions, refused, duplicates };
}

/** Where the key is proven on `origin` (see the module header): `/indexing-key.txt` on a customer domain, `/<key>.txt` on the AI-site host. */
export function indexNowKeyLocation(input: { origin: string; key: string; customerDomain: boolean }): string {
  const path = input.customerDomain ? SITE_PATHS.indexingKey : SITE_PATHS.indexNowKey(input.key);
  return `${trimOrigin(input.origin)}${path}`;
}

export interface IndexNowUrlInput {
  /** Changed store URLs from batch 1a (absolute; root-relative paths are store paths). */
  changedUrls?: readonly string[];
  /** New AI article paths from batch 2a (`slug`, `/slug/`, `/slug/index.html`, `/ai/slug/`...). */
  articlePaths?: readonly string[];
  /** Other changed AI-site paths, as they are on the AI-site host (file or URL paths). */
  aiPaths?: readonly string[];
  /** The customer domain's origin once one serves the site; unset (or the AI host itself): none. */
  publicOrigin?: string | null;
  /** The AI-site host's origin (`{scheme}://{slug}.{AI_SITE_DOMAIN}{port}`). */
  aiSiteOrigin: string;
}

export interface IndexNowUrlPlan {
  /** The origin every URL is on: the customer domain when it serves the site, else the AI-site host. */
  origin: string;
  /** The submission's `host`. */
  host: string;
  /** True when `origin` is the customer domain. */
  customerDomain: boolean;
  /** Absolute URLs to submit, de-duplicated, in input order (articles, AI paths, store URLs). */
  urls: string[];
  /** Inputs left out, with the reason. */
  excluded: ExcludedUrl[];
}

/** The URLs of one business's IndexNow submission and the host they are on (rules in the module header). */
export function indexNowUrls(input: IndexNowUrlInput): IndexNowUrlPlan {
  const aiOrigin = parseOrigin(input.aiSiteOrigin, 'aiSiteOrigin');
  const publicOrigin = input.publicOrigin ? parseOrigin(input.publicOrigin, 'publicOrigin') : undefined;
  const customerDomain = Boolean(publicOrigin && publicOrigin.host !== aiOrigin.host);
  const origin = customerDomain ? publicOrigin! : aiOrigin;
  const base = origin.origin;
  const urls: string[] = [];
  const seen = new Set<string>();
  const excluded: ExcludedUrl[] = [];
  const add = (path: string) => {
    const href = new URL(path, `${base}/`).href;
    if (!seen.has(href)) {
      seen.add(href);
      urls.push(href);
    }
  };

  for (const raw of input.articlePaths ?? []) {
    const slug = articleSlug(raw);
    if (!slug) {
      excluded.push({ url: raw, reason: 'not an article path (AI articles live at /<slug>/ on the AI-site host)' });
      continue;
    }
    add(customerDomain ? aiHref(`/${slug}/`) : `/${slug}/`);
  }

  for (const raw of input.aiPaths ?? []) {
    const path = stripQueryAndHash(raw.trim());
    if (!path.startsWith('/') || path.startsWith('//')) {
      excluded.push({ url: raw, reason: 'not a root-relative AI-site path' });
      continue;
    }
    const urlPath = urlPathOfFile(path);
    add(customerDomain ? aiHref(urlPath) : urlPath);
  }

  for (const raw of input.changedUrls ?? []) {
    const text = raw.trim();
    if (text.startsWith('/') && !text.startsWith('//')) {
      if (!customerDomain) {
        excluded.push({ url: raw, reason: 'a store path: without a customer domain the store is on another host than the AI site' });
      } else if (isRoutedPath(text)) {
        excluded.push({ url: raw, reason: 'the CDN routes this path to the AI site on the customer domain (D28); it is not the store page there' });
      } else {
        add(text);
      }
      continue;
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      excluded.push({ url: raw, reason: 'not an absolute URL' });
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      excluded.push({ url: raw, reason: `not an http(s) URL (${url.protocol})` });
      continue;
    }
    if (!customerDomain) {
      excluded.push({ url: raw, reason: `a store URL on ${url.host}: without a customer domain only the AI-site host (${origin.host}) is submitted under the site's key` });
      continue;
    }
    if (url.host !== origin.host) {
      excluded.push({ url: raw, reason: `a store URL on ${url.host}, not the customer domain ${origin.host} (another host for IndexNow)` });
      continue;
    }
    if (isRoutedPath(url.pathname)) {
      excluded.push({ url: raw, reason: 'the CDN routes this path to the AI site on the customer domain (D28); it is not the store page there' });
      continue;
    }
    url.hash = '';
    if (!seen.has(url.href)) {
      seen.add(url.href);
      urls.push(url.href);
    }
  }

  return { origin: base, host: origin.host, customerDomain, urls, excluded };
}

/** `indexNowUrls` then `buildIndexNowSubmissions` with the key location of that host: everything one business's run sends. */
export function planIndexNowSubmissions(input: IndexNowUrlInput & { key: string; maxUrlsPerSubmission?: number }): IndexNowUrlPlan & IndexNowBatches & { keyLocation: string } {
  const plan = indexNowUrls(input);
  const keyLocation = indexNowKeyLocation({ origin: plan.origin, key: input.key, customerDomain: plan.customerDomain });
  const batches = buildIndexNowSubmissions({ host: plan.host, key: input.key, keyLocation, urls: plan.urls, maxUrlsPerSubmission: input.maxUrlsPerSubmission });
  return { ...plan, ...batches, keyLocation };
}

/** The slug of an AI article path, or null when it is not one. */
function articleSlug(raw: string): string | null {
  let path = raw.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return null;
    }
  }
  path = stripQueryAndHash(path).replace(/\/index\.html$/, '/');
  let segments = path.split('/').filter(Boolean);
  if (segments.length === 2 && segments[0] === 'ai') segments = segments.slice(1);
  if (segments.length !== 1) return null;
  const slug = segments[0]!;
  return /^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(slug) && slug !== 'ai' ? slug : null;
}

function parseOrigin(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ValidationError(`${name} must be an absolute http(s) origin, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError(`${name} must be an http(s) origin, got ${JSON.stringify(value)}`);
  return url;
}

function trimOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '');
}

/** Top-level names that never resolve on the public internet (RFC 2606, 6761, 6762, 8375). */
const NON_PUBLIC_TLDS = new Set(['localhost', 'test', 'example', 'invalid', 'local', 'internal', 'lan', 'home', 'arpa']);

/**
 * Whether search engines could fetch URLs on this host: a public name (not `localhost`, not a
 * reserved top-level domain) or a public IP. A public engine is never sent a local site's
 * URLs: it could not fetch the key file, and the submission would only leak local names.
 */
export function isPubliclyReachableHost(host: string): boolean {
  const name = normalizeIndexNowHost(host).replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  if (isIP(name)) return classifyAddress(name).kind === 'public';
  const labels = name.split('.');
  return labels.length > 1 && !NON_PUBLIC_TLDS.has(labels[labels.length - 1]!);
}

