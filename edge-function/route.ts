/**
 * Pure path routing of the edge function (D28): which origin serves a request URI on a
 * customer's domain. No I/O, no environment variables, no dependencies.
 *
 * AI-origin paths: `/ai/` and everything under it, `/llms.txt`, `/llms/` and everything
 * under it, `/robots.txt`, `/sitemap.xml`, `/indexing-key.txt`. Everything else goes to the
 * store. The rules, decided once and shared with the AI site's link scheme
 * (functions/core/site/paths.ts):
 * - Files match exactly: `/llms.txt.bak`, `/robots.txt/` and `/x/robots.txt` go to the store.
 * - Directories match their bare name too: `/ai` and `/llms` (no slash) go to the AI origin.
 *   Both names are reserved for the AI site, and the AI-site host answers `/ai` with its
 *   `/ai/index.html`, so `/ai` typed without the slash shows the AI home instead of a store 404.
 *   `/aiX`, `/ai-tools` and `/llmsX/...` are not under those directories: store.
 * - Case-sensitive: `/AI/x` and `/LLMS.TXT` go to the store (URL paths are case-sensitive;
 *   the AI site only has lowercase paths).
 * - No decoding: CloudFront passes the URI as the viewer sent it, and this function compares
 *   it as it is. `/%61i/x` (an encoded `a`) is not `/ai/x` and goes to the store. Any other
 *   reading would let two spellings of one URL reach two different origins depending on
 *   who normalizes first.
 * - The query string never matters: CloudFront hands it over separately (`querystring`),
 *   so `uri` never contains one.
 * - Never the User-Agent, nor any other header: bots and humans get the same content.
 */
export type OriginChoice = 'ai' | 'store';

/** Files served by the AI origin only at exactly this path. */
export const EXACT_AI_PATHS: ReadonlySet<string> = new Set([
  '/llms.txt',
  '/robots.txt',
  '/sitemap.xml',
  '/indexing-key.txt',
]);

/** Directories whose bare name and everything under them go to the AI origin. */
export const AI_PREFIXES: readonly string[] = ['/ai', '/llms'];

export function route(uri: string): OriginChoice {
  if (EXACT_AI_PATHS.has(uri)) return 'ai';
  for (const prefix of AI_PREFIXES) {
    if (uri === prefix || uri.startsWith(`${prefix}/`)) return 'ai';
  }
  return 'store';
}
