/**
 * The published contract (docs/openapi.json) checked against real answers: every response the
 * tests' stack receives is validated against the document's schema for its route and status
 * (its exact status, else its `NXX` range), so the document cannot drift from behaviour. One
 * shared helper: `stack.call` runs it on every answer.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { createRouteMatcher } from '../../functions/local/runtime/route-matcher';
import { OPENAPI_FILE } from '../../functions/local/runtime/openapi-document';
import { ROUTES } from '../../functions/routes';

type Response = { $ref?: string; content?: Record<string, { schema: unknown }> };
type Document = { paths: Record<string, Record<string, { responses: Record<string, Response> }>>; components: { schemas: Record<string, unknown>; responses: Record<string, Response> } };

/** A response, or the shared one it refers to (`#/components/responses/<name>`). */
const resolved = (doc: Document, response: Response): Response =>
  response.$ref ? doc.components.responses[response.$ref.replace('#/components/responses/', '')] : response;

let document: Document | null = null;
const ajv = new Ajv2020({ strict: false, allErrors: false });
const compiled = new Map<string, ValidateFunction | null>();
const match = createRouteMatcher(ROUTES);

function validatorFor(method: string, routePath: string, status: number): ValidateFunction | null | undefined {
  document ??= JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document;
  const responses = document.paths[routePath]?.[method.toLowerCase()]?.responses;
  if (!responses) return undefined;
  const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : null;
  if (!key) return null;
  const id = `${method} ${routePath} ${key}`;
  if (!compiled.has(id)) {
    const schema = resolved(document, responses[key]).content?.['application/json']?.schema;
    compiled.set(id, schema ? ajv.compile({ ...(schema as object), components: document.components }) : null);
  }
  return compiled.get(id);
}

/**
 * Throws when `body` (the answer of `method path` with `status`) breaks the document: a route
 * the document lacks, a status it does not list, or a body its schema refuses.
 */
export function assertMatchesContract(method: string, path: string, status: number, body: unknown): void {
  const { match: found } = match(method, new URL(path, 'http://local').pathname);
  if (!found) return; // not an API route (404 for an unknown path, /openapi.json itself)
  const validate = validatorFor(method, found.route.path, status);
  if (validate === undefined) throw new Error(`contract: ${method} ${found.route.path} is not in docs/openapi.json (npm run openapi)`);
  if (validate === null) throw new Error(`contract: ${method} ${found.route.path} answered ${status}, a status docs/openapi.json does not list`);
  if (!validate(body)) {
    throw new Error(`contract: ${method} ${found.route.path} answered ${status} with a body docs/openapi.json refuses: ${ajv.errorsText(validate.errors)}`);
  }
}
