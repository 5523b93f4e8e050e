import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export { bulkTransactions, syntheticBody } from './synthetic.js';

/** Percentile of a sample (nearest-rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const rssMiB = (): number => Math.round(process.memoryUsage().rss / 2 ** 20);
export const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

/** A full garbage collection, so heap figures count live objects only (flag set at run time). */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => gc();
})();

export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

/**
 * Wall time and this process's CPU time (user + system, all threads). On a shared machine the
 * wall time grows with everyone else's load; CPU time mostly does not, so both are reported.
 */
export async function timedCpu<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [out, wall, (c.user + c.system) / 1000];
}

/**
 * Latency samples of `fn`: at least `minRuns`, then more until `maxRuns` or `budgetMs` of total
 * time, so slow sizes (100k) stay affordable and fast ones get a stable median.
 */
export async function sample(
  fn: () => Promise<unknown>,
  { minRuns = 5, maxRuns = 30, budgetMs = 4000 } = {},
): Promise<number[]> {
  const out: number[] = [];
  const start = performance.now();
  while (out.length < maxRuns && (out.length < minRuns || performance.now() - start < budgetMs)) {
    out.push((await timed(fn))[1]);
  }
  return out;
}

/** One-minute load average, for reading the wall-time figures (a 2-core machine is saturated at 2). */
export const loadAverage = (): number => Math.round(loadavg()[0]! * 100) / 100;

export interface BenchRow {
  metric: string;
  value: number;
  unit: string;
  target?: string;
  met?: boolean;
  /** The same work done the cheapest known way, in the same unit (see floors.ts). */
  floor?: number;
  /** What the floor is. */
  floorName?: string;
}

/** A figure with a target: `value` against `limit`, `atMost` for latencies and sizes. */
export function targetRow(
  metric: string,
  value: number,
  unit: string,
  limit: number,
  atMost: boolean,
  floor?: { value: number; name: string },
): BenchRow {
  return {
    metric,
    value,
    unit,
    target: `${atMost ? '<=' : '>='} ${limit}`,
    met: atMost ? value <= limit : value >= limit,
    ...(floor ? { floor: floor.value, floorName: floor.name } : {}),
  };
}

/** How many times the floor's cost a figure is (throughputs are inverted, so > 1 means slower). */
export function ratioToFloor(r: BenchRow): number | undefined {
  if (r.floor === undefined || !(r.floor > 0) || !(r.value > 0)) return undefined;
  return r.unit.endsWith('/s') ? r.floor / r.value : r.value / r.floor;
}

const fmt = (v: number): string =>
  Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3);

export function printTable(title: string, rows: readonly BenchRow[]): void {
  console.log(`\n## ${title}\n`);
  console.log('| metric | value | unit | target | met | floor | × floor |');
  console.log('|---|---:|---|---|---|---|---:|');
  for (const r of rows) console.log(rowLine(r));
}

function rowLine(r: BenchRow): string {
  const ratio = ratioToFloor(r);
  const floor = r.floor === undefined ? '' : `${fmt(r.floor)} ${r.unit} (${r.floorName ?? 'floor'})`;
  return `| ${r.metric} | ${fmt(r.value)} | ${r.unit} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'met' : 'NOT met'} | ${floor} | ${ratio === undefined ? '' : `${ratio.toFixed(1)}×`} |`;
}

/** Every figure that has a target, from all suites run, in one table. */
export function printSummary(results: Record<string, readonly BenchRow[]>): void {
  const rows = Object.values(results).flatMap((rs) => rs.filter((r) => r.met !== undefined));
  if (rows.length === 0) return;
  printTable(`targets (${rows.filter((r) => r.met).length} of ${rows.length} met)`, rows);
}

export function writeJson(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}
