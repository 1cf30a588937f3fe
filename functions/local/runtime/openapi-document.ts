/**
 * The OpenAPI document of this service: every route of the manifest with the schemas its
 * handler module validates. Loads every route module (so: build time, tests and the local
 * runtime, never a Lambda). `npm run openapi` writes it to docs/openapi.json; the local API
 * serves it at GET /openapi.json.
 */
import { join } from 'node:path';
import { contractOf } from '../../http/endpoint';
import { buildOpenApi } from '../../http/openapi';
import { ROUTES, type RouteDef } from '../../routes';

export const OPENAPI_FILE = join(__dirname, '..', '..', '..', 'docs', 'openapi.json');

export function openApiDocument(routes: readonly RouteDef[] = ROUTES): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('../../../package.json') as { version: string };
  return buildOpenApi(routes, (route) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(join(__dirname, '..', '..', route.handler)) as { handler?: unknown };
    return contractOf(module.handler);
  }, { title: 'AI visibility service API', version });
}

/** The document as written to docs/openapi.json (stable key order, two-space indent, final newline). */
export const openApiText = (document: Record<string, unknown> = openApiDocument()) => `${JSON.stringify(document, null, 2)}\n`;
