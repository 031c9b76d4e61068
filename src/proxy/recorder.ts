import { existsSync, renameSync, writeFileSync } from 'node:fs';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { collectionFor, collectionsOf } from '../fixtures/collections.ts';
import { loadDataFile } from '../fixtures/load-data-file.ts';
import type { ApiRecord } from '../spec/records.ts';
import { serializeDataset } from '../fixtures/serialize-dataset.ts';
import { redact, type Secrets } from '../secrets/redact.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';

/**
 * Collects the records seen through the proxy into a data file that `tempmon serve --data` serves:
 * deduplicated by id, only records that conform to the spec, never a secret (any value containing the
 * key is redacted), written atomically (a temporary file renamed over the old one), and extending
 * what the file already held.
 */
export function createRecorder(path: string, document: OpenAPIObject, validator: SchemaValidator) {
  const data = new Map<string, Map<string, ApiRecord>>(collectionsOf(document).map((c) => [c.key, new Map()]));
  if (existsSync(path)) {
    for (const [key, records] of Object.entries(loadDataFile(path, document, validator))) {
      for (const record of records) data.get(key)?.set(String(record.id), record);
    }
  }
  let pending: NodeJS.Timeout | undefined;
  const write = () => {
    pending = undefined;
    const dataset = Object.fromEntries([...data].map(([key, records]) => [key, [...records.values()]]));
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, serializeDataset(dataset));
    renameSync(temporary, path);
  };
  return {
    /** Adds the records of a 200 listing response of the collection whose items are `schema`. */
    add(schema: string, records: unknown, secrets: Secrets): void {
      if (!Array.isArray(records)) return;
      const collection = collectionFor(document, schema);
      const store = data.get(collection.key)!;
      let changed = false;
      for (const raw of records) {
        const record = JSON.parse(redact(JSON.stringify(raw), secrets)) as ApiRecord;
        if (typeof record?.id !== 'string' || validator.validate(schema, record).length > 0) continue;
        store.set(record.id, record);
        changed = true;
      }
      if (changed) pending ??= setTimeout(write, 50);
    },
    /** Writes what is pending now (on shutdown, and in tests). */
    flush(): void {
      if (pending) {
        clearTimeout(pending);
        write();
      }
    },
  };
}
