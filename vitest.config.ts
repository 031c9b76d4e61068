import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SkipNotice from './test/skip-notice.ts';

// Two suites, told apart by the file name:
//   everyday  test/**/*.test.ts       `npm test` (vitest run --project everyday): under a minute with tsc and the build
//   slow      test/**/*.slow.test.ts  `npm run test:slow` (vitest run --project 'slow*'): slow by nature, run by CI too;
//             the few that time a target against the machine's own CPU (slow-alone) run after the rest, one at a time
// `npx vitest run <file>` runs any one file whatever its suite; a bare `npx vitest run` runs both.
//
// The CLI tests run the built CLI (dist/cli/main.js, as the package's bin does): test/global-setup.ts
// rebuilds dist/ first when a source is newer, so a plain `npx vitest run` never tests stale code.
/** Slow files whose targets' timing is what they prove: run after the others, alone. */
const SLOW_ALONE = [
  'test/contract/run/postgres.slow.test.ts',
  'test/contract/run/memory.slow.test.ts',
  'test/live/live-contract.slow.test.ts',
];

export default defineConfig({
  test: {
    // After the summary, what was skipped for want of something here (Chromium) and how to install it.
    reporters: ['default', new SkipNotice()],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    // expect.poll returns as soon as its condition holds; the wait only bounds a condition that never comes,
    // far above what anything polled takes here (a log line, a socket closing), so load does not fail it.
    expect: { poll: { timeout: 10_000 } },
    // Vitest's default is one worker per core but one: a single worker on 2 cores, where most files also
    // wait on sockets, child processes or Chromium part of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'everyday',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.slow.test.ts'],
          // One module graph per worker: the spec, its validators and src/ load once, not once per file.
          // Files must not leave global state behind: test/setup.ts puts back timers and env after each test,
          // and never vi.spyOn a global you restore by hand (test/server/scenarios.test.ts says why).
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/**/*.slow.test.ts'],
          exclude: SLOW_ALONE,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'slow-alone',
          include: SLOW_ALONE,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // After the rest of the slow suite, one file at a time: what they prove rests on the target's own time
          // (a PostgreSQL search of seconds against the default --timeout; 250,000 alerts judged within the default
          // --max-duration; replicas of the live mock moving while the kit reads them), which other files' CPU on a
          // 2-core machine would change.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
