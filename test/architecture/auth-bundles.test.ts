/**
 * A route's bundle carries the verifier of its own auth class only (http/auth/*), so jose is in
 * JWT routes and svix in webhook routes only, unless the route itself uses one (the webmaster
 * client signs service-account tokens with jose). Bundled as the CDK app does.
 */
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { ROUTES, routeKey } from '../../functions/routes';

const ROOT = join(__dirname, '..', '..');
const VERIFIERS = { KEY: 'key.ts', JWT: 'jwt.ts', WEBHOOK: 'webhook.ts' } as const;

function inputsOf(handler: string): string[] {
  const result = buildSync({
    entryPoints: [join(ROOT, 'functions', `${handler}.ts`)], bundle: true, platform: 'node', target: 'node22', format: 'cjs',
    external: ['@aws-sdk/*', '@aws-lambda-powertools/*'], write: false, metafile: true, logLevel: 'silent', outdir: '/tmp/auth-bundles',
  });
  // What the output holds (the metafile's inputs also list modules tree shaking dropped).
  const [output] = Object.values(result.metafile!.outputs);
  return Object.entries(output!.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([path]) => path);
}

test('every route bundles the verifier of its own auth class and no other', () => {
  for (const handler of new Set(ROUTES.map((r) => r.handler))) {
    const route = ROUTES.find((r) => r.handler === handler)!;
    const verifiers = inputsOf(handler).filter((p) => p.startsWith('functions/http/auth/') && !p.endsWith('index.ts')).map((p) => p.split('/').pop());
    expect({ route: routeKey(route), verifiers }).toEqual({ route: routeKey(route), verifiers: route.auth === 'PUBLIC' ? [] : [VERIFIERS[route.auth]] });
  }
}, 120_000);

test('a KEY route that signs nothing carries neither jose nor svix', () => {
  const packages = inputsOf('api/cron/create-ai-article').filter((p) => /node_modules\/(jose|svix)\//.test(p));
  expect(packages).toEqual([]);
});
