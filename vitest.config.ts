import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-http-client.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Hang guards, not speed requirements: a test may take minutes on a loaded two-core machine (e.g. a worker
    // process started, killed and started again) and must still pass. Tests wait for conditions, never for time.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
    reporters: ['default'],
  },
});
