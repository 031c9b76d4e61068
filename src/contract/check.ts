import type { PairTally } from './explore/pair-tally.ts';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { ListingParameters } from '../spec/listing-parameters.ts';
import type { Operation } from '../spec/operations.ts';
import type { SendOptions } from './http-client.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import type { PrismValidator } from './prism.ts';
import type { Exchange, Failure, SkipCause } from './types.ts';

/** A failure as a check reports it; the runner adds the check's name and the operation. */
export type Finding = Omit<Failure, 'check' | 'operationId'>;

/** A check that gave no verdict, and why (see {@link SkipCause}). */
export interface Skip {
  readonly skip: string;
  readonly cause: SkipCause;
}

/** The rule does not apply to this target or run: no verdict, and the run is not the worse for it. */
export const notApplicable = (reason: string): Skip => ({ skip: reason, cause: 'not-applicable' });

/** The check could not observe what it checks: SKIP with the reason, and the run is inconclusive. */
export const noEvidence = (reason: string): Skip => ({ skip: reason, cause: 'no-evidence' });

/** A page of the listing as the kit read it, at the listing's page size. */
export interface ReadPage {
  readonly page: number;
  readonly records: readonly Record<string, unknown>[];
  readonly exchange: Exchange;
}

/** Where a listing longer than --max-pages ends, found in O(log n) requests (see `read-listing.ts`). */
export interface ListingEnd {
  /** Records up to the end: (last page - 1) * size + the last page's length. */
  readonly total: number;
  /** The last page with records. */
  readonly last: ReadPage;
  /** A page after the last whose records all repeat the last page's: records past the end. */
  readonly repeated?: ReadPage;
  /** The pages with records read from the prefix's last page on (it, the search for the end, sampled pairs), by number. */
  readonly pages: readonly ReadPage[];
}

/** The records of an operation, read page by page at the largest page size. */
export interface Listing {
  /** The records read: all of them when `complete`, else the first `pages` pages (the prefix). */
  readonly records: readonly Record<string, unknown>[];
  /** False when --max-pages stopped the enumeration before the end. */
  readonly complete: boolean;
  /** Why the listing could not be read, when a page was not a 200 array. */
  readonly problem?: string;
  /** A record seen on two pages (the first repeat), when the listing's pages overlap. */
  readonly repeated?: { readonly id: string; readonly page: number };
  /** Pages requested to read the prefix. */
  readonly pages: number;
  /** The exchanges of the prefix's pages, in page order (what a finding about the listing rests on). */
  readonly pageExchanges: readonly Exchange[];
  /** The page size it was read at, and the --max-pages that bounded it. */
  readonly size: number;
  readonly maxPages: number;
  /** For a listing longer than --max-pages: where it ends. */
  readonly end?: ListingEnd;
  /** For a listing longer than --max-pages whose end could not be found: why. */
  readonly endProblem?: string;
}

/**
 * The exchanges the listing's size rests on: every page read when it was read to its end, else the pages read
 * far in to find its end.
 */
export const sizeExchanges = (listing: Listing): readonly Exchange[] =>
  listing.complete ? listing.pageExchanges : (listing.end?.pages.map((p) => p.exchange) ?? []);

/**
 * The exchanges of the listing's pages that hold its records `start`..`start + count - 1` (those read).
 *
 * @example
 * pagesHolding(listing, 150, 2); // the page of size 100 holding records 150 and 151: [page 2]
 */
export const pagesHolding = (listing: Pick<Listing, 'pageExchanges' | 'size'>, start: number, count: number): readonly Exchange[] =>
  listing.pageExchanges.slice(Math.floor(start / listing.size), Math.floor((start + count - 1) / listing.size) + 1);

/** How many records the listing has, when known: read to its end, or its end found. */
export const listingTotal = (listing: Listing): number | undefined => (listing.complete ? listing.records.length : listing.end?.total);

/** What a check that needs the whole listing says of one longer than --max-pages: it does not apply here. */
export const tooLong = (listing: Listing, what = 'this needs the whole listing'): Skip =>
  notApplicable(
    `${what}, and the listing is longer than --max-pages ${listing.maxPages}: ${listing.records.length.toLocaleString('en-US')} records read${listing.end ? ` of ${listing.end.total.toLocaleString('en-US')}` : ''}`,
  );

/** What a check knows of the operation under test and how it talks to the target. */
export interface OperationContext {
  readonly operation: Operation;
  readonly document: OpenAPIObject;
  readonly parameters: ListingParameters;
  /** Judges headers of exchanges (prism-http). */
  readonly prism: PrismValidator;
  /** Judges bodies and records: the spec's schemas as a server under test is held to them (its target view). */
  readonly schemas: SchemaValidator;
  readonly maxResponseTimeMs?: number;
  /** Seed of the generated requests, and how many each exploration sends. */
  readonly seed: number;
  readonly examples: number;
  /** The key the run sends (to derive wrong keys that resemble it); never shown. */
  readonly apiKey: string | undefined;
  /** Requests the run may have in flight: above 1, a check may send requests it will need ahead, at once. */
  readonly concurrency: number;
  /** Whether a path can be sent as written (a network target; an in-process fetch takes parsed Requests). */
  readonly pathsAsWritten: boolean;
  /** GET the operation's path with `query`; the exchange is recorded for the response checks. */
  send(query: Readonly<Record<string, string>>, options?: SendOptions): Promise<Exchange>;
  /** The whole listing (cached; bounded by --max-pages). */
  listing(): Promise<Listing>;
  /** The listing if a check has asked for it, else undefined (nothing is sent). */
  listingRead(): Promise<Listing> | undefined;
  /** The pairs of parameter classes the explorations' covering set judged (one tally per operation). */
  readonly pairs: PairTally;
}

interface CheckBase {
  /** Stable name, used by --checks and in every report. */
  readonly name: string;
  /** One line: what conforming means. */
  readonly description: string;
  /** What the check needs from the target to give a verdict, in words (shown when it is skipped). */
  readonly evidence: string;
  /** The option that turns an opt-in check on; without it the check is not requested by default. */
  readonly optIn?: string;
  /** When the check does not apply to this run, why (it is then reported as skipped). */
  skip?(context: OperationContext): Skip | undefined;
  /** Each finding judges one answer on its own, never against another: data that changes cannot explain it. */
  readonly judgesEachAnswer?: boolean;
}

/** A check applied to every response the kit receives for an operation. */
export interface ResponseCheck extends CheckBase {
  readonly kind: 'response';
  /**
   * What the check needs among the answers (e.g. one record in a 200 array): `found` tells it of one answer;
   * when no answer has it, the check is skipped for want of evidence, `missing` saying what was not seen.
   */
  readonly needs?: { found(exchange: Exchange): boolean; readonly missing: string };
  inspect(exchange: Exchange, context: OperationContext): Finding[];
}

/** A check that sends its own requests to probe one behaviour. */
export interface ScenarioCheck extends CheckBase {
  readonly kind: 'scenario';
  /**
   * Checks of one group share what they send through one context (the explorations' model and answers), so
   * they run one after another on it, even when other checks run side by side.
   */
  readonly group?: string;
  /**
   * Its requests are many and mostly sent ahead (the explorations): queued, they go after other checks', which
   * wait on each answer in turn, so those are not held up behind them.
   */
  readonly background?: boolean;
  run(context: OperationContext): Promise<Finding[] | Skip>;
}

/** Either kind of check. */
export type Check = ResponseCheck | ScenarioCheck;

/** What every outcome of `check` on an operation starts with. */
export const outcomeBase = (check: Check, operationId: string) => ({
  check: check.name,
  operationId,
  description: check.description,
  evidence: check.evidence,
});

/** The records of a 200 JSON array response, or undefined when the response is anything else. */
export function recordsOf(exchange: Exchange): Record<string, unknown>[] | undefined {
  const { response } = exchange;
  if (response?.status !== 200 || !Array.isArray(response.json)) return undefined;
  return response.json as Record<string, unknown>[];
}

/** A short, stable identity for a record: its id when it has one, else its JSON. */
export const identity = (record: unknown): string =>
  typeof record === 'object' && record !== null && typeof (record as { id?: unknown }).id === 'string'
    ? (record as { id: string }).id
    : JSON.stringify(record);

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
 * A count of what exchanges got, kept as they come: as small as the number of different answers, and described
 * the same whatever order they came in (most frequent first, ties in alphabetical order).
 *
 * @example
 * const tally = answerTally();
 * tally.add(exchange);
 * tally.describe(); // 'the request got 503 text/html'
 */
export function answerTally() {
  const counts = new Map<string, number>();
  let total = 0;
  return {
    add(exchange: Exchange): void {
      const what = describeAnswer(exchange);
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
 * No evidence unless every exchange is a 200 JSON array: the skip to return, naming what came back
 * instead, or undefined when they all are.
 */
export function needRecords(exchanges: readonly Exchange[], what: string): Skip | undefined {
  const bad = exchanges.filter((e) => !recordsOf(e));
  return bad.length === 0 ? undefined : noEvidence(`${what} needs 200 JSON arrays, but ${describeAnswers(bad)}`);
}

/**
 * No evidence unless the listing was read with at least `min` records and, when `extent`, its number of
 * records is known (read to its end, or, past --max-pages, its end found).
 */
export function needListing(listing: Listing, min: number, extent = false): Skip | undefined {
  if (listing.problem && listing.records.length < min) return noEvidence(`the listing could not be read: ${listing.problem}`);
  if (extent && listingTotal(listing) === undefined) {
    return noEvidence(
      listing.problem
        ? `the listing could not be read to its end: ${listing.problem}`
        : `the listing is longer than --max-pages ${listing.maxPages} and its end could not be found: ${listing.endProblem ?? ''}`,
    );
  }
  if (listing.records.length < min)
    return noEvidence(`needs at least ${min} record${min === 1 ? '' : 's'} in the listing, the target has ${listing.records.length}`);
  return undefined;
}

/** A finding for a request whose response was not the listing it needed. */
export function unusable(exchange: Exchange, severity: Finding['severity'], what: string): Finding {
  const got = exchange.error ?? `status ${exchange.response?.status}, body ${preview(exchange.response?.text ?? '', 80)}`;
  return { severity, message: `${what}: the response was not a 200 JSON array`, expected: '200 with a JSON array', actual: got, exchange };
}

/**
 * `send` for each item, the answers in the items' order: all at once when the run may have requests in flight
 * (each request is made, so placed, in the items' order before any answer is awaited), else one after another.
 * A check judging a fixed list of probes does not wait for each in turn behind the explorations' requests.
 *
 * @example
 * const answers = await sendEach(context, terms, (term) => context.send({ search: term }));
 */
export async function sendEach<T, R>(
  context: OperationContext,
  items: readonly T[],
  send: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (context.concurrency > 1) return Promise.all(items.map((item, i) => send(item, i)));
  const answers: R[] = [];
  for (const [i, item] of items.entries()) answers.push(await send(item, i));
  return answers;
}

/** The largest page size the spec allows (its default when it states no maximum): what listings are read at. */
export const largestPageSize = ({ pageSize }: ListingParameters): number =>
  typeof pageSize.schema.maximum === 'number' ? pageSize.schema.maximum : Number(pageSize.schema.default);

/** The first page number the spec allows (1 when it states no minimum). */
export const firstPage = ({ page }: ListingParameters): number => (typeof page.schema.minimum === 'number' ? page.schema.minimum : 1);

/** How a listing's pages are sent: before queued requests, since most checks wait on the listing. */
export const LISTING_READ: SendOptions = { priority: 1 };

/** The query for page `page` of size `size`, with the spec's parameter names. */
export function pageQuery(
  context: OperationContext,
  page: number,
  size: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ...extra, [context.parameters.page.name]: String(page), [context.parameters.pageSize.name]: String(size) };
}

/**
 * Sends `queries` again, all at once (so that they see the data at one moment, however often it changes), and
 * resolves whether `disagree` still holds of their records (undefined when one is not a 200 array).
 */
export function recheckOf(
  context: OperationContext,
  queries: readonly Readonly<Record<string, string>>[],
  disagree: (records: readonly Record<string, unknown>[][]) => boolean,
): () => Promise<boolean | undefined> {
  return async () => {
    const answers = (await Promise.all(queries.map((query) => context.send(query)))).map(recordsOf);
    return answers.every((records) => records !== undefined) ? disagree(answers as Record<string, unknown>[][]) : undefined;
  };
}

/**
 * A listing read to its end, counted again: the pages it had and two more (room for records that arrived
 * since), with `extra` queries, all sent at once. When the listing now goes past them, all of it is sent again
 * at once over twice as many pages (up to --max-pages), so that every count comes from one moment. Undefined
 * when a page is not a 200 array or the listing goes past --max-pages.
 */
export async function countAgain(
  context: OperationContext,
  listing: Listing,
  extra: readonly Readonly<Record<string, string>>[] = [],
): Promise<{ count: number; extra: (Record<string, unknown>[] | undefined)[] } | undefined> {
  const { size } = listing;
  const first = firstPage(context.parameters);
  for (let wanted = Math.min(listing.maxPages, listing.pages + 2); ; wanted = Math.min(listing.maxPages, wanted * 2)) {
    const answers = await Promise.all([
      ...Array.from({ length: wanted }, (_, k) => context.send(pageQuery(context, first + k, size))),
      ...extra.map((query) => context.send(query)),
    ]);
    let count = 0;
    for (const exchange of answers.slice(0, wanted)) {
      const records = recordsOf(exchange);
      if (!records) return undefined;
      count += records.length;
      if (records.length < size) return { count, extra: answers.slice(wanted).map(recordsOf) };
    }
    if (wanted === listing.maxPages) return undefined;
  }
}

/** The identities of records, to compare listings. */
export const identities = (records: readonly unknown[]): string[] => records.map(identity);
