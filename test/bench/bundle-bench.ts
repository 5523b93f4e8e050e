/**
 * Package sizes per runtime entry, and the example Worker's (demo/worker) upload size as wrangler
 * reports it. The ledger running inside workerd is workerd-bench.ts.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { bundleWorker, EXAMPLE_CONFIG, ensureBuiltDist, ROOT } from '../workerd/worker-harness.js';
import { type BenchRow, targetRow } from './bench-util.js';

const require = createRequire(import.meta.url);
const TIMEOUT_MS = 300_000;
/** Cloudflare's limit on a Worker's compressed upload (paid plan). */
const UPLOAD_LIMIT_GZIP_KIB = 10 * 1024;

const kib = (bytes: number): number => Math.round(bytes / 1024);

/**
 * Wasm and `?url` imports stay out of the JS bundle (they ship as separate assets), and the
 * Workers alias for duckdb-wasm's unexported browser-blocking build is applied as wrangler does.
 */
const assetsAside: Plugin = {
  name: 'assets-aside',
  setup(b) {
    b.onResolve({ filter: /\.wasm$|\?url$/ }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /^@duckdb\/duckdb-wasm\/dist\/duckdb-browser-blocking\.mjs$/ }, () => ({
      // Next to a file the package does export.
      path: join(dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm')), 'duckdb-browser-blocking.mjs'),
    }));
  },
};

/** Each dist/entries/*.js bundled with everything it imports, under its own export condition. */
async function entryRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dir = join(ROOT, 'dist/entries');
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.js')).sort()) {
    const entry = basename(file, '.js');
    const result = await build({
      entryPoints: [join(dir, file)],
      bundle: true,
      write: false,
      format: 'esm',
      platform: entry === 'node' ? 'node' : 'browser',
      conditions: entry === 'workerd' ? ['workerd', 'worker', 'browser'] : [entry],
      plugins: [assetsAside],
      logLevel: 'silent',
    });
    const js = result.outputFiles[0]?.contents ?? new Uint8Array();
    rows.push({ metric: `${entry} entry: JS bundle (wasm assets aside)`, value: kib(js.length), unit: 'KiB' });
    rows.push({ metric: `${entry} entry: JS bundle, gzip`, value: kib(gzipSync(js).length), unit: 'KiB' });
  }
  // The Node entry loads DuckDB's and tiktoken's JS with createRequire at run time (not bundled
  // above), plus these assets.
  let nodeAssets = 0;
  for (const asset of [
    '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm',
    '@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs',
    'tiktoken/lite/tiktoken_bg.wasm',
    'tiktoken/encoders/o200k_base.json',
  ]) {
    nodeAssets += (await readFile(require.resolve(asset))).length;
  }
  rows.push({
    metric: 'node entry: assets read at run time (duckdb-eh.wasm, blocking build, tiktoken, o200k)',
    value: kib(nodeAssets),
    unit: 'KiB',
  });
  return rows;
}

/** The example Worker's upload as wrangler would deploy it. */
async function workerRows(): Promise<BenchRow[]> {
  const outdir = await mkdtemp(join(tmpdir(), 'ledger-bundle-bench-'));
  try {
    const size = await bundleWorker(EXAMPLE_CONFIG, outdir, TIMEOUT_MS);
    const workerJs = await readFile(join(outdir, 'worker.js'));
    return [
      { metric: 'example Worker upload (wrangler deploy --dry-run)', value: size.uploadKiB, unit: 'KiB' },
      targetRow('example Worker upload, gzip', size.gzipKiB, 'KiB', UPLOAD_LIMIT_GZIP_KIB, true),
      { metric: 'example Worker worker.js (JS incl. o200k ranks)', value: kib(workerJs.length), unit: 'KiB' },
    ];
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

export async function bundleBench(): Promise<BenchRow[]> {
  await ensureBuiltDist(TIMEOUT_MS);
  return [...(await entryRows()), ...(await workerRows())];
}
