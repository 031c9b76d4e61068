// GET / of the mock and the proxy: where to go from here, for someone who opened the bare URL. Not an operation of
// the spec: like /docs and /openapi.json, it documents the spec rather than belonging to it, so a server under
// test is not held to it (and nothing in spec/openapi.yaml needs to change when it does).
import type { Hono } from 'hono';
import type { LoadedSpec } from '../spec/load-spec.ts';
import type { Operation } from '../spec/operations.ts';

/** The index's links: the reference, the spec, and every listing of the spec with its summary there. */
function links(spec: LoadedSpec, operations: readonly Operation[]): [string, string][] {
  const summary = (op: Operation) =>
    (spec.document.paths?.[op.path] as Record<string, { summary?: string }> | undefined)?.[op.method]?.summary ?? op.operationId;
  return [
    ['/docs', 'the API reference (Swagger UI: Authorize, then Execute)'],
    ['/openapi.json', 'the spec (also /openapi.yaml)'],
    ...operations.map((op): [string, string] => [op.path, `${op.method.toUpperCase()}: ${summary(op)}`]),
  ];
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Adds GET / to `app`: a short index, as HTML for a browser and as JSON otherwise, naming the key header the
 * listings need (never a key).
 */
export function addIndexPage(app: Hono, spec: LoadedSpec, operations: readonly Operation[], name: string): void {
  const title = `tempmon-kit ${name}: ${spec.document.info.title}`;
  const header = operations.find((op) => op.apiKeyHeader)?.apiKeyHeader;
  const key = header ? `The listings need the ${header} header; the rest needs no key.` : '';
  const listed = links(spec, operations);
  const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<ul>
${listed.map(([href, text]) => `<li><a href="${href}">${href}</a>: ${escapeHtml(text)}</li>`).join('\n')}
</ul>
<p>${escapeHtml(key)}</p>
</body>
</html>`;
  const json = { title, links: Object.fromEntries(listed), ...(header ? { apiKeyHeader: header } : {}) };
  app.get('/', (c) => (/\btext\/html\b/.test(c.req.header('accept') ?? '') ? c.html(page) : c.json(json)));
}
