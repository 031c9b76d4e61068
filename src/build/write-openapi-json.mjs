// A step of `npm run build`: the spec as JSON (the CLI parses no YAML at start-up).
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const root = new URL('../..', import.meta.url);
writeFileSync(new URL('dist/openapi.json', root), JSON.stringify(parse(readFileSync(new URL('spec/openapi.yaml', root), 'utf8'))));
