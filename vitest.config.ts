import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One config for the library's Node test suite. DuckDB-WASM instantiation is CPU-heavy (~1.5 s
// per database on this 2-core machine), so files run in forks with a bounded pool.
export default defineConfig({
  // Examples and the demo import the package by name, as users do; tests run them from source.
  resolve: {
    alias: [
      { find: /^context-ledger$/, replacement: fileURLToPath(new URL('./src/entries/node.ts', import.meta.url)) },
      {
        find: /^context-ledger\/ai-sdk$/,
        replacement: fileURLToPath(new URL('./src/integrations/ai-sdk/index.ts', import.meta.url)),
      },
      {
        find: /^context-ledger\/openai-agents$/,
        replacement: fileURLToPath(new URL('./src/integrations/openai-agents/index.ts', import.meta.url)),
      },
      {
        find: /^context-ledger\/cloudflare-agents$/,
        replacement: fileURLToPath(new URL('./src/integrations/cloudflare-agents/index.ts', import.meta.url)),
      },
      {
        find: /^context-ledger\/recorder$/,
        replacement: fileURLToPath(new URL('./src/recorder/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Suites over ../shared/data run with `npm run eval:data-tests` (vitest.eval-data.config.ts).
    exclude: ['test/bench/**', 'test/eval-data/**', 'node_modules/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
