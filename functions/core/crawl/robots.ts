/**
 * robots.txt per RFC 9309 (Robots Exclusion Protocol). Pure: parsing, group selection,
 * matching, and what an HTTP status means for crawling.
 *
 * - Groups start with one or more `user-agent:` lines and end at the next `user-agent:` line
 *   that follows a rule (or at the end of the file). Product tokens match case-insensitively.
 * - Every group naming our product token is used, their rules combined; only when none does,
 *   every `*` group is used (combined); with neither, nothing is disallowed. A named group
 *   never inherits the `*` group's rules.
 * - The most specific (longest pattern, in octets) matching rule wins; between an allow and a
 *   disallow of the same length, allow wins. `*` matches any sequence, a trailing `$` anchors
 *   the end, `#` starts a comment. `/robots.txt` is always allowed.
 * - Only the first 500 KiB are parsed (§2.5); `Sitemap:` records are collected wherever
 *   they appear (they belong to no group).
 */

/** RFC 9309 §2.5: parsers must handle at least 500 KiB; we stop there, as Google does. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

export interface RobotsRule {
  allow: boolean;
  /** Normalized pattern: percent-encoding upper-cased, non-ASCII percent-encoded. */
  pattern: string;
}

export interface RobotsGroup {
  /** Lower-cased product tokens, `*` for the catch-all group. */
  agents: string[];
  rules: RobotsRule[];
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  /** Absolute `Sitemap:` URLs in file order, de-duplicated. */
  sitemaps: string[];
}

/** Parses a robots.txt body (string or bytes); never throws. */
export function parseRobotsTxt(input: string | Buffer): RobotsTxt {
  const text = truncateToLimit(input);
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | null = null;
  let lastWasAgent = false;

  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase().replace(/[\s_]+/g, '-');
    const value = line.slice(colon + 1).trim();

    switch (key) {
      case 'user-agent':
      case 'useragent': {
        if (!current || !lastWasAgent) {
          current = { agents: [], rules: [] };
          groups.push(current);
        }
        const token = productToken(value);
        if (token) current.agents.push(token);
        lastWasAgent = true;
        break;
      }
      case 'allow':
      case 'disallow': {
        lastWasAgent = false;
        // Rules before any user-agent line belong to no group (§2.1); an empty value is no rule.
        if (!current || !value) break;
        current.rules.push({ allow: key === 'allow', pattern: normalizePattern(value) });
        break;
      }
      case 'sitemap':
      case 'site-map': {
        if (/^https?:\/\//i.test(value) && !sitemaps.includes(value)) sitemaps.push(value);
        break;
      }
      default:
        // Other records (crawl-delay, host, …) neither start nor end a group.
        break;
    }
  }
  return { groups, sitemaps };
}

/**
 * The product token of a user-agent string or a group's `user-agent:` value:
 * `AIVisibilityBot/1.0 (+https://…)` → `aivisibilitybot`; `*` stays `*`.
 */
export function productToken(userAgent: string): string {
  const trimmed = userAgent.trim();
  if (trimmed.startsWith('*')) return '*';
  const match = /^[a-z0-9_-]+/i.exec(trimmed);
  return match ? match[0].toLowerCase() : '';
}

/** The rules that apply to a crawler (combined groups, or the `*` groups, or none). */
export function rulesFor(robots: RobotsTxt, userAgent: string): RobotsRule[] {
  const token = productToken(userAgent);
  const named = robots.groups.filter((g) => token !== '' && token !== '*' && g.agents.includes(token));
  const chosen = named.length > 0 ? named : robots.groups.filter((g) => g.agents.includes('*'));
  return chosen.flatMap((g) => g.rules);
}

/** A compiled allow/deny decision for one crawler. */
export type RobotsMatcher = (url: string) => boolean;

/** Decision for one URL (absolute, or a path starting with `/`). */
export function isAllowed(robots: RobotsTxt, userAgent: string, url: string): boolean {
  return compileRules(rulesFor(robots, userAgent))(url);
}

/** Compiles a rule list once; the matcher is then called per URL. */
export function compileRules(rules: RobotsRule[]): RobotsMatcher {
  // Longest first; at equal length allow first, so the first match is the answer.
  const ordered = [...rules].sort((a, b) => patternLength(b.pattern) - patternLength(a.pattern) || Number(b.allow) - Number(a.allow));
  return (url: string) => {
    const path = pathOf(url);
    if (path === null) return false;
    if (path === '/robots.txt') return true;
    for (const rule of ordered) {
      if (matchesPattern(rule.pattern, path)) return rule.allow;
    }
    return true;
  };
}

/** What the robots.txt fetch result means for the crawl (§2.3.1). */
export type RobotsPolicy =
  | { kind: 'rules'; robots: RobotsTxt }
  | { kind: 'allow-all'; reason: string }
  | { kind: 'disallow-all'; reason: string };

/**
 * Status handling: 2xx obey the file; 4xx ("unavailable") allow everything; 5xx and network
 * errors ("unreachable", pass `null`) disallow everything. 429 is treated as unreachable
 * (it asks us to back off, and that is how Google reads it). A 3xx that reaches us here had
 * no usable Location (the fetcher follows redirects), so the file is unavailable.
 */
export function robotsPolicy(status: number | null, body?: string | Buffer): RobotsPolicy {
  if (status === null) return { kind: 'disallow-all', reason: 'robots.txt unreachable (network error)' };
  if (status >= 200 && status < 300) return { kind: 'rules', robots: parseRobotsTxt(body ?? '') };
  if (status === 429) return { kind: 'disallow-all', reason: 'robots.txt answered HTTP 429 (rate limited)' };
  if (status >= 500) return { kind: 'disallow-all', reason: `robots.txt answered HTTP ${status} (server error)` };
  if (status >= 300 && status < 500) return { kind: 'allow-all', reason: `robots.txt unavailable (HTTP ${status})` };
  return { kind: 'disallow-all', reason: `robots.txt answered unexpected HTTP ${status}` };
}

/** Matcher for a policy and a crawler. */
export function matcherFor(policy: RobotsPolicy, userAgent: string): RobotsMatcher {
  switch (policy.kind) {
    case 'rules':
      return compileRules(rulesFor(policy.robots, userAgent));
    case 'allow-all':
      return () => true;
    case 'disallow-all':
      return (url) => pathOf(url) === '/robots.txt';
  }
}

// ---------------------------------------------------------------------------------------

function truncateToLimit(input: string | Buffer): string {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (bytes.length <= ROBOTS_MAX_BYTES) return bytes.toString('utf8').replace(/^\uFEFF/, '');
  // Cut at the limit and drop the partial last line.
  const head = bytes.subarray(0, ROBOTS_MAX_BYTES).toString('utf8');
  const lastBreak = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r'));
  return (lastBreak >= 0 ? head.slice(0, lastBreak) : '').replace(/^\uFEFF/, '');
}

/** Percent-encodes non-ASCII, upper-cases existing escapes; `/` is prefixed when missing. */
function normalizePattern(value: string): string {
  let pattern = value.replace(/\s.*$/, ''); // a pattern has no whitespace; the rest is junk
  if (!pattern.startsWith('/') && !pattern.startsWith('*')) pattern = `/${pattern}`;
  return normalizeEncoding(pattern);
}

function normalizeEncoding(value: string): string {
  return value
    .replace(/[^\x00-\x7F]+/g, (chars) => encodeURIComponent(chars))
    .replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/** Specificity in octets; a trailing `$` counts as a character of the pattern, as Google does. */
function patternLength(pattern: string): number {
  return Buffer.byteLength(pattern, 'utf8');
}

/** Path plus query of a URL or a path; null when it cannot be parsed. */
function pathOf(url: string): string | null {
  if (url.startsWith('/')) return normalizeEncoding(url.replace(/#.*$/, ''));
  try {
    const parsed = new URL(url);
    return normalizeEncoding(parsed.pathname + parsed.search);
  } catch {
    return null;
  }
}

/**
 * Glob match from the start of the path: `*` is any sequence, a final `$` anchors the end,
 * otherwise the pattern is a prefix. Iterative with one backtrack point (no regex, so a
 * hostile file cannot trigger catastrophic backtracking): O(pattern × path) worst case.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  let anchored = false;
  let p = pattern;
  if (p.endsWith('$')) {
    anchored = true;
    p = p.slice(0, -1);
  }
  if (!anchored) p += '*';

  let pi = 0;
  let si = 0;
  let starP = -1;
  let starS = 0;
  while (si < path.length) {
    if (pi < p.length && p[pi] === '*') {
      starP = pi++;
      starS = si;
    } else if (pi < p.length && p[pi] === path[si]) {
      pi++;
      si++;
    } else if (starP >= 0) {
      pi = starP + 1;
      si = ++starS;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}
