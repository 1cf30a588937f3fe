import { isAbsolute, resolve } from 'node:path';

/**
 * Where `npm start` keeps its database, sites and dev identity-provider key, and where
 * `npm run mint-token` looks for that key: one rule for both. A relative DATA_DIR is taken
 * from the directory the command was typed in (npm's INIT_CWD), not the package root.
 */
export function resolveDataDir(env: Record<string, string | undefined> = process.env): string {
  const dir = env.DATA_DIR || '.data';
  return isAbsolute(dir) ? dir : resolve(env.INIT_CWD ?? process.cwd(), dir);
}
