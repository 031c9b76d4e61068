// A step of `npm run build`, after tsc: the query parameters' schemas compiled by Ajv ahead of time, as
// an ES module (dist/runtimes/query-validators.js) for the Cloudflare Workers entry. Workers refuse code
// made from strings at run time (new Function), which is how Ajv compiles; the same Ajv options and
// formats as createSchemaValidator, so a 400 reads the same on every runtime.
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = new URL('../..', import.meta.url);
const { listOperations } = await import(new URL('dist/spec/operations.js', root).href);
const document = JSON.parse(readFileSync(new URL('dist/openapi.json', root), 'utf8'));

const schemas = new Map();
for (const operation of listOperations(document)) {
  for (const parameter of operation.queryParameters) schemas.set(JSON.stringify(parameter.schema), parameter.schema);
}
const ajv = new Ajv2020({ strict: false, allErrors: true, code: { source: true, esm: true } });
(addFormats.default ?? addFormats)(ajv);
ajv.addSchema({ ...document, $id: 'tempmon:openapi' });
const keys = [...schemas.keys()];
for (const [i, key] of keys.entries()) ajv.addSchema(schemas.get(key), `query${i}`);
const code = (standaloneCode.default ?? standaloneCode)(ajv, Object.fromEntries(keys.map((_, i) => [`query${i}`, `query${i}`])));
const table = `\n/** Each validator by its schema's JSON. */\nexport const QUERY_VALIDATORS = new Map([${keys
  .map((key, i) => `[${JSON.stringify(key)}, query${i}]`)
  .join(', ')}]);\n`;
writeFileSync(new URL('dist/runtimes/query-validators.js', root), `${code}${table}`);
