import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The trace explorer: `npm run demo` serves it from source, `npm run demo:build` writes
 * `.out/explorer`. Every asset (DuckDB's wasm and worker, tiktoken's wasm and ranks) is emitted
 * by the build from the `new URL(…, import.meta.url)` defaults of the browser entry.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('../../.out/explorer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
});
