/**
 * POST /api/validate-store: a store is supported when `/products.json` answers 200
 * (bot-protection proxies included); 403/404 mean a headless or non-store site.
 */
import * as z from 'zod/mini';
import { UpstreamError } from '../../core/errors';
import { parseStoreUrl } from '../../core/store/store-url';
import { endpoint } from '../../http/endpoint';
import { requiredText } from '../../http/schemas';
import { publicAuth } from '../../http/auth';

const body = z.object({ url: requiredText('url', 2048) });

export const handler = endpoint('POST /api/validate-store', { authenticator: publicAuth,
  body,
  response: z.object({ is_store: z.boolean(), message: z.string().check(z.describe('why, naming the host and the HTTP status of /products.json')) }),
}, async ({ body, container }) => {
  const origin = parseStoreUrl(body.url).origin;
  const host = new URL(origin).host;
  try {
    const res = await container.fetchUrl(`${origin}/products.json?limit=1`, { method: 'GET', headers: { accept: 'application/json' }, maxBytes: 2 * 1024 * 1024 });
    return { body: verdict(res.status, host) };
  } catch (err) {
    if (err instanceof UpstreamError) return { body: { is_store: false, message: `Could not check ${host}: ${err.message}` } };
    throw err;
  }
});

function verdict(status: number, host: string) {
  if (status === 200) return { is_store: true, message: `${host} is a supported store` };
  if (status === 403 || status === 404) {
    return { is_store: false, message: `${host} is not a supported store: /products.json answered HTTP ${status} (headless or non-store site)` };
  }
  return { is_store: false, message: `Could not confirm ${host}: /products.json answered HTTP ${status}; try again later` };
}
