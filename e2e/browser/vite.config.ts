import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const repo = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', repo), 'utf8')) as {
  exports: { '.': { browser: { default: string } } };
};

/**
 * The browser suite's test pages, built against the *built* package: `context-ledger` is what
 * package.json's `exports` name under the `browser` condition (`dist/entries/browser.js`), as a
 * host's bundler would pick. (The package cannot be aliased to its own folder: Vite then falls
 * back to `main`.)
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: { 'context-ledger': fileURLToPath(new URL(pkg.exports['.'].browser.default, repo)) } },
  // The OPFS worker page starts a module worker that imports the bundle.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../../.out/e2e-browser', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        conformance: fileURLToPath(new URL('conformance.html', import.meta.url)),
        harness: fileURLToPath(new URL('harness.html', import.meta.url)),
      },
    },
  },
});
