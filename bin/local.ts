/**
 * `npm start`: the whole service on this machine, no AWS account, no internet.
 * Ports and settings: ../shared/LOCAL_RUNTIME.md and the README.
 */
import { resolve } from 'node:path';
import { startLocalStack, DEV_API_KEY } from '../functions/local/runtime';

async function main() {
  const env = process.env;
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const stack = await startLocalStack({
    dataDir,
    port: Number(env.PORT ?? 8080),
    sitesPort: Number(env.SITES_PORT ?? 8081),
  });
  const token = await stack.idp.mint({ orgId: 'demo-store' });
  const apiUrl = stack.api.url;

  console.log(`
AI visibility service: local stack is up
  API            ${apiUrl}            (GET ${apiUrl}/health)
  AI-site host   ${stack.sites.url.replace('{slug}', '<org-slug>')}
  data           ${dataDir}

Dev credentials (never valid on AWS)
  X-API-Key      ${stack.config.apiKey === DEV_API_KEY ? DEV_API_KEY : '(from API_KEY)'}
  Bearer token   for org "demo-store", valid 1 h; mint more with: npm run mint-token -- <org-slug>
${token}

Try:
  curl ${apiUrl}/health
  curl -X POST ${apiUrl}/api/business -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"name":"Demo Store","url":"demo.example"}'

Ctrl-C stops everything.`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping...');
    await stack.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
