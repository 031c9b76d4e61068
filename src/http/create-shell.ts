import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { LoadedSpec } from '../spec/load-spec.ts';
import type { Operation } from '../spec/operations.ts';
import { browserCors } from './browser-cors.ts';
import { addSpecRoutes } from './docs-page.ts';
import { addIndexPage } from './index-page.ts';
import { type HideKeys, hideKeys, hideKeysIn } from './hide-keys.ts';
import { addMethodNotAllowed } from './method-not-allowed.ts';
import { PROBLEMS, problem } from './problem.ts';
import { validHost } from './valid-host.ts';

/** What a server built on the shell says about itself and how it hides keys. */
export interface ShellOptions {
  /** Served at /openapi.yaml, /openapi.json and /docs. */
  readonly spec: LoadedSpec;
  /** The listings served: CORS exposes their headers; another method on their paths gets 405. */
  readonly operations: readonly Operation[];
  /** The server's name in a 500 answer: "The mock failed unexpectedly". */
  readonly name: string;
  /**
   * What hides keys in every text the server writes about a request (problem documents, log lines): the same for
   * every request (the mock's configured keys), or made from each request (the proxy: the key it carries).
   */
  readonly hideKeys: { readonly always: HideKeys } | { readonly perRequest: (c: Context) => HideKeys };
  /** Where the cause of an unexpected failure goes, keys hidden; never to the client. */
  readonly logFailure: (line: string) => void;
  /** Runs before everything else (the mock's response cache watches every answer). */
  readonly first?: MiddlewareHandler;
}

/**
 * The HTTP shell the mock and the proxy share, around the routes `addRoutes` adds: key hiding, CORS, the Host
 * check and the spec routes before them; 405 for another method on a listing path, 404 for any other path and a
 * 500 that leaks nothing after them, all as problem+json.
 *
 * @example
 * const app = createShell(
 *   { spec, operations, name: 'mock', hideKeys: { always: keyHider(['k']) }, logFailure: console.error },
 *   (app) => app.get('/alert', (c) => c.json([])),
 * );
 */
export function createShell(options: ShellOptions, addRoutes: (app: Hono) => void): Hono {
  const app = new Hono();
  if (options.first) app.use('*', options.first);
  // Every answer and log line after this may quote the URL, where a client may have put its key.
  const keys = options.hideKeys;
  app.use(
    '*',
    'always' in keys
      ? hideKeys(keys.always)
      : (c, next) => {
          c.set('hideKeys', keys.perRequest(c));
          return next();
        },
  );
  app.use('*', browserCors(options.operations));
  app.use('*', validHost());
  addSpecRoutes(app, options.spec);
  addRoutes(app);
  addIndexPage(app, options.spec, options.operations, options.name);
  addMethodNotAllowed(app, options.operations);
  app.notFound((c) => problem(c, PROBLEMS.notFound, `No operation at ${c.req.path}.`));
  app.onError((error, c) => {
    const hide = hideKeysIn(c);
    options.logFailure(
      `unexpected error on ${c.req.method} ${hide(c.req.path)}: ${hide(error instanceof Error ? error.message : String(error))}`,
    );
    return problem(c, PROBLEMS.internal, `The ${options.name} failed unexpectedly; this is a bug in tempmon-kit.`);
  });
  return app;
}
