import type { OperationContext } from '../check.ts';
import type { Exchange } from '../types.ts';
import { createListingModel, type ListingModel } from './listing-model.ts';
import { createQueryMemo, createReferencePages } from './reference-pages.ts';

/** What the exploration checks of one operation share: the model, the target's reference pages, sent queries. */
export interface ExplorationState {
  readonly model: ListingModel;
  readonly reference: ReturnType<typeof createReferencePages>;
  /** Sends a query, once: the checks judge the same generated requests by different rules. */
  readonly send: (query: Record<string, string>) => Promise<Exchange>;
}

const states = new WeakMap<OperationContext, Promise<ExplorationState>>();

/** The exploration state of an operation, made once from its enumerated listing. */
export function explorationOf(context: OperationContext): Promise<ExplorationState> {
  let state = states.get(context);
  if (!state) {
    state = context.listing().then((listing) => ({ model: createListingModel(listing), reference: createReferencePages(context), send: createQueryMemo(context) }));
    states.set(context, state);
  }
  return state;
}
