import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { createProxy } from '../proxy/create-proxy.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { listListings } from '../spec/operations.ts';
import { appListener } from '../http/app-listener.ts';
import { flagHelp } from '../options/flag-help.ts';
import { PROXY_DEFAULTS, PROXY_FLAGS } from '../options/command-flags.ts';
import { everyCommandFlags } from './every-command-flags.ts';
import { flagText, parseFlags } from '../options/parse-flags.ts';
import { targetUrl } from './target-url.ts';
import { cliFail, integerOption } from './cli-error.ts';
import { listen, stopServer } from './listen.ts';
import { logFormatOption, sinkFor } from './log-options.ts';
import { listeningAddresses } from './listen-address.ts';

/** `GET /alert and /sensor`: the spec's listings, as the help names them. */
const listingPaths = (document: OpenAPIObject) =>
  `GET ${new Intl.ListFormat('en', { type: 'conjunction' }).format(listListings(document).map((op) => op.path))}`;

/** Help of `tempmon proxy`, its listings from the spec. */
export const proxyHelp = (document: OpenAPIObject): string => `Usage: tempmon proxy --target URL [options]

Forwards ${listingPaths(document)} to a real deployment and returns its responses unchanged, while
checking every request and response against spec/openapi.yaml. Each violation is logged as one line
(never the key) and listed at GET /__tempmon/violations. GET /openapi.json, /openapi.yaml and /docs
serve the spec and its interactive reference, as the mock does.

Options:
${flagHelp(PROXY_FLAGS, 24)}`;

/** Runs `tempmon proxy`; resolves once listening, with a `close` to stop it. */
export async function proxyCommand(args: readonly string[], log: (line: string) => void = console.log) {
  const values = parseFlags(args, PROXY_FLAGS, 'proxy', cliFail, everyCommandFlags(args));
  const text = (name: string) => flagText(values, name);
  if (values.help) {
    log(proxyHelp(loadSpec(text('spec')).document));
    return undefined;
  }
  const target = targetUrl(text('target'), 'proxy');
  const portText = text('port');
  const timeoutText = text('timeout');
  const port = portText === undefined ? PROXY_DEFAULTS.port : integerOption('port', portText, 0, 65535);
  const host = text('host') ?? PROXY_DEFAULTS.host;
  const timeoutMs = timeoutText === undefined ? PROXY_DEFAULTS.timeoutMs : integerOption('timeout', timeoutText, 1, 600_000);

  const proxy = await createProxy({
    target,
    spec: loadSpec(text('spec')),
    timeoutMs,
    errors: values.errors === true,
    ...(text('record') ? { record: text('record')! } : {}),
    log,
  });
  const format = logFormatOption(text('log-format'));
  const listener = appListener(
    { fetch: proxy.app.fetch, hideKeysOf: (request) => proxy.hideKeysOf(request.headers) },
    values.quiet ? undefined : { format, sink: sinkFor(log) },
  );
  const { server, url: bound } = await listen(listener, host, port);
  const { url, note } = listeningAddresses(bound, host);
  log(`tempmon proxy listening on ${url}, forwarding to ${target}${values.errors ? ' (non-conformant responses become 502)' : ''}`);
  if (note) log(note);
  log(`  violations: ${url}/__tempmon/violations${text('record') ? `; recording into ${text('record')}` : ''}`);
  return {
    url,
    close: () => {
      proxy.flush();
      return stopServer(server);
    },
  };
}
