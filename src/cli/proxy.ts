import { createProxy } from '../proxy/create-proxy.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { appListener } from '../http/app-listener.ts';
import { CliError, integerOption, parseOptions } from './cli-error.ts';
import { listen } from './listen.ts';
import { logFormatOption, sinkFor } from './log-options.ts';
import { listeningAddresses } from './listen-address.ts';

/** Help of `tempmon proxy`. */
export const PROXY_HELP = `Usage: tempmon proxy --target URL [options]

Forwards GET /alert and /sensor to a real deployment and returns its responses unchanged, while
checking every request and response against spec/openapi.yaml. Each violation is logged as one line
(never the key) and listed at GET /__tempmon/violations. GET /openapi.json, /openapi.yaml and /docs
serve the spec and its interactive reference, as the mock does.

Options:
  --target URL          base URL of the deployment (required)
  --port N              port to listen on (default 4020; 0 picks a free one)
  --host HOST           address to bind (default 127.0.0.1)
  --timeout MS          upstream time limit (default 10000); beyond it the client gets 504
  --errors              answer 502 problem+json listing the violations instead of a non-conformant response
  --record FILE         record the records seen into FILE (a data file for tempmon serve --data)
  --quiet               do not log requests (violations are still logged)
  --log-format F        request log: compact (a line per request, default) or json (pino)
  -h, --help            show this help`;

/** Runs `tempmon proxy`; resolves once listening, with a `close` to stop it. */
export async function proxyCommand(args: readonly string[], log: (line: string) => void = console.log) {
  const values = parseOptions('proxy', args, {
    target: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    timeout: { type: 'string' },
    errors: { type: 'boolean' },
    record: { type: 'string' },
    quiet: { type: 'boolean' },
    'log-format': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    log(PROXY_HELP);
    return undefined;
  }
  const target = values.target;
  if (!target) throw new CliError('--target URL is required (see tempmon proxy --help)');
  if (!/^https?:\/\/[^/]/.test(target) || !URL.canParse(target))
    throw new CliError(`--target must be an http(s) URL, got ${JSON.stringify(target)}`);
  const port = values.port === undefined ? 4020 : integerOption('port', values.port, 0, 65535);
  const host = values.host ?? '127.0.0.1';
  const timeoutMs = values.timeout === undefined ? 10_000 : integerOption('timeout', values.timeout, 1, 600_000);

  const proxy = await createProxy({
    target,
    spec: loadSpec(),
    timeoutMs,
    errors: values.errors === true,
    ...(values.record ? { record: values.record } : {}),
    log,
  });
  const format = logFormatOption(values['log-format']);
  const listener = appListener(
    { fetch: proxy.app.fetch, hideKeysOf: (request) => proxy.hideKeysOf(request.headers) },
    values.quiet ? undefined : { format, sink: sinkFor(log) },
  );
  const { server, url: bound } = await listen(listener, host, port);
  const { url, note } = listeningAddresses(bound, host);
  log(`tempmon proxy listening on ${url}, forwarding to ${target}${values.errors ? ' (non-conformant responses become 502)' : ''}`);
  if (note) log(note);
  log(`  violations: ${url}/__tempmon/violations${values.record ? `; recording into ${values.record}` : ''}`);
  return {
    url,
    close: () => {
      proxy.flush();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
