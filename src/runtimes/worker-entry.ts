// The mock on Cloudflare Workers (workerd): the same Hono app as `tempmon serve`, answering through
// app.fetch. wrangler bundles its build, dist/runtimes/worker-entry.js (see wrangler.toml), with the
// query validators `npm run build` compiled ahead of time: `npm run serve:workerd`, `wrangler deploy`.
import { parse } from 'yaml';
import source from '../../spec/openapi.yaml';
import { createApp } from '../server/create-app.ts';
import { SYNC_INDEX_LIMIT } from '../store/generated-store.ts';
import { OUTSIDE_APP_HEADERS, PROBLEMS, problemBody } from '../http/problem.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { precompiledValidator } from './precompiled-validator.ts';
import { QUERY_VALIDATORS } from './query-validators.js';
import { type RuntimeEnv, runtimeMock } from '../options/runtime-options.ts';

/**
 * The kit's spec, bundled: a Worker has no file system to read it from. The YAML comes in as text (a
 * wrangler Text rule) and is served verbatim at /openapi.yaml, as by Node.
 */
const spec: LoadedSpec = { document: parse(source), source, path: 'spec/openapi.yaml' };

/**
 * Largest count of a collection on a Worker: up to this size the search index is built in the request of
 * the first search (see createGeneratedStore); past it, Node builds it in the background between
 * requests, which a Worker does not run. (Not exported: every export of a Worker module must be a handler.)
 */
const WORKER_MAX_COUNT = SYNC_INDEX_LIMIT;

let fetcher: ((request: Request) => Response | Promise<Response>) | undefined;

/**
 * The Worker. Its vars and secrets choose the data, conditions and key, as the flags of `tempmon serve` do:
 * TEMPMON_SEED, a count per listing of the spec (TEMPMON_ALERTS, ...), TEMPMON_LATENCY, TEMPMON_ERROR_RATE,
 * TEMPMON_RATE_LIMIT (counted per isolate), and the secret TEMPMON_API_KEY; TEMPMON_DATA is refused (no file system). An
 * invalid configuration is answered with a 500 problem giving the reason. The app is made on the
 * first request (bindings come with requests) and kept by the isolate: data is a pure function of the
 * seed and the record's index, so every isolate and every replica answers alike.
 */
export default {
  fetch(request: Request, env: RuntimeEnv): Response | Promise<Response> {
    if (!fetcher) {
      try {
        const { options } = runtimeMock(spec, env, [], WORKER_MAX_COUNT);
        fetcher = createApp({ ...options, validator: precompiledValidator(QUERY_VALIDATORS) }).fetch;
      } catch (error) {
        // The reason, as a problem like every other error of the mock, with CORS so a browser app can read
        // it; no instance (the URL may hold a key).
        const body = problemBody(PROBLEMS.internal, `tempmon: ${(error as Error).message}`, undefined);
        return new Response(body, {
          status: 500,
          headers: OUTSIDE_APP_HEADERS,
        });
      }
    }
    return fetcher(request);
  },
};
