/**
 * `npm run openapi`: writes docs/openapi.json from the route manifest and its schemas.
 * `--check` writes nothing and fails when the file is out of date (npm run build runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiText } from '../functions/local/runtime/openapi-document';

const text = openApiText();
if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(OPENAPI_FILE, 'utf8'); } catch { /* missing: out of date */ }
  if (current !== text) {
    console.error(`${OPENAPI_FILE} is out of date: run npm run openapi`);
    process.exit(1);
  }
  console.log(`${OPENAPI_FILE} is up to date`);
} else {
  writeFileSync(OPENAPI_FILE, text);
  console.log(`wrote ${OPENAPI_FILE}`);
}
