import { closeSync, openSync, writeSync } from 'node:fs';
import type { ContractReport, Exchange } from '../types.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Bodies longer than this (in UTF-8 bytes) are cut in the HAR, with a comment saying how much was left out. */
export const HAR_BODY_BYTES = 64 * 1024;

/** A HAR 1.2 file being written: entries go to disk as they are added; the file is valid JSON once closed. */
export interface HarLog {
  /** Writes `exchanges` as the next entries, in order. */
  add(exchanges: readonly Exchange[]): void;
  /** The index in `log.entries` of an exchange written, or undefined. */
  indexOf(exchange: Exchange): number | undefined;
  /** Ends the file (idempotent; also done when the process exits). */
  close(): void;
}

/**
 * Opens `path` for a HAR 1.2 log of the run's exchanges. What the kit recorded is already redacted (the key
 * and --header values), so the file holds nothing the reports would not; bodies over {@link HAR_BODY_BYTES}
 * are cut. Written with synchronous writes, and ended on process exit if not before, so that the file is
 * complete and valid on every exit.
 *
 * @example
 * const har = openHarLog('run.har', '0.1.0');
 * har.add(exchanges);
 * har.close();
 */
export function openHarLog(path: string, version: string): HarLog {
  const fd = openSync(path, 'w');
  const indices = new WeakMap<Exchange, number>();
  let count = 0;
  let open = true;
  writeSync(fd, `{"log":{"version":"1.2","creator":${JSON.stringify({ name: 'tempmon-kit', version })},"entries":[`);
  const close = () => {
    if (!open) return;
    open = false;
    process.off('exit', close);
    for (const signal of SIGNALS) process.off(signal, onSignal);
    writeSync(fd, ']}}\n');
    closeSync(fd);
  };
  // Interrupted (Ctrl-C, a CI job's timeout): the file is ended, then the signal does what it would have done.
  const onSignal = (signal: NodeJS.Signals) => {
    close();
    process.kill(process.pid, signal);
  };
  process.on('exit', close);
  for (const signal of SIGNALS) process.once(signal, onSignal);
  return {
    add(exchanges) {
      for (const exchange of exchanges) {
        if (!open || indices.has(exchange)) continue;
        writeSync(fd, `${count === 0 ? '' : ','}\n${JSON.stringify(harEntry(exchange))}`);
        indices.set(exchange, count);
        count += 1;
      }
    },
    indexOf: (exchange) => indices.get(exchange),
    close,
  };
}

const pairs = (record: Readonly<Record<string, string>>) => Object.entries(record).map(([name, value]) => ({ name, value }));

/** One exchange as a HAR entry: a transport error is a response of status 0, the error in the entry's comment. */
export function harEntry(exchange: Exchange) {
  const url = new URL(exchange.request.url);
  const response = exchange.response;
  const time = response?.durationMs ?? 0;
  return {
    startedDateTime: exchange.startedDateTime ?? new Date(0).toISOString(),
    time,
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(exchange.request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response?.headers ?? {}),
      content: content(exchange),
      redirectURL: response?.headers.location ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    ...(exchange.error ? { comment: exchange.error } : {}),
  };
}

function content(exchange: Exchange) {
  const response = exchange.response;
  const mimeType = response?.headers['content-type'] ?? '';
  if (!response) return { size: 0, mimeType };
  const bytes = Buffer.from(response.text, 'utf8');
  if (bytes.length <= HAR_BODY_BYTES) return { size: bytes.length, mimeType, text: response.text };
  // Cut on a character boundary: the decoder drops a partial last character.
  const text = bytes
    .subarray(0, HAR_BODY_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const kept = Buffer.byteLength(text, 'utf8');
  return {
    size: bytes.length,
    mimeType,
    text,
    comment: `body cut at ${kept} of ${bytes.length} bytes: ${bytes.length - kept} bytes left out`,
  };
}

/**
 * The report with each failure naming, by their index in the HAR's `log.entries`, the exchanges it rests on:
 * all of them when it compares several (the reports print them; without --har they say nothing of it).
 *
 * @example
 * const shown = withHarEntries(report, har);
 */
export function withHarEntries(report: ContractReport, har: Pick<HarLog, 'indexOf'>): ContractReport {
  return {
    ...report,
    outcomes: report.outcomes.map((outcome) => ({
      ...outcome,
      failures: outcome.failures.map((failure) => {
        const rests = failure.exchanges ?? (failure.exchange ? [failure.exchange] : []);
        const entries = [...new Set(rests.flatMap((e) => har.indexOf(e) ?? []))];
        return entries.length > 0 ? { ...failure, harEntries: entries } : failure;
      }),
    })),
  };
}
