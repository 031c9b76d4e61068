import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { Dataset } from '../fixtures/generate-dataset.ts';
import { loadDataFile } from '../fixtures/load-data-file.ts';
import { flagHelp } from '../options/flag-help.ts';
import { commandFlags } from '../options/command-flags.ts';
import { peekFlag } from '../options/parse-flags.ts';
import { bannerLines, parseServeArgs, servedSizes, serveFlags, serveOptions } from '../options/serve-options.ts';
import { createMock } from '../server/create-app.ts';
import { nodeListener } from '../server/node-listener.ts';
import { listProbes } from '../spec/probe-operations.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { createDatasetStore } from '../store/dataset-store.ts';
import { SYNC_INDEX_LIMIT } from '../store/generated-store.ts';
import { cliFail } from './cli-error.ts';
import { listen, stopServer } from './listen.ts';
import { listeningAddresses } from './listen-address.ts';
import { logFormatOption, sinkFor } from './log-options.ts';
import { followSearchReadiness } from './search-readiness.ts';
import { watchDataFile } from './watch-data-file.ts';

/** Help of `tempmon serve`, its flags from the spec (a count per listing; see serveFlags). */
export const serveHelp = (document: OpenAPIObject): string => `Usage: tempmon serve [options]

Serves the mock of spec/openapi.yaml over HTTP with deterministic seeded data.

Options:
${flagHelp(serveFlags(document), 24)}

Each option but ${serveFlags(document)
  .filter((flag) => !flag.variable && flag.name !== 'help' && flag.name !== 'api-key')
  .map((flag) => `--${flag.name}`)
  .join(', ')} can come from a variable instead,
TEMPMON_<NAME> (TEMPMON_SEED for --seed, TEMPMON_LIVE=1 for --live); a flag given wins.
A key you give (--api-key or TEMPMON_API_KEY) is never printed back.
Per request: Prefer: code=503 (or ?__code=503), Prefer: example=empty, Prefer: delay=300.
Random choices follow the seed and the order of requests, so a session replays exactly.`;

/** Runs `tempmon serve`; resolves once listening, with a `close` to stop it. */
export async function serveCommand(args: readonly string[], log: (line: string) => void = console.log) {
  // The spec first: its listings are flags (a count each).
  const spec = loadSpec(peekFlag(args, 'spec'));
  // Each flag's TEMPMON_<NAME> stands in for it when not given, as in every runtime entry (a container's env).
  const env = process.env;
  const values = parseServeArgs(spec.document, args, env, false, cliFail, () => commandFlags(spec.document));
  if (values.help) {
    log(serveHelp(spec.document));
    return undefined;
  }
  const options = serveOptions(spec.document, values, env, cliFail);
  const { host, port, apiKeys, scenarios, dataPath } = options;

  let data: Dataset | undefined;
  if (dataPath !== undefined) data = loadDataFile(dataPath, spec.document, createSchemaValidator(spec.document));
  const store = data && createDatasetStore(data, spec.document);
  const mock = createMock({
    spec,
    apiKeys: apiKeys.keys,
    scenarios,
    ...(store ? { store } : { dataset: options.dataset }),
    ...(options.live ? { live: options.live } : {}),
  });
  const watcher = store && options.watch ? watchDataFile(dataPath!, spec, store, log) : undefined;

  const { server, url: bound } = await listen(
    nodeListener(mock, options.quiet ? undefined : { format: logFormatOption(options.logFormat), sink: sinkFor(log) }),
    host,
    port,
  );
  const { url, note } = listeningAddresses(bound, host);
  const sizes = servedSizes(spec.document, options, data);
  log(`tempmon mock listening on ${url}`);
  if (note) log(note);
  log(`  docs: ${url}/docs (no key needed; ${url}/ lists the rest)`);
  // The data, the key (a key the user chose is never printed back), the simulated conditions (said at start,
  // as the other runtimes' entries say them: a UI that fails sometimes is then no surprise), a curl to try.
  for (const line of bannerLines(spec.document, options, sizes, url)) log(line);
  if (watcher) log(`  watching ${dataPath} for changes`);
  const records = Object.values(sizes).reduce((sum, n) => sum + n, 0);
  // A large dataset's search index is built in the background: say so, and when it is ready.
  const readiness = listProbes(spec.document).find((probe) => probe.kind === 'readiness');
  let following: (() => void) | undefined;
  if (readiness && (await mock.app.request(readiness.path)).status !== 200) {
    log(`  search: indexing in the background; searches answer 503 until it is ready (${readiness.path} shows how far)`);
    following = followSearchReadiness(mock.app, readiness.path, records, logFormatOption(options.logFormat), log);
  }
  return {
    url,
    /** Whether it serves more records than are indexed on the first search (see SYNC_INDEX_LIMIT). */
    large: records > SYNC_INDEX_LIMIT,
    close: () => {
      following?.();
      watcher?.close();
      return stopServer(server);
    },
  };
}
