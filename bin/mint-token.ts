/**
 * `npm run mint-token -- <org-slug> [--expires-in <seconds>]`: a bearer token from the
 * local dev identity provider (the key under DATA_DIR that `npm start` serves as JWKS).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDataDir } from '../functions/local/runtime/data-dir';
import { loadDevIdp } from '../functions/local/fakes/idp-tokens';

async function main() {
  const args = process.argv.slice(2);
  const org = args.find((a) => !a.startsWith('--')) ?? 'demo-store';
  const i = args.indexOf('--expires-in');
  const expiresInSeconds = i >= 0 ? Number(args[i + 1]) : 3600;
  const dataDir = resolveDataDir();
  const keyFile = join(dataDir, 'dev-idp', 'signing-key.json');
  if (!existsSync(keyFile)) {
    console.error(`no dev identity-provider key in ${dataDir} (looked for ${keyFile}).\n`
      + `Start the stack once with the same DATA_DIR (npm start${process.env.DATA_DIR ? ` with DATA_DIR=${process.env.DATA_DIR}` : ''}); its banner also prints a ready token.`);
    process.exit(1);
  }
  const idp = await loadDevIdp(keyFile);
  process.stdout.write((await idp.mint({ orgId: org, expiresInSeconds })) + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
