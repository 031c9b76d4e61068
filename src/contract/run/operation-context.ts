import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { listingParameters, type ListingParameters } from '../../spec/listing-parameters.ts';
import type { Operation } from '../../spec/operations.ts';
import { defaultPageSize, firstPage, largestPageSize, pageQuery } from '../model/listing-query.ts';
import type { Listing } from '../model/listing.ts';
import type { OperationContext } from '../model/context.ts';
import { listingPages, readListing } from '../model/read-listing.ts';
import type { Ask, HttpClient, SendOptions } from '../client/http-client.ts';
import type { Judges } from '../model/judges.ts';
import type { Track } from '../client/exchange-recorder.ts';
import { createPairTally } from '../model/pair-tally.ts';
import { listingTotal } from '../model/listing.ts';
import { pageAround } from '../model/page-around.ts';
import { createListingVersions, type ListingVersions } from '../versions/listing-versions.ts';
import { spanning } from '../versions/history.ts';
import { headQuery, isHeadRead } from '../model/head-read.ts';
import { containsTerm } from '../material/search-term.ts';
import { LISTING_READ } from '../model/listing-query.ts';
import type { Exchange } from '../types.ts';
import { identities, recordsOf } from '../records.ts';

/** Settings of a run that shape what checks send: what a context states of them, and the pages a listing is read to. */
export interface ContextSettings
  extends Pick<
    OperationContext,
    | 'maxResponseTimeMs'
    | 'seed'
    | 'examples'
    | 'covering'
    | 'coveringFrom'
    | 'specialTerms'
    | 'specialTermsFrom'
    | 'apiKey'
    | 'concurrency'
    | 'pathsAsWritten'
  > {
  readonly maxPages: number;
  /** Staleness beyond which no version explains an answer (--max-staleness). */
  readonly maxStalenessMs: number;
}

/** What a context may share with another, or take from the run. */
export interface ContextLinks {
  /** The context whose listing (read once, its exchanges tracked there), pairs tally and versions it shares. */
  readonly shared?: OperationContext;
  /** The priority of the context's requests in the client's queue (see SendOptions.priority) unless they say. */
  readonly priority?: number;
  /** The operation's versions, for a context that reads the listing afresh (a re-run) but judges by the same history. */
  readonly versions?: ListingVersions;
}

/**
 * Builds the context of one operation. Every request it sends is handed to `track` when it is made (so its
 * place is the order of the requests, whatever order answers come back in), for the response checks to see
 * all of them, whichever check sent them; `links` say what it shares with another context (see ContextLinks).
 */
export function createOperationContext(
  operation: Operation,
  document: OpenAPIObject,
  client: HttpClient,
  judges: Judges,
  settings: ContextSettings,
  track: Track,
  { shared, priority = 0, versions: own }: ContextLinks = {},
): OperationContext {
  const parameters = listingParameters(operation);
  const withPriority = (options: SendOptions | undefined) => (priority === 0 ? options : { priority, ...options });
  /** The client's asks for queries of the operation (its path, or a variant of it). */
  const asksOf = (queries: Parameters<OperationContext['sendTogether']>[0]) =>
    queries.map(({ query, options }) => ({ path: options?.path ?? operation.path, query, options: withPriority(options) }));
  let listing: Promise<Listing> | undefined;
  const versions = shared?.versions ?? own ?? versionsOf(operation, settings, () => context);
  const seen = sightingsOf(versions, parameters);
  const context: OperationContext = {
    operation,
    document,
    parameters,
    prism: judges.prism,
    schemas: judges.schemas,
    seed: settings.seed,
    examples: settings.examples,
    ...(settings.covering !== undefined ? { covering: settings.covering } : {}),
    ...(settings.specialTerms !== undefined ? { specialTerms: settings.specialTerms } : {}),
    ...(settings.coveringFrom ? { coveringFrom: settings.coveringFrom } : {}),
    ...(settings.specialTermsFrom ? { specialTermsFrom: settings.specialTermsFrom } : {}),
    apiKey: settings.apiKey,
    concurrency: settings.concurrency,
    pathsAsWritten: settings.pathsAsWritten,
    ...(settings.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: settings.maxResponseTimeMs } : {}),
    send(query, options) {
      const exchange = seen(
        query,
        options,
        client.send(operation.operationId, options?.path ?? operation.path, query, withPriority(options)),
      );
      track(exchange);
      return exchange;
    },
    sendTogether(queries) {
      const exchanges = client.sendTogether(operation.operationId, asksOf(queries));
      for (const [i, exchange] of exchanges.entries()) track(seen(queries[i]!.query, queries[i]!.options, exchange));
      return exchanges;
    },
    ...(client.sendOnOneConnection ? { sendOnOneConnection: oneConnection(client.sendOnOneConnection, operation, asksOf, track) } : {}),
    listing() {
      if (shared) return shared.listing();
      listing ??= readWhole(context, versions, settings);
      return listing;
    },
    listingRead: () => (shared ? shared.listingRead() : listing),
    pairs: shared ? shared.pairs : createPairTally(),
    versions,
  };
  return context;
}

/**
 * OperationContext.sendOnOneConnection through the client's `sendAll`: each request's place taken when the sequence
 * starts, in order, as `send` takes one when it is made.
 */
function oneConnection(
  sendAll: NonNullable<HttpClient['sendOnOneConnection']>,
  operation: Operation,
  asksOf: (queries: Parameters<OperationContext['sendTogether']>[0]) => readonly Ask[],
  track: Track,
): NonNullable<OperationContext['sendOnOneConnection']> {
  return (queries) => {
    const sent = sendAll(operation.operationId, asksOf(queries));
    for (const [i] of queries.entries()) track(sent.then((exchanges) => exchanges[i]!));
    return sent;
  };
}

/** The listing read whole (to --max-pages): its versions start from it, and its seams are read across. */
function readWhole(context: OperationContext, versions: ListingVersions, settings: ContextSettings): Promise<Listing> {
  const { parameters } = context;
  const read = readListing(listingPages(context), firstPage(parameters), largestPageSize(parameters), settings.maxPages, settings.seed);
  return read.then((done) => readAcrossSeams(context, startsVersions(versions, done)));
}

/** The versions of an operation's listing, reading its head through the context `of` gives. */
function versionsOf(operation: Operation, settings: ContextSettings, of: () => OperationContext): ListingVersions {
  const readHead = () => of().send(headQuery(of()), LISTING_READ);
  const readHeadWide = () => Promise.all(of().sendTogether([0, 1, 2].map(() => ({ query: headQuery(of()), options: LISTING_READ }))));
  const size = largestPageSize(listingParameters(operation));
  // `page` counts from 1 for the first page, whatever number the spec gives it.
  const below = {
    size,
    read: (page: number, at = size) => of().send(pageQuery(of(), firstPage(of().parameters) + page - 1, at), LISTING_READ),
  };
  return createListingVersions(
    { readHead, readHeadWide, below, countHeader: operation.paging.count, matches: containsTerm },
    settings.maxStalenessMs,
  );
}

/** Every answer to a read of the head is a sighting of a version of the listing: `seen` passes each exchange on. */
function sightingsOf(versions: ListingVersions, parameters: ListingParameters) {
  return (query: Readonly<Record<string, string>>, options: SendOptions | undefined, exchange: Promise<Exchange>) => {
    if (isHeadRead(parameters, query, options)) {
      const size = Number(query[parameters.pageSize.name] ?? defaultPageSize(parameters));
      void exchange.then((e) => versions.sighting(e, size));
    }
    return exchange;
  };
}

/** Seams read across, at most: those nearest the head, where most requests land. */
const MAX_SEAMS = 10;

/**
 * A small page read across each seam of the listing as read (see Torn), its answer mending the lineage, not
 * awaited: records a read in pages from versions apart skipped there are put in as soon as it is answered (an
 * answer the rule cannot explain meanwhile waits for it, see ListingVersions.mending).
 */
function readAcrossSeams(context: OperationContext, read: Listing): Listing {
  const lineage = context.versions.history.lineage();
  for (const [seam] of lineage ? pageStarts(read, 1).slice(0, MAX_SEAMS) : []) {
    const at = seam === undefined ? undefined : lineage!.position(seam);
    if (at === undefined) continue;
    // Where the seam stands from the head in the newest version known, in the middle of the page read.
    const { index, size } = pageAround(lineage!.ids.length - 1 - at, largestPageSize(context.parameters));
    const across = context.send(pageQuery(context, firstPage(context.parameters) + index, size));
    context.versions.mending(across.then((answer) => lineage!.mend(recordsOf(answer) ?? [])));
  }
  return read;
}

/** The identities of the first `n` records of each page of the listing as read, after its first page: its seams. */
const pageStarts = (read: Listing, n: number): string[][] =>
  read.pageExchanges.slice(1).map((e) => identities((recordsOf(e) ?? []).slice(0, n)));

/** The listing as read whole starts its versions (its span: from its first page sent to its last answered). */
function startsVersions(versions: ListingVersions, read: Listing): Listing {
  const span = spanning(read.pageExchanges.flatMap((e) => (e.span ? [e.span] : [])));
  if (span) {
    // A page read from another version may have skipped records above its first (its second, when the first was a repeat).
    const seams = new Set(pageStarts(read, 2).flat());
    versions.history.base(read.records, read.complete, span, listingTotal(read), seams);
  }
  return read;
}
