/**
 * `npm start`: the whole service on this machine, no AWS account, no internet.
 * Ports and settings: ../shared/LOCAL_RUNTIME.md, docs/local-runtime.md and docs/settings.md.
 */
import { startDemoStore, type DemoStore } from '../functions/local/demo-store';
import { DEMO_ORG, onboardDemoStore } from '../functions/local/demo-store/onboarding';
import { resolveDataDir } from '../functions/local/runtime/data-dir';
import { startLocalStack, DEV_API_KEY } from '../functions/local/runtime';
import { startDemoPlatforms, type PlatformFakes } from '../functions/local/fakes/platforms';
import { getContainer } from '../functions/container';

async function main() {
  // A line per request would drown the progress display; LOG_LEVEL=info shows them (readable text, LOG_FORMAT).
  process.env.LOG_LEVEL ??= 'warn';
  const env = process.env;
  const dataDir = resolveDataDir(env);
  // Opt-in: the 8 AI platforms as local fakes (real vendor wire formats, made-up answers), so
  // the visibility checks can be tried without vendor accounts. Set before the stack reads its config.
  // Their answers name and cite the demo store's products once it is onboarded (the per-product funnel).
  let demoProducts: Array<{ name: string; url: string }> = [];
  const platforms: PlatformFakes | undefined = env.DEMO_PLATFORMS === '1' ? await startDemoPlatforms(env, undefined, () => demoProducts) : undefined;
  const stack = await startLocalStack({
    dataDir,
    port: Number(env.PORT ?? 8080),
    sitesPort: Number(env.SITES_PORT ?? 8081),
    proxyPort: Number(env.PROXY_PORT ?? 8082),
    dailyTimer: true,
  });
  const apiUrl = stack.api.url;
  const sitesUrl = (slug: string) => stack.sites.url.replace('{slug}', slug);
  const demoToken = await stack.idp.mint({ orgId: DEMO_ORG, expiresInSeconds: 24 * 3600 });
  let demo: DemoStore | undefined;
  let cdnHost: string | null = null;

  console.log(`
AI visibility service: local stack is up
  API            ${apiUrl}            (GET ${apiUrl}/health)
  AI-site host   ${sitesUrl('<org-slug>')}
  CDN proxy      ${stack.proxy.url}   (Host: a distribution's domain runs through the edge function)
  data           ${dataDir}
  AI platforms   ${platforms ? '8 local DEMO FAKES (DEMO_PLATFORMS=1): not real AI platforms, their answers are invented for trying the flow' : 'PLATFORM_<n>_* settings (none set: visibility checks are skipped with the reason; DEMO_PLATFORMS=1 starts local fakes)'}
  daily schedule ${stack.dailyRunAt ? `next run ${stack.dailyRunAt.toISOString()} (14:00 UTC; SCHEDULE_ENABLED=0 turns it off); now: POST ${apiUrl}/api/cron/trigger-all` : 'off (SCHEDULE_ENABLED=0)'}

Dev credentials (never valid on AWS)
  X-API-Key      ${stack.config.apiKey === DEV_API_KEY ? DEV_API_KEY : '(from API_KEY)'}
  Bearer token   npm run mint-token -- <org-slug>     (org "${DEMO_ORG}" below)
${demoToken}
`);

  if (env.DEMO !== '0') {
    // A fixed port: the demo business keeps its store URL (and its distribution's origin) across restarts.
    demo = await startDemoStore({ port: Number(env.DEMO_STORE_PORT ?? 8083), adminPort: Number(env.DEMO_STORE_ADMIN_PORT ?? 8084), size: env.DEMO_STORE_SIZE ? Number(env.DEMO_STORE_SIZE) : undefined });
    console.log(`Demo store       ${demo.origin}  (${demo.stats.products} products, ${demo.stats.totalPages} pages)\nDemo store admin ${demo.adminUrl}  (GET /state, POST /products, PATCH|DELETE /products/<handle>, PUT|DELETE /pages/<handle>, POST /reset)\nOnboarding the demo store:`);
    const started = Date.now();
    try {
      const report = await onboardDemoStore(stack, demo.origin, 'Harbor & Pine Coffee Co.', (line) => console.log(`  ${line}`));
      cdnHost = report.distributionUrl ? new URL(report.distributionUrl).host : null;
      const store = demo.origin;
      demoProducts = (await getContainer().products.list(DEMO_ORG)).map((p) => ({ name: p.name, url: `${store}/products/${p.productId}` }));
      const skipped = report.steps.filter((s) => s.status === 'skipped' || s.status === 'failed');
      console.log(`
Onboarding ${report.status} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${report.products} products, ${report.prompts} prompts
  AI site        ${report.aiSiteUrl ?? '(not deployed)'}/   (llms.txt, sitemap.xml, /ai/...)
  distribution   ${report.distributionUrl ?? '(none)'}/   (the customer-domain view: /ai/*, /llms.txt, /robots.txt ... from the AI site, the rest from the store)
${skipped.map((s) => `  ${s.id} ${s.status}: ${s.reason}`).join('\n')}
  curl -s ${apiUrl}/api/ai-website/${DEMO_ORG}
  (*.localhost resolves to 127.0.0.1 in browsers and curl; elsewhere send the Host header)`);
    } catch (err) {
      console.error(`  onboarding the demo store failed: ${(err as Error).message}`);
    }
  }
  // The README's "Trying it" commands (and docs/local-runtime.md's) use these variables.
  console.log(`
Paste into a shell to try it (README: Trying it):
  export API=${apiUrl} SITES_PORT=${stack.sites.port} PROXY=http://127.0.0.1:${stack.proxy.port} KEY=${stack.config.apiKey === DEV_API_KEY ? DEV_API_KEY : '<your API_KEY>'}
  export TOKEN=${demoToken}${cdnHost ? `\n  export CDN_HOST=${cdnHost}` : ''}${demo ? `\n  export DEMO_ADMIN=${demo.adminUrl}` : ''}`);
  console.log('\nCtrl-C (or SIGTERM) stops everything.');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping...');
    await demo?.close();
    await stack.close();
    await platforms?.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
