/**
 * The ACME account key as a file (the local stand-in for its Secrets Manager secret):
 * `<dir>/acme-account-key.pem`, readable by its owner only, written atomically.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccountKeyStore } from '../../core/domain/certificate';

export const ACCOUNT_KEY_FILE = 'acme-account-key.pem';

export function createFsAccountKeyStore(dir: string): AccountKeyStore {
  const file = join(dir, ACCOUNT_KEY_FILE);
  return {
    async get() {
      try {
        const pem = await readFile(file, 'utf8');
        return pem.includes('PRIVATE KEY-----') ? pem : null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async put(pem) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, pem, { mode: 0o600 });
      await chmod(tmp, 0o600); // the umask cannot widen it
      await rename(tmp, file); // readers never see half a key
    },
  };
}
