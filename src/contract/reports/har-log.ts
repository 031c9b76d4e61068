import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { comparePlaces } from '../client/exchange-recorder.ts';
import type { Place, ContractReport, Exchange } from '../types.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Bodies longer than this (in UTF-8 bytes) are cut in the HAR, with a comment saying how much was left out. */
export const HAR_BODY_BYTES = 64 * 1024;

/** A HAR 1.2 file being written: entries go to disk as they are added; the file is valid JSON once closed. */
export interface HarLog {
  /** Writes `exchange` as the next entry; {@link HarLog.close} puts the entries in the order of their places. */
  add(exchange: Exchange, place: Place): void;
  /** The index in `log.entries` of an exchange written, or undefined; final once the log is closed. */
  indexOf(exchange: Exchange): number | undefined;
  /** Puts the entries in the run's order and ends the file (idempotent). */
  close(): void;
}

interface Written {
  readonly place: Place;
  /** Where the entry's JSON sits in the file as first written, and its length, in bytes. */
  readonly offset: number;
  readonly length: number;
}

/**
 * Opens `path` for a HAR 1.2 log of the run's exchanges. Each is written when its answer arrives, so the file
 * grows as the run goes and nothing of a body stays in memory; closing it rewrites the entries in the run's
 * order (by place), so that their indices are the same on every run whatever order answers arrived in. Ended
 * on process exit and on SIGINT or SIGTERM if not closed before, in the order written: complete and valid on
 * every exit. What the kit recorded is already redacted (the key and --header values), so the file holds
 * nothing the reports would not; bodies over {@link HAR_BODY_BYTES} are cut.
 *
 * @example
 * const har = openHarLog('run.har', '0.1.0');
 * await runContract({ ...options, record: (exchange, place) => har.add(exchange, place) });
 * har.close();
 */
export function openHarLog(path: string, version: string): HarLog {
  const fd = openSync(path, 'w+');
  const header = `{"log":{"version":"1.2","creator":${JSON.stringify({ name: 'tempmon-kit', version })},"entries":[`;
  const written: Written[] = [];
  const arrival = new WeakMap<Exchange, number>();
  let final: Int32Array | undefined;
  let size = 0;
  let open = true;
  const write = (text: string) => {
    size += writeAll(fd, text);
  };
  write(header);
  /** Ends the file as written; with `ordered`, first rewrites it in the run's order when it is a file that can be. */
  const end = (ordered: boolean) => {
    if (!open) return;
    open = false;
    process.off('exit', onExit);
    for (const signal of SIGNALS) process.off(signal, onSignal);
    try {
      try {
        if (ordered) final = rewriteInOrder(path, fd, header, written);
      } catch {
        // Not rewritten (no room beside it, say): the file stays valid in the order written, and indexOf says so.
        final = undefined;
      }
      if (!final) writeAll(fd, ']}}\n');
    } finally {
      closeSync(fd);
    }
  };
  const onExit = () => end(false);
  // Interrupted (Ctrl-C, a CI job's timeout): the file is ended, then the signal does what it would have done.
  const onSignal = (signal: NodeJS.Signals) => {
    end(false);
    process.kill(process.pid, signal);
  };
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.once(signal, onSignal);
  return {
    add(exchange, place) {
      if (!open || arrival.has(exchange)) return;
      const json = JSON.stringify(harEntry(exchange));
      const separator = written.length === 0 ? '\n' : ',\n';
      write(separator);
      const offset = size;
      write(json);
      arrival.set(exchange, written.length);
      written.push({ place, offset, length: size - offset });
    },
    indexOf(exchange) {
      const index = arrival.get(exchange);
      return index === undefined || !final ? index : final[index];
    },
    close: () => end(true),
  };
}

/**
 * Writes the entries of the file open on `fd` in the order of their places to a file beside it, copied a
 * piece at a time, and moves it over `path`; returns each entry's new index by the order written, or
 * undefined when the entries already were in order or `path` is not a plain file (a pipe, /dev/stdout).
 */
function rewriteInOrder(path: string, fd: number, header: string, written: readonly Written[]): Int32Array | undefined {
  const order = written.map((_, i) => i).sort((a, b) => comparePlaces(written[a]!.place, written[b]!.place));
  if (order.every((n, i) => n === i) || !fstatSync(fd).isFile()) return undefined;
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const out = openSync(temporary, 'w');
  let outOpen = true;
  let moved = false;
  try {
    writeAll(out, header);
    const final = new Int32Array(written.length);
    let buffer = Buffer.alloc(64 * 1024);
    order.forEach((index, position) => {
      const { offset, length } = written[index]!;
      if (buffer.length < length) buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, offset);
      writeAll(out, position === 0 ? '\n' : ',\n');
      writeAll(out, buffer.subarray(0, length));
      final[index] = position;
    });
    writeAll(out, ']}}\n');
    closeSync(out);
    outOpen = false;
    renameSync(temporary, path);
    moved = true;
    return final;
  } finally {
    if (outOpen) closeSync(out);
    if (!moved) rmSync(temporary, { force: true });
  }
}

/** Writes all of `data` (a write may take part of it); returns its length in bytes. */
function writeAll(fd: number, data: string | Buffer): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
  return bytes.length;
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
    // HAR's own field: which connection the answer came on, so answers that differ by connection show it.
    ...(response?.connection !== undefined ? { connection: String(response.connection) } : {}),
    // A custom field (HAR allows those beginning with _): browsers' Network panels list the entry under Fetch/XHR.
    _resourceType: 'fetch',
    ...(comment(exchange) ? { comment: comment(exchange) } : {}),
  };
}

/** The entry's comment: its error, and for a request sent again alone, why. */
function comment({ error, firstUnderLoad: first }: Exchange): string | undefined {
  const again = first ? `sent again alone, after ${first.error ?? 'a failure'} with ${first.inFlight} in flight` : undefined;
  return [again, error].filter(Boolean).join(': ') || undefined;
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
