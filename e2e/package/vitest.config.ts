import { defineConfig } from 'vitest/config';

// The packaging test (`npm run test:package`): one file, run after `npm run build`, against the
// packed tarball installed into a temporary folder (no alias to the sources here).
export default defineConfig({
  test: {
    include: ['e2e/package/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
