/** A record as served: a JSON object whose keys follow its schema's property order. */
export type ApiRecord = Record<string, unknown>;

/** Records of every collection, keyed as in a data file: `{ alerts: [...], sensors: [...] }`. */
export type Dataset = Record<string, readonly ApiRecord[]>;

/** How much data to generate, and from which seed. */
export interface DatasetOptions {
  readonly seed: number;
  /**
   * Record count per data-file key, e.g. `{ alerts: 300 }`; a collection not named gets the
   * `default-count` of its `x-collection` in the spec.
   */
  readonly counts?: Readonly<Record<string, number>>;
}
