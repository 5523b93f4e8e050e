/**
 * The figures in NOTES.md: `npx tsx e2e/workerd/measure.ts`. Starts the probe Worker once per
 * nodejs_compat setting, times the cold and warm /probe requests, and reads the workerd
 * process's resident memory from /proc (Linux only).
 */
import { readdir, readFile } from 'node:fs/promises';
import { getJson, type ProbeEnv, startProbe } from './start-probe.js';

const TIMEOUT_MS = 120_000;
const WARM_REQUESTS = 20;

interface Timings {
  openMs: number;
  tokenInitMs: number;
  queriesMs: number;
}

/** Resident memory of the workerd processes this process started, in MiB. */
async function workerdRssMiB(): Promise<number> {
  let kib = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1];
    if (/^Name:\s+workerd$/m.test(status) && Number(ppid) === process.pid) {
      kib += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    }
  }
  return Math.round(kib / 1024);
}

async function timedProbe(url: URL): Promise<{ ms: number; timings: Timings }> {
  const started = performance.now();
  const { body } = await getJson<{ error?: string; timings: Timings }>(new URL('/probe', url), TIMEOUT_MS);
  if (body.error) throw new Error(body.error);
  return { ms: performance.now() - started, timings: body.timings };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const round = (n: number) => Math.round(n);

for (const env of ['', 'no_nodejs_compat'] as ProbeEnv[]) {
  const worker = await startProbe(env, TIMEOUT_MS);
  try {
    const idleRss = await workerdRssMiB();
    const cold = await timedProbe(worker.url);
    const coldRss = await workerdRssMiB();
    const warm: { ms: number; timings: Timings }[] = [];
    for (let i = 0; i < WARM_REQUESTS; i++) warm.push(await timedProbe(worker.url));
    console.log(
      JSON.stringify({
        nodejs_compat: env === '',
        bundle: worker.bundle,
        workerdStartMs: round(worker.startMs),
        coldRequestMs: round(cold.ms),
        coldInWorker: { openMs: round(cold.timings.openMs), tokenInitMs: round(cold.timings.tokenInitMs) },
        warmRequestMedianMs: round(median(warm.map((w) => w.ms))),
        warmQueriesMedianMs: round(median(warm.map((w) => w.timings.queriesMs))),
        rssMiB: { afterStart: idleRss, afterColdRequest: coldRss, afterWarm: await workerdRssMiB() },
      }),
    );
  } finally {
    await worker.dispose();
  }
}
