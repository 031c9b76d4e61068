import { LOG_FORMATS, type LogFormat, type LogSink } from '../http/request-log.ts';
import { CliError } from './cli-error.ts';

/** `--log-format`: compact (default) or json. */
export function logFormatOption(value: unknown): LogFormat {
  if (value === undefined) return 'compact';
  if (typeof value === 'string' && (LOG_FORMATS as readonly string[]).includes(value)) return value as LogFormat;
  throw new CliError(`--log-format must be one of ${LOG_FORMATS.join(', ')}, got ${JSON.stringify(value)}`);
}

/**
 * Where request lines go: the command's own `log` when a caller passed one (tests, embedding), else
 * standard output through the request log's buffered destination rather than console.log.
 */
export const sinkFor = (log: (line: string) => void): LogSink => (log === console.log ? 'stdout' : log);
