/**
 * `npm run build`, second step: writes dist/workerd/index.js, the Workers entry the package's
 * `workerd` export condition selects, from dist/entries/workerd.js (tsc's output).
 *
 * Why a bundle at all: duckdb-wasm 1.32.0 leaves its browser-blocking build out of its package
 * `exports`, so a Worker's bundler refuses the engine's import of it unless the Worker adds an
 * alias. Here that build is inlined (esbuild turns the engine's dynamic import into a lazily
 * evaluated module, so the workerd shims still run before DuckDB's glue is evaluated).
 *
 * Only what must be is inlined: the entry, the dist modules that import the blocking build, and
 * the build itself. Every other module of dist/ stays an import of the shipped file, so a Worker
 * that also imports `context-ledger/rdf` or `context-ledger/adapters` gets one copy of each
 * module — one `LedgerError` class, so `instanceof` holds whichever entry threw. Packages
 * (apache-arrow and tiktoken, one copy with the host's), tiktoken's ranks JSON and the four
 * `.wasm` files stay imports the Worker's bundler resolves; wrangler's default rules compile the
 * `.wasm` ones at upload.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const outfile = join(dist, 'workerd/index.js');
const BLOCKING = '@duckdb/duckdb-wasm/dist/duckdb-browser-blocking.mjs';
// Resolved by file path: the `exports` map would refuse it. The `.` entry is exported.
const duckdbDist = dirname(fileURLToPath(import.meta.resolve('@duckdb/duckdb-wasm')));

/** A relative specifier from the output file to `file`, with forward slashes. */
function fromOutput(file) {
  const path = relative(dirname(outfile), file).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/** Modules of dist/ that must be inlined: they name the blocking build. */
const importsBlocking = (file) => readFileSync(file, 'utf8').includes(BLOCKING);

await build({
  absWorkingDir: root,
  entryPoints: ['dist/entries/workerd.js'],
  outfile,
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
        b.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point') return undefined;
          if (args.path === BLOCKING) return { path: join(duckdbDist, 'duckdb-browser-blocking.mjs') };
          // Bare specifiers (packages, node: builtins DuckDB's glue only requires on Node) stay imports.
          if (!args.path.startsWith('.')) return { path: args.path, external: true };
          const file = resolve(args.resolveDir, args.path);
          if (args.path.endsWith('.wasm')) return { path: fromOutput(file), external: true };
          const inDist = file.startsWith(dist + sep);
          if (inDist && !importsBlocking(file)) return { path: fromOutput(file), external: true };
          return undefined;
        });
      },
    },
  ],
});
