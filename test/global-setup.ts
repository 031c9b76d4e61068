// Once per `vitest run`, before any file: the CLI tests start dist/cli/main.js, so dist/ must match src/.
// Under `npm test` the build step has just run and this only compares times; after an edit to src/, a
// plain `npx vitest run` rebuilds first (about 10 s) instead of testing stale code.
import { ensureBuilt } from './built-cli.ts';

export default function setup(): void {
  ensureBuilt();
}
