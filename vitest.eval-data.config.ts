import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The test suites that read the shared evaluation data (absent from a user's clone), apart from
// `npm test`: `npm run eval:data-tests`, with CONTEXT_LEDGER_DATA naming the data directory
// (default ../shared/data). They fail, rather than skip, when the data is missing.
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/eval-data/**/*.test.ts'], exclude: ['node_modules/**'] },
});
