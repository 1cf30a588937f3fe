/**
 * `/robots.txt` of the AI site (reference/web-protocols.md §4; spec rule 3).
 *
 * On the customer domain this file replaces the store's robots.txt, so the store's own
 * groups are kept (their Sitemap lines are dropped: the unified sitemap lists the store URLs).
 * The `*` group always allows the AI paths; it starts with `Allow: /` unless the store
 * disallows everything for `*` (then `Allow: /` would cancel that rule, since an equal allow
 * wins). Store groups for named crawlers are kept as they are: a named group does not inherit
 * `*`, and a store that blocks a crawler keeps blocking it. The only Sitemap line names
 * `<publicOrigin>/sitemap.xml`.
 */
import { CONTENT_TYPES } from './html';
import { SITE_PATHS, absoluteUrl } from './paths';
import type { DeployMetadata, SiteFile } from './types';

export interface RobotsGroup {
  userAgents: string[];
  /** `allow`/`disallow`/`crawl-delay` lines as `Field: value`, in order. */
  rules: string[];
}

const KEPT_RULES: Record<string, string> = { allow: 'Allow', disallow: 'Disallow', 'crawl-delay': 'Crawl-delay' };

/**
 * Groups of a robots.txt (RFC 9309): consecutive `user-agent` lines open a group, rules
 * follow. Comments, Sitemap lines, rules before any group and unknown records are dropped;
 * groups with the same user agent set are merged.
 */
export function parseRobotsGroups(text: string): RobotsGroup[] {
  const groups: RobotsGroup[] = [];
  let current: RobotsGroup | null = null;
  let lastWasAgent = false;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim().replace(/[\u0000-\u001f\u007f]/g, '');
    if (field === 'user-agent') {
      if (!value) continue;
      if (!current || !lastWasAgent) {
        current = { userAgents: [], rules: [] };
        groups.push(current);
      }
      if (!current.userAgents.some((ua) => ua.toLowerCase() === value.toLowerCase())) current.userAgents.push(value);
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    const name = KEPT_RULES[field];
    if (!name || !current) continue;
    if (field === 'allow' && value === '') continue;
    current.rules.push(`${name}: ${value}`);
  }
  // Merge groups naming the same agents (RFC 9309: matching groups combine).
  const merged = new Map<string, RobotsGroup>();
  for (const group of groups) {
    const key = group.userAgents.map((ua) => ua.toLowerCase()).sort().join('\n');
    const existing = merged.get(key);
    if (existing) existing.rules.push(...group.rules.filter((r) => !existing.rules.includes(r)));
    else merged.set(key, { userAgents: [...group.userAgents], rules: [...group.rules] });
  }
  return [...merged.values()];
}

/** Paths crawlers must always reach on the AI site. */
const AI_ALLOWS = ['Allow: /ai/', 'Allow: /llms.txt', 'Allow: /llms/', 'Allow: /sitemap.xml'];

/** The AI site's robots.txt; `storeRules` is the store's robots.txt text, when known. */
export function buildRobotsTxt(metadata: DeployMetadata, storeRules?: string): SiteFile {
  const groups = storeRules ? parseRobotsGroups(storeRules) : [];
  const isStar = (g: RobotsGroup) => g.userAgents.length === 1 && g.userAgents[0] === '*';
  const star = groups.find(isStar);
  const starHasAgentsMixed = groups.filter((g) => !isStar(g) && g.userAgents.includes('*'));
  const starRules = [...(star?.rules ?? []), ...starHasAgentsMixed.flatMap((g) => g.rules)];
  const disallowsEverything = starRules.some((r) => r === 'Disallow: /' || r === 'Disallow: /*');

  const lines: string[] = [
    `# robots.txt for ${metadata.businessName.replace(/[\r\n]+/g, ' ')}: the store's own rules, plus its AI-readable site.`,
    'User-agent: *',
    ...(disallowsEverything ? [] : ['Allow: /']),
    ...AI_ALLOWS,
  ];
  const seen = new Set(lines);
  for (const rule of starRules) {
    if (!seen.has(rule)) {
      lines.push(rule);
      seen.add(rule);
    }
  }
  for (const group of groups) {
    if (isStar(group)) continue;
    const agents = group.userAgents.filter((ua) => ua !== '*');
    if (agents.length === 0) continue;
    lines.push('', ...agents.map((ua) => `User-agent: ${ua}`));
    // A group without rules would merge with the next one's agents; say "no restriction" explicitly.
    lines.push(...(group.rules.length ? group.rules : ['Allow: /']));
  }
  lines.push('', `Sitemap: ${absoluteUrl(metadata.publicOrigin, SITE_PATHS.sitemap)}`);
  return { path: SITE_PATHS.robots, content: `${lines.join('\n')}\n`, contentType: CONTENT_TYPES.text };
}
