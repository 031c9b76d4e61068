import { createHash } from 'node:crypto';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { collectionsOf, countsOf } from '../fixtures/collections.ts';
import type { RecordFactory } from '../fixtures/record-factory.ts';
import type { Dataset, DatasetOptions } from '../spec/records.ts';
import { sortByOrder } from '../spec/record-order.ts';
import { createGeneratedStore } from './generated-store.ts';
import { createRecordStore, type RecordStore } from './record-store.ts';

/** The collections being served, swappable as a whole (watch mode reloads a data file into it). */
export interface DatasetStore {
  /** The store of one collection (by data-file key); empty when the dataset has none. */
  collection(key: string): RecordStore;
  /** The collections' data-file keys, in the spec's order for generated data. */
  keys(): readonly string[];
  /** Serves `data` from now on; requests already running finish on the old data. */
  replace(data: Dataset): void;
  /**
   * Names the data being served: the seed and counts, or a hash of the records. It differs between datasets,
   * so an ETag from a run with other data never matches, and it changes when watch mode loads other data.
   */
  readonly identity: string;
  /** Live data only: the clock (ms) a request's moment is read from when the app takes it. */
  readonly clock?: () => number;
}

/** The store of a collection the dataset does not have. */
export const EMPTY_STORE = createRecordStore([]);

/** A store serving `data` in each listing's order (its x-order in `document`), whatever the data's order. */
export function createDatasetStore(data: Dataset, document: OpenAPIObject): DatasetStore {
  const orders = new Map(collectionsOf(document).map((c) => [c.key, c.order]));
  let stores = new Map<string, RecordStore>();
  let identity = '';
  const store: DatasetStore = {
    collection: (key) => stores.get(key) ?? EMPTY_STORE,
    keys: () => [...stores.keys()],
    replace(next) {
      stores = new Map(Object.entries(next).map(([key, records]) => [key, createRecordStore(sortByOrder(records, orders.get(key) ?? []))]));
      identity = `data:${hashDataset(next)}`;
    },
    get identity() {
      return identity;
    },
  };
  store.replace(data);
  return store;
}

/** A store of generated data: records are made from the seed when needed, never all held at once. */
export function createGeneratedDatasetStore(factory: RecordFactory, options: DatasetOptions, document: OpenAPIObject): DatasetStore {
  const counts = countsOf(document, options.counts);
  const generated = new Map(
    collectionsOf(document).map((c) => [c.key, createGeneratedStore(factory, c.schema, counts[c.key] ?? 0, c.pooledFields)]),
  );
  let replaced: DatasetStore | undefined;
  // Asked for on every request (cache keys, ETags): made once.
  const generatedIdentity = `seed:${options.seed}:${Object.entries(counts)
    .map(([k, n]) => `${k}=${n}`)
    .join(',')}`;
  return {
    collection: (key) => replaced?.collection(key) ?? generated.get(key) ?? EMPTY_STORE,
    keys: () => replaced?.keys() ?? [...generated.keys()],
    replace(data) {
      replaced = createDatasetStore(data, document);
    },
    get identity() {
      return replaced ? replaced.identity : generatedIdentity;
    },
  };
}

/** A hash of a dataset's records, collection by collection in key order: once per load, never per request. */
function hashDataset(data: Dataset): string {
  const hash = createHash('sha1');
  for (const key of Object.keys(data).sort()) {
    hash.update(`${key}\u0000`);
    for (const record of data[key] ?? []) hash.update(`${JSON.stringify(record)}\n`);
  }
  return hash.digest('base64url');
}
