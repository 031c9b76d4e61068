import type { OperationContext } from '../check.ts';
import { missingKeys, wrongKeys, type AuthVariant } from '../checks/wrong-keys.ts';
import type { SendOptions } from '../http-client.ts';
import type { Exchange } from '../types.ts';
import { createListingModel, type ListingModel } from './listing-model.ts';
import { createQueryMemo, createReferencePages } from './reference-pages.ts';

/** What the exploration checks of one operation share: the model, the target's reference pages, sent queries. */
export interface ExplorationState {
  readonly model: ListingModel;
  readonly reference: ReturnType<typeof createReferencePages>;
  /** Sends a query, once: the checks judge the same generated requests by different rules. */
  readonly send: (query: Record<string, string>, options?: SendOptions) => Promise<Exchange>;
  /** Wrong credentials generated requests may carry instead of the key (none when the operation is not secured). */
  readonly wrong: readonly AuthVariant[];
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
    state = context.listing().then((listing) => ({
      model: createListingModel(listing),
      reference: createReferencePages(context),
      send: createQueryMemo(context),
      wrong,
    }));
    states.set(context, state);
  }
  return state;
}
