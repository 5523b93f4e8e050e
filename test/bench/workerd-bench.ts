/**
 * The ledger inside workerd (Miniflare's local workerd), through the benchmark Worker in
 * ./workerd/: cold start, warm request latency, a 10k-node ledger's memory.
 *
 * Memory, exactly what is measured: workerd gives a Worker no heap statistics, so the isolate
 * reports the size of DuckDB's wasm linear memory and DuckDB's own accounting (read inside the
 * isolate through the engine), and this process reads the resident set of the workerd process it
 * started (Linux /proc). RSS holds what Cloudflare's 128 MB isolate limit counts (JS heap, wasm
 * memories) plus what it does not (machine code compiled from the 34 MB duckdb-eh.wasm, the
 * runtime itself), so its growth across the 10k-node ingest is an upper bound on the isolate's.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../../src/entries/node.js';
import { type Ledger, ledgerCore } from '../../src/ledger/ledger.js';
import { bundleWorker, ensureBuiltDist, ROOT, startWorker } from '../workerd/worker-harness.js';
import { type BenchRow, mib, percentile, targetRow, timed } from './bench-util.js';
import { warmStepTransaction } from './synthetic.js';

const TIMEOUT_MS = 300_000;
const CONFIG = join(ROOT, 'test/bench/workerd/wrangler.jsonc');
const WARM_REQUESTS = 30;
/**
 * Requests an isolate serves (on another ledger) before the steady-state sample: V8 optimises
 * DuckDB's wasm and the library's JS as they run, and in Node the same request measured 23 ms
 * over the first 30 after start-up and 10 ms after ~230 (load ~3, .scratch harness). Both are
 * printed: the first 30 requests after open, and 30 on a fresh ledger once the isolate is warm.
 */
const WARMUP_REQUESTS = 200;

/** The workerd processes this process started (Linux /proc). */
async function workerdPids(): Promise<string[]> {
  const pids: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    if (/^Name:\s+workerd$/m.test(status) && Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) === process.pid)
      pids.push(pid);
  }
  return pids;
}

/** Resident memory of the workerd processes this process started, in MiB (Linux). */
export async function workerdRssMiB(): Promise<number> {
  let kibTotal = 0;
  for (const pid of await workerdPids()) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    kibTotal += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return Math.round(kibTotal / 1024);
}

/** CPU time (user + system, all threads) of the given processes so far, in ms (clock ticks of 10 ms). */
async function cpuMs(pids: readonly string[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks * 10;
}

/**
 * The warm request's three calls in Node, as the bench Worker makes them (one agent step on a
 * ledger that grows by it): CPU time per call, since workerd's clocks cannot time its parts, and
 * engine round trips per call (statements and Arrow inserts), counted around the engine.
 */
export async function warmRequestInNode(label: string, warmup = 0, steps = WARM_REQUESTS + 1): Promise<BenchRow[]> {
  if (warmup > 0) {
    const other = await openLedger();
    for (let i = 0; i < warmup; i++) await agentStep(other, i);
    await other.close();
  }
  const ledger = await openLedger();
  try {
    const engine = ledgerCore(ledger).config.engine;
    let trips = 0;
    for (const method of ['query', 'run', 'insertIPC'] as const) {
      const call = engine[method].bind(engine) as (...args: unknown[]) => Promise<unknown>;
      (engine as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        trips++;
        return call(...args);
      };
    }
    const cpu: number[][] = [];
    const counts: number[][] = [];
    for (let i = 0; i < steps; i++) {
      const marks: Array<[NodeJS.CpuUsage, number]> = [[process.cpuUsage(), trips]];
      const mark = () => marks.push([process.cpuUsage(marks[0]![0]), trips]);
      await agentStep(ledger, i, mark);
      if (i === 0) continue; // the first request plans the statements
      const ms = marks.slice(1).map(([c]) => (c.user + c.system) / 1000);
      cpu.push([ms[0]!, ms[1]! - ms[0]!, ms[2]! - ms[1]!, ms[2]!]);
      counts.push(marks.slice(1).map(([, t], k) => t - marks[k]![1]));
    }
    const p50 = (k: number) =>
      Math.round(
        percentile(
          cpu.map((c) => c[k]!),
          50,
        ) * 100,
      ) / 100;
    const trip = (k: number) =>
      percentile(
        counts.map((c) => c[k]!),
        50,
      );
    return [
      { metric: `the same three calls in Node${label}, CPU p50: all three`, value: p50(3), unit: 'ms' },
      {
        metric: '  the same, CPU mean (compare with workerd process CPU per request)',
        value: Math.round((cpu.reduce((sum, c) => sum + c[3]!, 0) / cpu.length) * 100) / 100,
        unit: 'ms',
      },
      { metric: `  commit (${trip(0)} engine round trips)`, value: p50(0), unit: 'ms' },
      { metric: `  asOf (${trip(1)} engine round trips)`, value: p50(1), unit: 'ms' },
      { metric: `  materialize (${trip(2)} engine round trips)`, value: p50(2), unit: 'ms' },
    ];
  } finally {
    await ledger.close();
  }
}

/** The bench Worker's /warm step: commit 2 nodes, asOf, materialize (`mark` after each). */
async function agentStep(ledger: Ledger, i: number, mark: () => void = () => {}): Promise<void> {
  const epoch = ledger.lastEpoch + 1;
  await ledger.commit(warmStepTransaction(i, epoch));
  mark();
  await ledger.asOf({ epoch });
  mark();
  await ledger.materialize({ budget: { tokens: 4000 } });
  mark();
}

interface WarmSample {
  wall: number[];
  noop: number[];
  /** The isolate's own times: commit, asOf, materialize. */
  parts: number[][];
  /** workerd's CPU per request and per empty request, means. */
  cpu: number;
  noopCpu: number;
}

export async function workerdBench(): Promise<BenchRow[]> {
  await ensureBuiltDist(TIMEOUT_MS);
  const outdir = await mkdtemp(join(tmpdir(), 'ledger-workerd-bench-'));
  try {
    await bundleWorker(CONFIG, outdir, TIMEOUT_MS);
    const worker = await startWorker({ configPath: CONFIG, outdir, timeoutMs: TIMEOUT_MS });
    try {
      const call = async (path: string, method = 'POST'): Promise<unknown> => {
        const response = await worker.fetch(path, { method }, TIMEOUT_MS);
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text}`);
        return JSON.parse(text);
      };
      const idleRss = await workerdRssMiB();
      const [, openMs] = await timed(() => call('/open?name=warm'));
      const [, firstMs] = await timed(() => call('/warm?name=warm&i=0'));
      // Each warm request is followed by an empty one (/noop): the HTTP round trip alone, the floor.
      // workerd's CPU time is read around both (whole runs, since /proc counts 10 ms ticks).
      const pids = await workerdPids();
      const sampleWarm = async (name: string): Promise<WarmSample> => {
        const out: WarmSample = { wall: [], noop: [], parts: [], cpu: 0, noopCpu: 0 };
        for (let i = 1; i <= WARM_REQUESTS; i++) {
          const c0 = await cpuMs(pids);
          const [answer, ms] = await timed(() => call(`/warm?name=${name}&i=${i}`));
          const c1 = await cpuMs(pids);
          const [, noopMs] = await timed(() => call('/noop'));
          out.noopCpu += ((await cpuMs(pids)) - c1) / WARM_REQUESTS;
          out.cpu += (c1 - c0) / WARM_REQUESTS;
          out.wall.push(ms);
          out.noop.push(noopMs);
          out.parts.push((answer as { ms: number[] }).ms);
        }
        return out;
      };
      const early = await sampleWarm('warm');
      const warmRows = (sample: WarmSample, what: string, target: boolean): BenchRow[] => {
        const part = (k: number): number =>
          percentile(
            sample.parts.map((p) => p[k]!),
            50,
          );
        const metric = `warm request p50: commit 2 nodes + asOf + materialize, over HTTP, ${what}`;
        const floor = { value: percentile(sample.noop, 50), name: 'the same HTTP round trip to an empty route' };
        return [
          target
            ? targetRow(metric, percentile(sample.wall, 50), 'ms', 10, true, floor)
            : { metric, value: percentile(sample.wall, 50), unit: 'ms', floor: floor.value, floorName: floor.name },
          { metric: '  p95', value: percentile(sample.wall, 95), unit: 'ms' },
          // workerd's clock is coarse (whole ms here) and, deployed, stands still while a request
          // computes: what the isolate reports, not a profile.
          { metric: '  as the isolate timed it, p50: commit', value: part(0), unit: 'ms' },
          { metric: '  as the isolate timed it, p50: asOf', value: part(1), unit: 'ms' },
          { metric: '  as the isolate timed it, p50: materialize', value: part(2), unit: 'ms' },
          { metric: '  workerd process CPU per request (mean)', value: Math.round(sample.cpu), unit: 'ms' },
          { metric: '  workerd process CPU per empty request (mean)', value: Math.round(sample.noopCpu), unit: 'ms' },
        ];
      };
      const openRss = await workerdRssMiB();
      await call('/open?name=big');
      const before = (await call('/memory?name=big', 'GET')) as { wasmBytes: number; duckdbBytes: number };
      const beforeRss = await workerdRssMiB();
      const [, ingestMs] = await timed(() => call('/ingest?name=big&n=10000'));
      const after = (await call('/memory?name=big', 'GET')) as {
        wasmBytes: number;
        duckdbBytes: number;
        memoryLimit: string;
      };
      const afterRss = await workerdRssMiB();
      // The steady-state sample comes after the memory figures (a 10k-node ledger and one small
      // idle one, as before), on a fresh ledger once the isolate has served WARMUP_REQUESTS: each
      // ledger's kept working-set plan pins DuckDB memory, and the isolate's limit is 61 MiB.
      await call('/close?name=big');
      await call('/open?name=warmup');
      for (let i = 0; i < WARMUP_REQUESTS; i++) await call(`/warm?name=warmup&i=${i}`);
      await call('/open?name=steady');
      await call('/warm?name=steady&i=0');
      const steady = await sampleWarm('steady');
      if (process.env.BENCH_DEBUG) console.log('last warm request, as the isolate timed it:', steady.parts.at(-1));
      const inNodeEarly = await warmRequestInNode(', the first requests');
      const inNodeSteady = await warmRequestInNode(` after ${WARMUP_REQUESTS} on another ledger`, WARMUP_REQUESTS);
      return [
        {
          metric: 'workerd start to listening (compiles the bundle wasm)',
          value: Math.round(worker.startMs),
          unit: 'ms',
        },
        { metric: 'first open: DuckDB + tiktoken in the isolate', value: Math.round(openMs), unit: 'ms' },
        {
          metric: 'cold start to first answer (the two above + first step)',
          value: Math.round(worker.startMs + openMs + firstMs),
          unit: 'ms',
        },
        ...warmRows(early, `the first ${WARM_REQUESTS} after open`, false),
        ...inNodeEarly,
        ...warmRows(
          steady,
          `${WARM_REQUESTS} on a new ledger once the isolate has served ${WARMUP_REQUESTS + WARM_REQUESTS + 2} steps (and the 10k ingest)`,
          true,
        ),
        ...inNodeSteady,
        { metric: 'commit 10k bulk nodes inside the isolate (1 transaction)', value: Math.round(ingestMs), unit: 'ms' },
        {
          metric: `DuckDB wasm memory read in the isolate, before the 10k nodes`,
          value: mib(before.wasmBytes),
          unit: 'MiB',
        },
        targetRow(
          `DuckDB wasm memory read in the isolate, with a 10k-node ledger (+ an idle one); limit ${after.memoryLimit}`,
          mib(after.wasmBytes),
          'MiB',
          128,
          true,
        ),
        {
          metric: 'DuckDB memory in use (duckdb_memory), read in the isolate',
          value: mib(after.duckdbBytes),
          unit: 'MiB',
        },
        { metric: 'workerd process RSS after start', value: idleRss, unit: 'MiB' },
        { metric: 'workerd process RSS with one small ledger', value: openRss, unit: 'MiB' },
        { metric: 'workerd process RSS with the 10k-node ledger too', value: afterRss, unit: 'MiB' },
        {
          metric: 'RSS growth over the 10k-node ingest (bound on isolate growth)',
          value: afterRss - beforeRss,
          unit: 'MiB',
        },
      ];
    } finally {
      await worker.dispose();
    }
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
