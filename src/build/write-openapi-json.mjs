// The last step of `npm run build`: the spec as JSON (the CLI parses no YAML at start-up), and the stamp
// that tells `build-if-stale.mjs` when dist/ was built.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const root = new URL('../..', import.meta.url);
writeFileSync(new URL('dist/openapi.json', root), JSON.stringify(parse(readFileSync(new URL('spec/openapi.yaml', root), 'utf8'))));
writeFileSync(new URL('dist/.build-stamp', root), `${new Date().toISOString()}\n`);
