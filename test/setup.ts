// Runs in every test file. The everyday suite shares one module graph per worker (isolate: false in
// vitest.config.ts), so what a file changes globally is put back after it.
import { afterAll, afterEach, vi } from 'vitest';
import { stopStarted } from './cli/cli-helpers.ts';
import { releaseClosedTargets } from './closed-target.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

afterAll(async () => {
  await stopStarted();
  releaseClosedTargets();
});
