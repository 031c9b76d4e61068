// What an exchange's answer holds and how it is told in a few words: records, identities, previews, tallies; and how
// a failure alone while the target was still busy is graded, one rule for the checks that judge one.
import type { Exchange, Finding } from '../types.ts';
import { ALONE_IN_FLIGHT } from '../client/concurrency-limit.ts';
import { recordsOf } from '../records.ts';
import { type Skip, noEvidence } from './skip.ts';

/** Cuts a value's text for a report line. */
export function preview(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Whether a response can serve as evidence of how the target treats a request: it answered, and
 * neither with a server error (not_a_server_error's to report) nor a redirect (never followed, so
 * the real answer is unseen).
 */
export function answered(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && !exchange.error && (status < 300 || (status >= 400 && status < 500));
}

/** What one exchange got, in a few words: `503 text/html`, `302 to https://…`, or the transport error. */
export function describeAnswer(exchange: Exchange): string {
  const response = exchange.response;
  if (!response) return exchange.error ?? 'no response';
  const type = response.headers['content-type']?.split(';')[0]?.trim();
  const location = response.headers.location;
  const what = `${response.status}${location ? ` to ${preview(location, 60)}` : type ? ` ${type}` : ''}`;
  return exchange.error ? `${what} (${exchange.error})` : what;
}

/**
 * What one exchange got, its status and media type only: `503 text/html`, `302 (a redirect, not followed)`, or the
 * transport error. Answers alike in kind are alike here, wherever each redirect pointed.
 */
export function describeKind(exchange: Exchange): string {
  const response = exchange.response;
  if (!response) return exchange.error ?? 'no response';
  const type = response.headers['content-type']?.split(';')[0]?.trim();
  if (response.status >= 300 && response.status < 400) return `${response.status} (a redirect, not followed)`;
  return `${response.status}${type ? ` ${type}` : ''}`;
}

/**
 * A count of what exchanges got, kept as they come: as small as the number of different answers, and described
 * the same whatever order they came in (most frequent first, ties in alphabetical order).
 *
 * @example
 * const tally = answerTally();
 * tally.add(exchange);
 * tally.describe(); // 'the request got 503 text/html'
 */
export function answerTally(describeOne: (exchange: Exchange) => string = describeAnswer) {
  const counts = new Map<string, number>();
  let total = 0;
  return {
    /** How many exchanges were added. */
    count: () => total,
    add(exchange: Exchange): void {
      const what = describeOne(exchange);
      counts.set(what, (counts.get(what) ?? 0) + 1);
      total += 1;
    },
    describe(): string {
      if (total === 0) return 'no request was sent';
      if (counts.size === 1) return `${total === 1 ? 'the request' : 'every request'} got ${[...counts.keys()][0]}`;
      const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
      return `the requests got ${top.map(([what, n]) => `${n}x ${what}`).join(', ')}${counts.size > 3 ? ', …' : ''}`;
    },
  };
}

/** What a set of exchanges got: `every request got 503 text/html`, or the commonest answers with counts. */
export function describeAnswers(exchanges: readonly Exchange[]): string {
  const tally = answerTally();
  for (const exchange of exchanges) tally.add(exchange);
  return tally.describe();
}

/**
 * The part of a check's claim resting on probes that got no answer to judge (a 5xx, a redirect, no response):
 * how many of `total`, the first few by label, and what they got; nothing when every probe was answered.
 *
 * @example
 * partly(findings, unanswered('wrong keys', 40, [{ label: 'an empty key', exchange }]));
 * // ['1 of 40 wrong keys got no answer to judge (an empty key): the request got 503 text/plain']
 */
export function unanswered(what: string, total: number, unseen: readonly { label: string; exchange: Exchange }[]): string[] {
  if (unseen.length === 0) return [];
  const labels = unseen.slice(0, 3).map((u) => u.label);
  const shown = `${labels.join(', ')}${unseen.length > labels.length ? ', …' : ''}`;
  return [`${unseen.length} of ${total} ${what} got no answer to judge (${shown}): ${describeAnswers(unseen.map((u) => u.exchange))}`];
}

/**
 * No evidence unless every exchange is a 200 JSON array: the skip to return, naming what came back
 * instead, or undefined when they all are.
 */
export function needRecords(exchanges: readonly Exchange[], what: string): Skip | undefined {
  const bad = exchanges.filter((e) => !recordsOf(e));
  return bad.length === 0 ? undefined : noEvidence(`${what} needs 200 JSON arrays, but ${describeAnswers(bad)}`);
}

/** A finding for a request whose response was not the listing it needed. */
export function unusable(exchange: Exchange, severity: Finding['severity'], what: string): Finding {
  const got = exchange.error ?? `status ${exchange.response?.status}, body ${preview(exchange.response?.text ?? '', 80)}`;
  return { severity, message: `${what}: the response was not a 200 JSON array`, expected: '200 with a JSON array', actual: got, exchange };
}

/** What a finding says: its message, what was expected and what came. */
export type Told = Required<Pick<Finding, 'message' | 'expected' | 'actual'>>;

/**
 * How a request that failed under load and again alone, while the target was still busy (see Exchange.stillBusy), is
 * graded, in every check that judges its failure: first sent with more than 2 in flight, its failure is the kit's own
 * load's doing, a figure of the timing section and no finding, unless it may be the request's own too (`ownToo`: a
 * 5xx alone that is not load shed); else a warning saying `told`.
 *
 * @example
 * if (exchange.error && first && exchange.stillBusy) return stillBusyFindings(exchange, first, { message, expected, actual });
 */
export function stillBusyFindings(exchange: Exchange, first: Exchange, told: Told, ownToo = false): Finding[] {
  if (!ownToo && (first.inFlight ?? 1) > ALONE_IN_FLIGHT) return [];
  return [{ severity: 'warning', ...told, exchange }];
}
