import type { Dataset } from '../fixtures/generate-dataset.ts';
import { countsOf } from '../fixtures/collections.ts';
import { loadDataFile } from '../fixtures/load-data-file.ts';
import { DEFAULT_API_KEY, createMock } from '../server/create-app.ts';
import { DATA_WITH_GENERATED } from '../options/runtime-options.ts';
import { createDatasetStore } from '../store/dataset-store.ts';
import { SYNC_INDEX_LIMIT } from '../store/generated-store.ts';
import { nodeListener } from '../server/node-listener.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { listProbes } from '../spec/probe-operations.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { datasetCli } from './dataset-options.ts';
import { CliError, cliFail, integerOption, parseOptions } from './cli-error.ts';
import { apiKeysOption as parseApiKeys } from '../options/option-parsers.ts';
import { logFormatOption, sinkFor } from './log-options.ts';
import { listen } from './listen.ts';
import { listeningAddresses } from './listen-address.ts';
import { scenarioOptions, describeScenarios } from '../options/scenario-options.ts';
import { watchDataFile } from './watch-data-file.ts';
import { followSearchReadiness } from './search-readiness.ts';

/** Help of `tempmon serve`, with a count option per listing of the spec (see datasetCli). */
export const serveHelp = (datasetHelp: string): string => `Usage: tempmon serve [options]

Serves the mock of spec/openapi.yaml over HTTP with deterministic seeded data.

Options:
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host HOST           address to bind (default 127.0.0.1)
${datasetHelp}
  --data FILE           serve the records of FILE ({ "alerts": [...], "sensors": [...] })
                        instead of generated ones; every record is validated first
  --api-key KEY         accepted key (repeatable); default: the key in $TEMPMON_API_KEY,
                        else ${DEFAULT_API_KEY}
  --latency MS          delay every listing response: 200, or a range 100-800
  --error-rate R        answer a share R (0..1) of listing requests with 500 or 503
  --rate-limit N        at most N requests per second per key, then 429
  --watch               with --data, reload the file when it changes
  --quiet               do not log requests
  --log-format F        request log: compact (a line per request, default) or json (pino)
  -h, --help            show this help

A key you give (--api-key or TEMPMON_API_KEY) is never printed back.
Per request: Prefer: code=503 (or ?__code=503), Prefer: example=empty, Prefer: delay=300.
Random choices follow the seed and the order of requests, so a session replays exactly.`;

/** Runs `tempmon serve`; resolves once listening, with a `close` to stop it. */
export async function serveCommand(args: readonly string[], log: (line: string) => void = console.log) {
  const spec = loadSpec();
  const dataset = datasetCli(spec.document);
  const values = parseOptions('serve', args, {
    ...dataset.options,
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    'api-key': { type: 'string', multiple: true },
    latency: { type: 'string' },
    'error-rate': { type: 'string' },
    'rate-limit': { type: 'string' },
    watch: { type: 'boolean' },
    quiet: { type: 'boolean' },
    'log-format': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    log(serveHelp(dataset.help));
    return undefined;
  }
  const port = values.port === undefined ? 4010 : integerOption('port', values.port as string, 0, 65535);
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const keys = apiKeysOption(values['api-key'], process.env.TEMPMON_API_KEY);
  const apiKeys = keys.keys;
  if (values.data !== undefined && dataset.given(values)) {
    throw new CliError(DATA_WITH_GENERATED);
  }
  if (values.watch && values.data === undefined) throw new CliError('--watch needs --data FILE');
  const scenarios = scenarioOptions(
    { latency: values.latency, 'error-rate': values['error-rate'], 'rate-limit': values['rate-limit'] },
    (message) => new CliError(message),
  );

  const generated = dataset.read(values);
  let data: Dataset | undefined;
  if (typeof values.data === 'string') data = loadDataFile(values.data, spec.document, createSchemaValidator(spec.document));
  const store = data && createDatasetStore(data, spec.document);
  const mock = createMock({ spec, apiKeys, scenarios, ...(store ? { store } : { dataset: generated }) });
  const watcher = store && values.watch ? watchDataFile(values.data as string, spec, store, log) : undefined;

  const { server, url: bound } = await listen(
    nodeListener(mock, values.quiet ? undefined : { format: logFormatOption(values['log-format']), sink: sinkFor(log) }),
    host,
    port,
  );
  const { url, note } = listeningAddresses(bound, host);
  // Records per collection, from the data file or the counts asked for (the spec's defaults otherwise).
  const sizes = Object.entries(data ?? countsOf(spec.document, generated.counts)).map(
    ([key, v]) => [key, typeof v === 'number' ? v : v.length] as const,
  );
  const counts = sizes.map(([key, n]) => `${n} ${key}`);
  log(`tempmon mock listening on ${url}`);
  if (note) log(note);
  log(data ? `  data: ${values.data as string} (${counts.join(', ')})` : `  seed ${generated.seed}: ${counts.join(', ')}`);
  // The default key is public and documented; a key the user chose is not printed back, and the curl
  // line reads it from the environment (double quotes, so the shell expands it).
  log(`  key: ${keys.describe}`);
  // Said at start, as the other runtimes' entries say it: a UI that fails sometimes is then no surprise.
  const conditions = describeScenarios(scenarios);
  if (conditions) log(`  simulated: ${conditions}`);
  log(
    `  try: curl -H ${keys.from === 'default' ? `'x-api-key: ${DEFAULT_API_KEY}'` : '"x-api-key: $TEMPMON_API_KEY"'} '${url}/alert?pageSize=2'`,
  );
  if (watcher) log(`  watching ${values.data as string} for changes`);
  const records = sizes.reduce((sum, [, n]) => sum + n, 0);
  // A large dataset's search index is built in the background: say so, and when it is ready.
  const readiness = listProbes(spec.document).find((probe) => probe.kind === 'readiness');
  let following: (() => void) | undefined;
  if (readiness && (await mock.app.request(readiness.path)).status !== 200) {
    log(`  search: indexing in the background; searches answer 503 until it is ready (${readiness.path} shows how far)`);
    following = followSearchReadiness(mock.app, readiness.path, records, logFormatOption(values['log-format']), log);
  }
  return {
    url,
    /** Whether it serves more records than are indexed on the first search (see SYNC_INDEX_LIMIT). */
    large: records > SYNC_INDEX_LIMIT,
    close: () => {
      following?.();
      watcher?.close();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The accepted keys: every --api-key, else the one key in TEMPMON_API_KEY (so it shows in no command
 * line or npm script echo), else the documented dev key (parsed as the runtime entries parse them, see
 * option-parsers.ts), and how the banner names them: only a key that is public anyway is ever printed.
 */
export function apiKeysOption(flags: readonly string[] | undefined, environment: string | undefined) {
  const { keys, from } = parseApiKeys(flags, environment, cliFail);
  const describe =
    from === 'default'
      ? DEFAULT_API_KEY
      : from === 'environment'
        ? 'the one in $TEMPMON_API_KEY (not printed)'
        : `the ${keys.length > 1 ? `${keys.length} keys` : 'key'} given with --api-key (not printed; the curl below reads one from $TEMPMON_API_KEY)`;
  return { keys, from, describe };
}
