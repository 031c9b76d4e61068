import { firstPage } from '../model/listing-query.ts';
import type { OperationContext } from '../model/context.ts';
import { listingPages, readListing } from '../model/read-listing.ts';
import { missingKeys, wrongKeys, type AuthVariant } from '../material/wrong-keys.ts';
import { resolveRequest, type GeneratedRequest, type ResolvedRequest } from '../material/generated-request.ts';
import { coveringSet } from '../material/covering-set.ts';
import { createListingModel, type ListingModel } from '../material/listing-model.ts';
import { createQueryMemo, createReferencePages, type QueryMemo } from './reference-pages.ts';

/** What the exploration checks of one operation share: the model, the target's reference pages, sent queries. */
export interface ExplorationState {
  readonly model: ListingModel;
  readonly reference: ReturnType<typeof createReferencePages>;
  /** Sends a query, once: the checks judge the same generated requests by different rules. */
  readonly send: QueryMemo;
  /**
   * A generated request made concrete against the model as it was when first resolved: judged again after a
   * re-sync, it is the same request, so that what was sent ahead with the listing is what the judge reads.
   */
  resolve(generated: GeneratedRequest): ResolvedRequest;
  /** Wrong credentials generated requests may carry instead of the key (none when the operation is not secured). */
  readonly wrong: readonly AuthVariant[];
  /**
   * The covering set every exploration judges before its generated requests (drawn from the model as first
   * read), and what counts the pairs of each request judged into the operation's tally.
   */
  readonly covering: {
    readonly values: readonly GeneratedRequest[];
    /** The place of the first of `values` in the whole covering set (see OperationContext.coveringFrom). */
    readonly first: number;
    readonly judged: (index: number) => void;
  };
  /**
   * Sends a generated request as explore_search and explore_metadata judge it (resolved against the model),
   * ahead of the judge; one with wrong credentials is explore_pages' to judge, and is not sent.
   */
  sendAhead(generated: GeneratedRequest): Promise<unknown>;
  /**
   * Reads the listing again and starts the reference pages and sent queries afresh, sending what `prefetch`
   * sends (the requests a judge is about to make) at the same time, so all see one moment; when the listing differs
   * from the model (other records, order, or content), the model is the listing read now, and `changed` is
   * true. `read` is the listing read, serialized (to tell whether two reads agree), when it was read whole. A
   * listing longer than --max-pages is not read again (changed false, no read); what `prefetch` sends is.
   */
  resync(prefetch?: () => Promise<unknown>): Promise<Resync>;
  /**
   * Ends the judging again of one request after {@link resync}: when the listing did not change, the answers sent
   * before it serve the other requests again (with those sent since in their place), as they would have without it;
   * a search costs seconds on a large listing.
   */
  settle(): void;
}

/** What a re-sync found: whether the model changed, and the listing it read (serialized), when read whole. */
export interface Resync {
  readonly changed: boolean;
  readonly read?: string;
}

/**
 * The part of the covering set `context` judges, and what counts the pairs of each request judged. A run trimmed
 * to fit its time judges the first of the set (its order puts every class and the cheap pairs first); its
 * extension, the next ones (OperationContext.coveringFrom).
 */
function coveringPart(context: OperationContext, model: ListingModel): ExplorationState['covering'] {
  const made = coveringSet(model, context.parameters, context.seed);
  context.pairs.expect(made.pairs);
  const first = context.coveringFrom ?? 0;
  const requests = made.requests.slice(first, context.covering ?? made.requests.length);
  return { values: requests.map((r) => r.request), first, judged: (i) => context.pairs.judged(requests[i]!.classes) };
}

const states = new WeakMap<OperationContext, Promise<ExplorationState>>();

/** The exploration state of an operation, made once from its enumerated listing. */
export function explorationOf(context: OperationContext): Promise<ExplorationState> {
  let state = states.get(context);
  if (!state) {
    const header = context.operation.apiKeyHeader;
    const wrong = header
      ? [...missingKeys(header, undefined, context.seed), ...(context.apiKey ? wrongKeys(context.apiKey, context.seed, 8) : [])]
      : [];
    state = context.listing().then((listing) => {
      const model = createListingModel(listing);
      const send = createQueryMemo(context);
      const resolved = new WeakMap<GeneratedRequest, ResolvedRequest>();
      /** The answers sent before a re-sync whose listing had not changed, until it is settled. */
      let before: QueryMemo | undefined;
      const live = {
        model,
        // The reference pages go through the same memo: a generated request may be one of them.
        reference: createReferencePages(context, send),
        send,
        wrong,
        covering: coveringPart(context, model),
        resolve(generated: GeneratedRequest) {
          if (!resolved.has(generated)) resolved.set(generated, resolveRequest(generated, live.model, context.parameters));
          return resolved.get(generated)!;
        },
        sendAhead: async (generated: GeneratedRequest) => generated.credentials === undefined && live.send(live.resolve(generated).query),
        async resync(prefetch?: () => Promise<unknown>): Promise<Resync> {
          // The requests and reference pages start afresh either way: one of them may be what went stale.
          // Those sent since an earlier re-sync of the same judging are kept too, in place of older ones.
          if (before) before.takeIn(live.send);
          else before = live.send;
          live.send = createQueryMemo(context);
          live.reference = createReferencePages(context, live.send);
          // Past --max-pages the listing is not read again (its head, read before and after, tells one moment), but
          // what the judge compares is asked afresh, at once: answers kept from before would be judged as new.
          if (!live.model.complete) {
            await prefetch?.();
            return { changed: false };
          }
          // From the model as last read, not as first read: a listing that grew during the run must still be
          // read all at once, else its last pages come from a later moment than the rest.
          const ahead = Math.min(listing.maxPages, Math.floor(live.model.records.length / listing.size) + 2);
          const [fresh] = await Promise.all([
            readListing(listingPages(context), firstPage(context.parameters), listing.size, listing.maxPages, context.seed, ahead),
            prefetch?.(),
          ]);
          if (!fresh.complete) return { changed: false };
          // Compared whole, not by id: an edited record changes what a search finds.
          const read = JSON.stringify(fresh.records);
          if (read === JSON.stringify(live.model.records)) return { changed: false, read };
          live.model = createListingModel(fresh);
          // Answers sent before were judged by another model: every request is sent afresh.
          before = undefined;
          return { changed: true, read };
        },
        settle() {
          if (!before) return;
          before.takeIn(live.send);
          live.send = before;
          live.reference = createReferencePages(context, live.send);
          before = undefined;
        },
      };
      return live;
    });
    states.set(context, state);
  }
  return state;
}
