import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { DataFileError, loadDataFile } from '../fixtures/load-data-file.ts';
import type { DatasetStore } from '../store/dataset-store.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';

/**
 * Reloads a data file into `store` whenever it changes. A bad edit keeps the last good data and logs
 * why (file, record, field). The folder is watched, not the file, because editors often save by
 * writing a new file and renaming it over the old one.
 */
export function watchDataFile(path: string, spec: LoadedSpec, store: DatasetStore, log: (line: string) => void): FSWatcher {
  const validator = createSchemaValidator(spec.document);
  const file = resolve(path);
  let timer: NodeJS.Timeout | undefined;
  const reload = () => {
    try {
      const data = loadDataFile(path, spec.document, validator);
      store.replace(data);
      const counts = Object.entries(data).map(([key, records]) => `${records.length} ${key}`);
      log(`reloaded ${path} (${counts.join(', ')})`);
    } catch (error) {
      const reason = error instanceof DataFileError ? error.message : String(error);
      log(`kept the last good data: ${reason}`);
    }
  };
  const watcher = watch(dirname(file), (_, name) => {
    if (name !== basename(file)) return;
    // Editors write in bursts; reload once the file has settled.
    clearTimeout(timer);
    timer = setTimeout(reload, 100);
  });
  watcher.on('close', () => clearTimeout(timer));
  return watcher;
}
