// The last step of `npm run build`: the bins made executable (tsc writes files -rw-r--r--, and npm sets the
// mode of a package's own bins only at install, before `prepare` has built them), then the stamp that tells
// build-if-stale.mjs when dist/ was built.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../..', import.meta.url);
const { bin } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
for (const path of Object.values(bin)) chmodSync(new URL(path, root), 0o755);
writeFileSync(new URL('dist/.build-stamp', root), `${new Date().toISOString()}\n`);
