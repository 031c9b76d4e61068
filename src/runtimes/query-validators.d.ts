// Types of dist/runtimes/query-validators.js, which `npm run build` writes (src/build/write-worker-validators.mjs).
import type { ValidateFunction } from 'ajv';

/** The query parameters' validators, compiled ahead of time, by the JSON of their schema. */
export declare const QUERY_VALIDATORS: ReadonlyMap<string, ValidateFunction>;
