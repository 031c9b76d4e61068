import { serve } from '@hono/node-server';
import type { Dataset } from '../fixtures/generate-dataset.ts';
import { loadDataFile } from '../fixtures/load-data-file.ts';
import { DEFAULT_API_KEY, createApp } from '../server/create-app.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { DATASET_HELP, DATASET_OPTIONS, datasetOptions, hasDatasetOption } from './dataset-options.ts';
import { CliError, integerOption, parseOptions } from './cli-error.ts';

/** Help of `tempmon serve`. */
export const SERVE_HELP = `Usage: tempmon serve [options]

Serves the mock of spec/openapi.yaml over HTTP with deterministic seeded data.

Options:
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host HOST           address to bind (default 127.0.0.1)
${DATASET_HELP}
  --data FILE           serve the records of FILE ({ "alerts": [...], "sensors": [...] })
                        instead of generated ones; every record is validated first
  --api-key KEY         accepted key (repeatable; default ${DEFAULT_API_KEY})
  --quiet               do not log requests
  -h, --help            show this help`;

/** Runs `tempmon serve`; resolves once listening, with a `close` to stop it. */
export async function serveCommand(args: readonly string[], log: (line: string) => void = console.log) {
  const values = parseOptions('serve', args, {
    ...DATASET_OPTIONS,
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    'api-key': { type: 'string', multiple: true },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    log(SERVE_HELP);
    return undefined;
  }
  const port = values.port === undefined ? 4010 : integerOption('port', values.port as string, 0, 65535);
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const apiKeys = (values['api-key'] as string[] | undefined) ?? [DEFAULT_API_KEY];
  if (apiKeys.some((key) => key.trim() === '')) throw new CliError('--api-key must not be empty');
  if (values.data !== undefined && hasDatasetOption(values)) {
    throw new CliError('--data cannot be combined with --seed or record counts');
  }

  const spec = loadSpec();
  const generated = datasetOptions(values);
  let data: Dataset | undefined;
  if (typeof values.data === 'string') data = loadDataFile(values.data, spec.document, createSchemaValidator(spec.document));
  const app = createApp({ spec, apiKeys, ...(data ? { data } : { dataset: generated }) });

  const handler = values.quiet ? app.fetch : withAccessLog(app.fetch, log);
  const server = await listen(handler, host, port);
  const address = server.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${typeof address === 'object' && address ? address.port : port}`;
  const counts = Object.entries(data ?? generated.counts).map(([key, v]) => `${typeof v === 'number' ? v : v.length} ${key}`);
  log(`tempmon mock listening on ${url}`);
  log(data ? `  data: ${values.data as string} (${counts.join(', ')})` : `  seed ${generated.seed}: ${counts.join(', ')}`);
  // The default key is public and documented; a key the user chose is not printed back.
  log(values['api-key'] ? `  key: the ${apiKeys.length > 1 ? `${apiKeys.length} keys` : 'key'} given with --api-key` : `  key: ${DEFAULT_API_KEY}`);
  log(`  try: curl -H 'x-api-key: ${values['api-key'] ? '$KEY' : DEFAULT_API_KEY}' '${url}/alert?pageSize=2'`);
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type FetchHandler = (request: Request) => Response | Promise<Response>;

function listen(fetch: FetchHandler, hostname: string, port: number) {
  return new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const server = serve({ fetch, hostname, port }, () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new CliError(`cannot listen on ${hostname}:${port}: ${error.code === 'EADDRINUSE' ? 'address already in use' : error.message}`)),
    );
  });
}

/** One line per request: method, path and query, status, duration. Headers (and so the key) are never logged. */
function withAccessLog(fetch: FetchHandler, log: (line: string) => void): FetchHandler {
  return async (request) => {
    const started = performance.now();
    const response = await fetch(request);
    const url = new URL(request.url);
    log(`${request.method} ${url.pathname}${url.search} ${response.status} ${(performance.now() - started).toFixed(1)}ms`);
    return response;
  };
}
