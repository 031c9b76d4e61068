import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { collectionFor } from '../fixtures/collections.ts';
import { inDocumentedOrder } from '../fixtures/documented-order.ts';
import { DEFAULT_DATASET, generateDataset, type Dataset, type DatasetOptions } from '../fixtures/generate-dataset.ts';
import { loadSpec, type LoadedSpec } from '../spec/load-spec.ts';
import { listOperations } from '../spec/operations.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { apiKeyAuth } from './api-key-auth.ts';
import { listRoute } from './list-route.ts';
import { PROBLEMS, problem } from './problem.ts';
import { createRecordStore } from './record-store.ts';

/** The key the mock accepts when none is configured. Documented, and only ever meant for local use. */
export const DEFAULT_API_KEY = 'tempmon-dev-key';

/** Options of {@link createApp}. Everything is optional: the default is the kit's spec and dataset. */
export interface AppOptions {
  /** The contract to serve; defaults to the kit's `spec/openapi.yaml`. */
  readonly spec?: LoadedSpec;
  /** Accepted API keys; defaults to `[DEFAULT_API_KEY]`. */
  readonly apiKeys?: readonly string[];
  /** Records to serve (as from a data file); they are served in the documented order. */
  readonly data?: Dataset;
  /** Seed and counts of generated data, used when `data` is not given. */
  readonly dataset?: DatasetOptions;
}

/**
 * Creates the mock server as a plain Hono app: use `app.request()` in tests, `app.fetch` as a fetch
 * handler, or serve it with @hono/node-server. Routes, query validation and auth come from the spec.
 */
export function createApp(options: AppOptions = {}): Hono {
  const spec = options.spec ?? loadSpec();
  const data = options.data ?? generateDataset(spec.document, options.dataset ?? DEFAULT_DATASET);
  const validator = createSchemaValidator(spec.document);
  const operations = listOperations(spec.document).filter((op) => op.method === 'get');
  const apiKeys = options.apiKeys ?? [DEFAULT_API_KEY];
  const keyHeaders = [...new Set(operations.flatMap((op) => (op.apiKeyHeader ? [op.apiKeyHeader] : [])))];

  const app = new Hono();
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD', 'OPTIONS'],
      allowHeaders: [...keyHeaders, 'Content-Type'],
      exposeHeaders: ['X-Total-Count', 'Link'],
      maxAge: 600,
    }),
  );
  app.get('/openapi.json', (c) => c.json(spec.document));
  app.get('/openapi.yaml', (c) => c.body(spec.source, 200, { 'Content-Type': 'application/yaml; charset=utf-8' }));

  for (const operation of operations) {
    const path = operation.path.replace(/\{([^}]+)\}/g, ':$1');
    const records = data[collectionFor(operation.itemSchema).key] ?? [];
    const store = createRecordStore(options.data ? inDocumentedOrder(records) : records);
    if (operation.apiKeyHeader) app.get(path, apiKeyAuth(operation.apiKeyHeader, apiKeys));
    app.get(path, listRoute(operation, store, validator));
    app.all(path, (c) =>
      problem(c, PROBLEMS.methodNotAllowed, `${c.req.method} is not allowed on ${operation.path}; use GET.`, {
        headers: { Allow: 'GET, HEAD, OPTIONS' },
      }),
    );
  }

  app.notFound((c) => problem(c, PROBLEMS.notFound, `No operation at ${new URL(c.req.url).pathname}.`));
  // Never leak a stack trace (or anything else) to the client; the cause goes to the server's log.
  app.onError((error, c) => {
    console.error(`tempmon: unexpected error on ${c.req.method} ${new URL(c.req.url).pathname}: ${error.message}`);
    return problem(c, PROBLEMS.internal, 'The mock failed unexpectedly; this is a bug in tempmon-kit.');
  });
  return app;
}
