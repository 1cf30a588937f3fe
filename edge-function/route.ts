/**
 * Pure path routing of the edge function (D28): which origin serves a request URI on a
 * customer's domain. No I/O, no environment variables, no dependencies.
 *
 * AI-origin paths: `/ai/` and everything under it, `/llms.txt`, `/llms/` and everything
 * under it, `/robots.txt`, `/sitemap.xml`, `/indexing-key.txt`. Matching is case-sensitive
 * and exact-or-prefix-with-slash: `/ai` and `/ai/x` go to the AI origin, `/aiX`, `/AI/x`
 * and `/llms.txt.bak` go to the store. CloudFront hands the query string over separately,
 * so `uri` never contains one.
 */
export type OriginChoice = 'ai' | 'store';

/** Files served by the AI origin only at exactly this path. */
const EXACT_AI_PATHS: ReadonlySet<string> = new Set([
  '/llms.txt',
  '/robots.txt',
  '/sitemap.xml',
  '/indexing-key.txt',
]);

/** Directories whose bare name and everything under them go to the AI origin. */
const AI_PREFIXES: readonly string[] = ['/ai', '/llms'];

export function route(uri: string): OriginChoice {
  if (EXACT_AI_PATHS.has(uri)) return 'ai';
  for (const prefix of AI_PREFIXES) {
    if (uri === prefix || uri.startsWith(`${prefix}/`)) return 'ai';
  }
  return 'store';
}
