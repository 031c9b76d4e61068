// The data files of the runtimes with a file system (Bun, Deno), read as `tempmon serve --data` reads them.
// Apart from runtime-options.ts, which a Worker bundles: this reads files with node:fs.
import { loadDataFile } from '../fixtures/load-data-file.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import type { DataLoader } from '../options/runtime-options.ts';

/** Reads and validates every record of a data file against the served spec, as `tempmon serve --data`. */
export const loadData: DataLoader = (path, spec) => loadDataFile(path, spec.document, createSchemaValidator(spec.document));
