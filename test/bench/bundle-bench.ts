/**
 * Package sizes per runtime entry, and the example Worker (demo/worker) in workerd: upload size
 * as wrangler reports it, cold start to the first query, and memory after 10k nodes.
 *
 * Memory is the resident set of the local workerd process (Linux /proc), the only figure that
 * can be read: workerd exposes no heap or wasm-memory statistics to a Worker. It holds what
 * Cloudflare's 128 MB isolate limit counts (JS heap, wasm linear memories) plus what that limit
 * does not (machine code compiled from the 34 MB duckdb-eh.wasm, the runtime itself), so the
 * growth between two readings is an upper bound on what the step added to the isolate.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { bundleWorker, EXAMPLE_CONFIG, ensureBuiltDist, ROOT, startWorker } from '../workerd/worker-harness.js';
import { type BenchRow, percentile, timed } from './bench-util.js';
import { bulkTransactions } from './ledger-bench.js';

const require = createRequire(import.meta.url);
const TIMEOUT_MS = 300_000;
/** Cloudflare's limit on a Worker's compressed upload (paid plan). */
const UPLOAD_LIMIT_GZIP_KIB = 10 * 1024;
const WARM_COMMITS = 20;

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
    '@dqbd/tiktoken/lite/tiktoken_bg.wasm',
    '@dqbd/tiktoken/encoders/o200k_base.json',
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

/** Resident memory of the workerd processes this process started, in MiB (Linux). */
async function workerdRssMiB(): Promise<number> {
  let kibTotal = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    if (/^Name:\s+workerd$/m.test(status) && Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) === process.pid) {
      kibTotal += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    }
  }
  return Math.round(kibTotal / 1024);
}

async function workerRows(): Promise<BenchRow[]> {
  const outdir = await mkdtemp(join(tmpdir(), 'ledger-bundle-bench-'));
  try {
    const size = await bundleWorker(EXAMPLE_CONFIG, outdir, TIMEOUT_MS);
    const rows: BenchRow[] = [
      { metric: 'example Worker upload (wrangler deploy --dry-run)', value: size.uploadKiB, unit: 'KiB' },
      {
        metric: 'example Worker upload, gzip',
        value: size.gzipKiB,
        unit: 'KiB',
        target: `<= ${UPLOAD_LIMIT_GZIP_KIB}`,
        met: size.gzipKiB <= UPLOAD_LIMIT_GZIP_KIB,
      },
    ];
    const workerJs = await readFile(join(outdir, 'worker.js'));
    rows.push({ metric: 'example Worker worker.js (JS incl. o200k ranks)', value: kib(workerJs.length), unit: 'KiB' });

    const worker = await startWorker({ configPath: EXAMPLE_CONFIG, outdir, timeoutMs: TIMEOUT_MS });
    try {
      const commit = (session: string, tx: unknown) =>
        worker
          .fetch(`/sessions/${session}/commit`, { method: 'POST', body: JSON.stringify(tx) }, TIMEOUT_MS)
          .then(async (response) => {
            if (response.status !== 200)
              throw new Error(`commit answered ${response.status}: ${await response.text()}`);
          });
      const idleRss = await workerdRssMiB();
      const [, firstMs] = await timed(() => commit('bench', RMDX_SESSION[0]));
      const openRss = await workerdRssMiB();
      const warm: number[] = [];
      for (const tx of RMDX_SESSION.slice(1, 1 + WARM_COMMITS)) warm.push((await timed(() => commit('bench', tx)))[1]);
      const [, bulkMs] = await timed(() => commit('bench', { ...bulkTransactions(10_000)[0], epoch: 100 }));
      const bulkRss = await workerdRssMiB();
      await commit('second', RMDX_SESSION[0]);
      const secondRss = await workerdRssMiB();
      rows.push(
        {
          metric: 'workerd start to listening (compiles the bundle wasm)',
          value: Math.round(worker.startMs),
          unit: 'ms',
        },
        { metric: 'first request: open DuckDB + tiktoken, first commit', value: Math.round(firstMs), unit: 'ms' },
        {
          metric: 'cold start to first query (the two above)',
          value: Math.round(worker.startMs + firstMs),
          unit: 'ms',
        },
        {
          metric: `warm commit over HTTP p50 (${warm.length} small transactions)`,
          value: percentile(warm, 50),
          unit: 'ms',
        },
        {
          metric: 'commit of 10k nodes (4 edges each, ~500-char bodies) in one transaction',
          value: Math.round(bulkMs),
          unit: 'ms',
        },
        { metric: 'workerd RSS after start', value: idleRss, unit: 'MiB' },
        { metric: 'workerd RSS with one session open', value: openRss, unit: 'MiB' },
        { metric: 'workerd RSS after 10k nodes in that session', value: bulkRss, unit: 'MiB' },
        { metric: 'RSS growth for 10k nodes (upper bound on isolate growth)', value: bulkRss - openRss, unit: 'MiB' },
        { metric: 'RSS growth for a second session (its own DuckDB)', value: secondRss - bulkRss, unit: 'MiB' },
      );
    } finally {
      await worker.dispose();
    }
    return rows;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

export async function bundleBench(): Promise<BenchRow[]> {
  await ensureBuiltDist(TIMEOUT_MS);
  return [...(await entryRows()), ...(await workerRows())];
}
