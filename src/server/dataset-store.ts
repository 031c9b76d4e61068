import { inDocumentedOrder } from '../fixtures/documented-order.ts';
import type { Dataset } from '../fixtures/generate-dataset.ts';
import { createRecordStore, type RecordStore } from './record-store.ts';

/** The collections being served, swappable as a whole (watch mode reloads a data file into it). */
export interface DatasetStore {
  /** The store of one collection (by data-file key); empty when the dataset has none. */
  collection(key: string): RecordStore;
  /** Serves `data` from now on; requests already running finish on the old data. */
  replace(data: Dataset): void;
}

/** Creates a store serving `data` in the documented order, whatever its order. */
export function createDatasetStore(data: Dataset): DatasetStore {
  let stores = new Map<string, RecordStore>();
  const empty = createRecordStore([]);
  const store: DatasetStore = {
    collection: (key) => stores.get(key) ?? empty,
    replace(next) {
      stores = new Map(Object.entries(next).map(([key, records]) => [key, createRecordStore(inDocumentedOrder(records))]));
    },
  };
  store.replace(data);
  return store;
}
