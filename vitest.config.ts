import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'bots/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most end-to-end files wait on spawned bots, servers and browsers rather than compute, so three files
    // at a time finish the suite in about half the time on two cores (vitest's default there is one).
    maxWorkers: 3,
    minWorkers: 1,
  },
});
