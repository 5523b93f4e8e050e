/**
 * `npm run build`, second step: bundles the Workers entry (dist/entries/workerd.js, from tsc) into
 * dist/workerd/index.js, which the package's `workerd` export condition selects.
 *
 * Why a pre-bundle: duckdb-wasm 1.32.0 leaves its browser-blocking build out of its package
 * `exports`, so a Worker's bundler refuses the entry's import of it unless the Worker adds an
 * alias. Here it is inlined (esbuild turns the entry's dynamic import into a lazily evaluated
 * module, so the workerd shims still run before DuckDB's glue is evaluated). Everything else
 * stays an import the Worker's bundler resolves: the packages (one copy of apache-arrow and
 * tiktoken with the host's), tiktoken's ranks JSON, and the three `.wasm` files, which wrangler's
 * default rules compile at upload. The output sits at the same depth as dist/entries/, so the
 * entry's relative import of wasm/trampolines/trampolines.wasm still points into the package.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const BLOCKING = '@duckdb/duckdb-wasm/dist/duckdb-browser-blocking.mjs';
// Resolved by file path: the `exports` map would refuse it. The `.` entry is exported.
const duckdbDist = dirname(fileURLToPath(import.meta.resolve('@duckdb/duckdb-wasm')));

await build({
  absWorkingDir: root,
  entryPoints: ['dist/entries/workerd.js'],
  outfile: 'dist/workerd/index.js',
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [
    {
      name: 'workerd-externals',
      setup(b) {
        b.onResolve({ filter: /^@duckdb\/duckdb-wasm\/dist\/duckdb-browser-blocking\.mjs$/ }, () => ({
          path: join(duckdbDist, 'duckdb-browser-blocking.mjs'),
        }));
        b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: args.path, external: true }));
        // Bare specifiers (packages, node: builtins DuckDB's glue only requires on Node) stay imports.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path === BLOCKING ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
