/**
 * The API's published contract on the local API: `GET /openapi.json` (docs/openapi.json, written
 * by `npm run openapi`) and an API reference page at `GET /docs`, rendered from it by Swagger UI
 * (swagger-ui-dist: the OpenAPI initiative's own renderer, maintained, static files only, with
 * try-it against this API; Redoc has no try-it, Scalar's standalone bundle is larger). D171.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { OPENAPI_FILE } from './openapi-document';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>AI visibility service API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: true, docExpansion: 'list' });
  </script>
</body>
</html>
`;

/** Answers the contract's paths; false for any other request. */
export function serveApiDocs(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const send = (type: string, body: string | Buffer) => {
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
  if (path === '/openapi.json') return send('application/json; charset=utf-8', readFileSync(OPENAPI_FILE));
  if (path === '/docs' || path === '/docs/') return send('text/html; charset=utf-8', PAGE);
  const asset = /^\/docs\/([\w.-]+)$/.exec(path)?.[1];
  if (asset && asset in ASSETS) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
    return send(ASSETS[asset], readFileSync(join(dist, asset)));
  }
  return false;
}
