import { COLLECTIONS } from '../fixtures/collections.ts';
import { inDocumentedOrder } from '../fixtures/documented-order.ts';
import type { Dataset, DatasetOptions } from '../fixtures/generate-dataset.ts';
import type { RecordFactory } from '../fixtures/record-factory.ts';
import { createGeneratedStore } from './generated-store.ts';
import { createRecordStore, type RecordStore } from './record-store.ts';

/** The collections being served, swappable as a whole (watch mode reloads a data file into it). */
export interface DatasetStore {
  /** The store of one collection (by data-file key); empty when the dataset has none. */
  collection(key: string): RecordStore;
  /** Serves `data` from now on; requests already running finish on the old data. */
  replace(data: Dataset): void;
  /** Changes on every replace, so caches of answers know they are stale. */
  readonly version: number;
}

const EMPTY = createRecordStore([]);

/** A store serving `data` in the documented order, whatever its order. */
export function createDatasetStore(data: Dataset): DatasetStore {
  let stores = new Map<string, RecordStore>();
  let version = 0;
  const store: DatasetStore = {
    collection: (key) => stores.get(key) ?? EMPTY,
    replace(next) {
      stores = new Map(Object.entries(next).map(([key, records]) => [key, createRecordStore(inDocumentedOrder(records))]));
      version += 1;
    },
    get version() {
      return version;
    },
  };
  store.replace(data);
  return store;
}

/** A store of generated data: records are made from the seed when needed, never all held at once. */
export function createGeneratedDatasetStore(factory: RecordFactory, options: DatasetOptions): DatasetStore {
  const generated = new Map(
    Object.values(COLLECTIONS).map((c) => [c.key, createGeneratedStore(factory, c.schema, options.counts[c.key] ?? 0)]),
  );
  let replaced: DatasetStore | undefined;
  return {
    collection: (key) => replaced?.collection(key) ?? generated.get(key) ?? EMPTY,
    replace(data) {
      replaced = createDatasetStore(data);
    },
    get version() {
      return replaced ? replaced.version : 0;
    },
  };
}
