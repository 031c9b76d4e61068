import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generating datasets and starting the real CLI take a few seconds on a shared 2-core machine.
    testTimeout: 30_000,
  },
});
