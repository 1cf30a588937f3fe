/**
 * The files Shopify serves for AI agents on every storefront, in the shape of its defaults:
 * `/agents.md` (instructions to shopping agents), `/llms.txt` and `/llms-full.txt` (the same
 * text by default) and the Universal Commerce Protocol profile at `/.well-known/ucp`. The AI
 * site links them (D114/D115). `/sitemap_agentic_discovery.xml` is not served (404), as on
 * stores that have not enabled it.
 */
import { BRAND } from './content';
import type { Catalogue } from './catalogue';

export interface AgentFileReply {
  status: number;
  body: string;
  contentType: string;
}

function agentInstructions(catalogue: Catalogue, origin: string): string {
  return [
    `# ${catalogue.storeName}`,
    '',
    `> ${BRAND.tagline}`,
    '',
    '## Agent Instructions',
    '',
    `- Browse the catalogue at ${origin}/collections/all; product data is at ${origin}/products.json.`,
    `- Search products at ${origin}/search?q=<query>.`,
    `- Commerce capabilities are described by the UCP profile at ${origin}/.well-known/ucp.`,
    `- Prices are in ${BRAND.currency}. Contact: ${BRAND.email}, ${BRAND.phone}.`,
    '',
  ].join('\n');
}

function ucpProfile(origin: string) {
  return {
    ucp: {
      version: '2026-04-08',
      services: { 'dev.ucp.shopping': { version: '2026-04-08', spec: 'https://ucp.dev/specification/overview', mcp: { endpoint: `${origin}/api/ucp/mcp` } } },
      capabilities: [{ name: 'dev.ucp.shopping.checkout', version: '2026-04-08' }],
    },
  };
}

/** The reply for an agent-file path, or null when `path` is none of them. */
export function agentFile(catalogue: Catalogue, origin: string, path: string): AgentFileReply | null {
  if (path === '/agents.md') return { status: 200, body: agentInstructions(catalogue, origin), contentType: 'text/markdown; charset=utf-8' };
  if (path === '/llms.txt' || path === '/llms-full.txt') return { status: 200, body: agentInstructions(catalogue, origin), contentType: 'text/plain; charset=utf-8' };
  if (path === '/.well-known/ucp') return { status: 200, body: JSON.stringify(ucpProfile(origin)), contentType: 'application/json; charset=utf-8' };
  return null;
}
