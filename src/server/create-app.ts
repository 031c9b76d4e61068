import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Hono } from 'hono';
import { DEFAULT_DATASET } from '../fixtures/generate-dataset.ts';
import { createRecordFactory } from '../fixtures/record-factory.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { listListings, apiKeyHeaders, honoPath } from '../spec/operations.ts';
import { listProbes } from '../spec/probe-operations.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { AnswerCache } from './answer-cache.ts';
import type { AppOptions } from './app-options.ts';
import { apiKeyAuth } from './api-key-auth.ts';
import { createDatasetStore, createGeneratedDatasetStore } from '../store/dataset-store.ts';
import { createLiveDatasetStore } from '../store/live-store.ts';
import { liveSettings } from '../live/live-options.ts';
import { MOMENT_HEADER, liveIdentity, takeMoment } from './live-moment.ts';
import { errorRate } from './error-rate.ts';
import { forcedResponse } from './forced-response.ts';
import { createShell } from '../http/create-shell.ts';
import { type HideKeys, keyHider } from '../http/hide-keys.ts';
import { keyChecker } from './key-checker.ts';
import { latency } from './latency.ts';
import { listRoute, listingAnswerer } from './list-route.ts';
import { addProbeRoutes } from './probe-routes.ts';
import { createRandomStream } from './random-stream.ts';
import { rateLimit } from './rate-limit.ts';
import { createResponseCache } from './response-cache.ts';

/** The key the mock accepts when none is configured. Documented, and only ever meant for local use. */
export const DEFAULT_API_KEY = 'tempmon-dev-key';

export type { AppOptions, ScenarioOptions } from './app-options.ts';

const STREAM = { latency: 1, faults: 2 } as const;

/**
 * Creates the mock server as a plain Hono app: use `app.request()` in tests, `app.fetch` as a fetch
 * handler, or serve it with @hono/node-server. Routes, query validation and auth come from the spec.
 */
export function createApp(options: AppOptions = {}): Hono {
  return createMock(options).app;
}

/** The app, and the replay of its cached answers for node:http (what `tempmon serve` runs). */
export interface Mock {
  readonly app: Hono;
  /** Replays the app's stored answer to the same request (see createResponseCache); false when the app must answer. */
  readonly replay: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** Hides the configured keys in a text about a request (for the request log). */
  readonly hideKeys: HideKeys;
}

/** Creates the app and its response cache (see {@link createApp}). */
export function createMock(options: AppOptions = {}): Mock {
  const spec = options.spec ?? loadSpec();
  const datasetOptions = options.dataset ?? DEFAULT_DATASET;
  if (options.live && (options.data || options.store)) throw new RangeError('live mode serves generated data, not data files or stores');
  const live = options.live ? liveSettings(options.live) : undefined;
  const factory = () => createRecordFactory(spec.document, datasetOptions.seed);
  const store =
    options.store ??
    (options.data
      ? createDatasetStore(options.data, spec.document)
      : live
        ? createLiveDatasetStore(factory(), datasetOptions, spec.document, live.settings, live.clock)
        : createGeneratedDatasetStore(factory(), datasetOptions, spec.document));
  const validator = options.validator ?? createSchemaValidator(spec.document);
  const operations = listListings(spec.document);
  const apiKeys = options.apiKeys ?? [DEFAULT_API_KEY];
  const scenarios = options.scenarios ?? {};
  const seed = scenarios.seed ?? datasetOptions.seed;
  const latencyStream = createRandomStream(seed, STREAM.latency);
  const faultStream = createRandomStream(seed, STREAM.faults);

  const hide = keyHider(apiKeys);
  const knownKey = keyChecker(apiKeys);
  // Simulated conditions must see every request, so they turn the response cache off.
  const simulated = scenarios.latency !== undefined || scenarios.errorRate !== undefined || scenarios.rateLimit !== undefined;
  const { clock } = store;
  // Live answers change with the clock and state their moment: one is replayed while its listing's data
  // holds (its count of changes at the moment), stating the moment of the request it answers.
  const cache = createResponseCache({
    enabled: !simulated,
    identity: clock ? liveIdentity(store, operations) : () => store.identity,
    keyHeaders: apiKeyHeaders(operations),
    knownKey,
    ...(clock ? { live: { clock, header: MOMENT_HEADER } } : {}),
  });

  // One pipeline, in this order: every rule below lives once, here, and node:http only replays its answers.
  const app = createShell(
    {
      spec,
      operations,
      name: 'mock',
      hideKeys: { always: hide },
      logFailure: (line) => console.error(`tempmon: ${line}`),
      first: cache.capture,
    },
    (app) => {
      addProbeRoutes(app, listProbes(spec.document), store);
      for (const operation of operations) {
        const path = honoPath(operation.path);
        const { key } = operation.collection;
        const answer = listingAnswerer(
          operation,
          () => store.collection(key),
          () => store.identity,
          validator,
          new AnswerCache(),
          hide,
        );
        // Order: delay everything, then forced states (no key needed), auth, rate limit, injected faults.
        if (clock) app.get(path, takeMoment(clock, cache.momentOf));
        app.get(path, latency(scenarios.latency, latencyStream), forcedResponse(operation));
        if (operation.apiKeyHeader) app.get(path, apiKeyAuth(operation.apiKeyHeader, knownKey, operation));
        if (scenarios.rateLimit && operation.apiKeyHeader) app.get(path, rateLimit(scenarios.rateLimit, operation));
        if (scenarios.errorRate) app.get(path, errorRate(scenarios.errorRate, faultStream, operation));
        app.get(path, listRoute(answer, operation));
      }
    },
  );
  return { app, replay: cache.replay, hideKeys: hide };
}
