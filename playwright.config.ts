import { defineConfig } from '@playwright/test';
import { EXPLORER_ORIGIN, HARNESS_ORIGIN } from './e2e/browser/pages.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/chromium.js';

/** The browser suite (`npm run test:e2e`, which builds first), on Debian's Chromium. */

const served = (origin: string): string => {
  const { hostname, port } = new URL(origin);
  return `--host ${hostname} --port ${port} --strictPort`;
};

export default defineConfig({
  testDir: 'e2e/browser',
  testMatch: '*.spec.ts',
  outputDir: 'test-results/e2e',
  // One browser at a time: each page instantiates DuckDB's 34 MB module on 2 shared cores.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 240_000,
  expect: { timeout: 60_000 },
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    viewport: { width: 1440, height: 1000 },
  },
  // The built pages, served by `vite preview` (the specs never start servers themselves).
  webServer: [
    {
      command: `npx vite preview --config e2e/browser/vite.config.ts ${served(HARNESS_ORIGIN)}`,
      url: `${HARNESS_ORIGIN}/harness.html`,
      timeout: 60_000,
      reuseExistingServer: false,
    },
    {
      command: `npx vite preview --config demo/explorer/vite.config.ts ${served(EXPLORER_ORIGIN)}`,
      url: `${EXPLORER_ORIGIN}/`,
      timeout: 60_000,
      reuseExistingServer: false,
    },
  ],
});
