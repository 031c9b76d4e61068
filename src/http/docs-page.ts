import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import type { LoadedSpec } from '../spec/load-spec.ts';

// swagger-ui-dist ships the whole UI as static files: served from node_modules, nothing from a CDN.
// Found when first asked for: a bundle with no node_modules (Cloudflare Workers) loads this module too.
const assetsDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>tempmon-kit: API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

// "Try it out" must reach this server, whatever port it runs on, so the page points the spec's
// servers at its own origin; /openapi.json itself stays the spec as written.
const INIT = `fetch('/openapi.json')
  .then((response) => response.json())
  .then((spec) => {
    spec.servers = [{ url: location.origin, description: 'this tempmon mock' }];
    window.ui = SwaggerUIBundle({ spec, dom_id: '#ui', deepLinking: true, persistAuthorization: true, tryItOutEnabled: true });
  });`;

/** Adds GET /docs, an interactive API reference of the spec (Swagger UI), to `app`. */
export function addDocsPage(app: Hono): void {
  const cache = new Map<string, string>();
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/', (c) => c.redirect('/docs'));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  // One static route per asset, no `/docs/:asset`: Hono's RegExpRouter refuses a parameter beside
  // `/docs/init.js`, and the app then falls back to its slower TrieRouter for every request.
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`/docs/${name}`, (c) => {
      let body = cache.get(name);
      if (body === undefined) {
        body = readFileSync(join(assetsDir(), name), 'utf8');
        cache.set(name, body);
      }
      return c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
    });
  }
}

/**
 * Adds what documents the API, none of it behind the key: GET /openapi.json and /openapi.yaml (the spec
 * as loaded) and GET /docs. The proxy serves these through this function, as the mock does.
 */
export function addSpecRoutes(app: Hono, spec: LoadedSpec): void {
  app.get('/openapi.json', (c) => c.json(spec.document));
  app.get('/openapi.yaml', (c) => c.body(spec.source, 200, { 'Content-Type': 'application/yaml; charset=utf-8' }));
  addDocsPage(app);
}
