// The flags of every command but serve's (src/options/serve-options.ts) and contract's
// (src/contract/options/contract-flags.ts), and all of them side by side: an unknown option of one command is
// looked up in the others ("--concurrency is a contract option, not a serve one"). No node: import.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { CONTRACT_FLAGS } from '../contract/options/contract-flags.ts';
import { SPEC_OPTION_HELP } from '../spec/spec-option.ts';
import type { HelpedFlag } from './flag-help.ts';
import type { FlagShape } from './flag-shape.ts';
import { datasetFlags, serveFlags } from './serve-options.ts';

/** The flags of `tempmon fixtures`: generated data's (see datasetFlags), and where to write. */
export const fixturesFlags = (document: OpenAPIObject): readonly HelpedFlag[] => [
  ...datasetFlags(document),
  { name: 'out', value: 'FILE', help: ['write to FILE instead of standard output'] },
  { name: 'spec', value: 'FILE', help: [SPEC_OPTION_HELP] },
  { name: 'help', short: 'h', help: ['show this help'] },
];

/** Where `tempmon proxy` listens, and how long it waits for the target, unless told otherwise. */
export const PROXY_DEFAULTS = { port: 4020, host: '127.0.0.1', timeoutMs: 10_000 } as const;

/** The flags of `tempmon proxy`, in the order of its help. */
export const PROXY_FLAGS: readonly HelpedFlag[] = [
  { name: 'target', value: 'URL', help: ['base URL of the deployment (required)'] },
  { name: 'port', value: 'N', help: [`port to listen on (default ${PROXY_DEFAULTS.port}; 0 picks a free one)`] },
  { name: 'host', value: 'HOST', help: [`address to bind (default ${PROXY_DEFAULTS.host})`] },
  { name: 'timeout', value: 'MS', help: [`upstream time limit (default ${PROXY_DEFAULTS.timeoutMs}); beyond it the client gets 504`] },
  { name: 'errors', help: ['answer 502 problem+json listing the violations instead of a non-conformant response'] },
  { name: 'record', value: 'FILE', help: ['record the records seen into FILE (a data file for tempmon serve --data)'] },
  { name: 'quiet', help: ['do not log requests (violations are still logged)'] },
  { name: 'log-format', value: 'F', help: ['request log: compact (a line per request, default) or json (pino)'] },
  { name: 'spec', value: 'FILE', help: [SPEC_OPTION_HELP] },
  { name: 'help', short: 'h', help: ['show this help'] },
];

/** The flags of `tempmon assumptions`. */
export const ASSUMPTIONS_FLAGS: readonly HelpedFlag[] = [
  { name: 'readme', value: 'FILE', help: ['rewrite the table between the assumptions markers of FILE instead'] },
  { name: 'help', short: 'h', help: ['show this help'] },
];

/**
 * Every command's flags, by command (serve's and fixtures' count flags from `document`'s listings).
 *
 * @example
 * commandFlags(document).contract.some((flag) => flag.name === 'concurrency'); // true
 */
export const commandFlags = (document: OpenAPIObject): Readonly<Record<string, readonly FlagShape[]>> => ({
  serve: serveFlags(document),
  fixtures: fixturesFlags(document),
  contract: CONTRACT_FLAGS,
  proxy: PROXY_FLAGS,
  assumptions: ASSUMPTIONS_FLAGS,
});
