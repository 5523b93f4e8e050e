import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';

/** Percentile of a sample (nearest-rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const rssMiB = (): number => Math.round(process.memoryUsage().rss / 2 ** 20);

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

/** One-minute load average, for reading the wall-time figures (a 2-core machine is saturated at 2). */
export const loadAverage = (): number => Math.round(loadavg()[0]! * 100) / 100;

export interface BenchRow {
  metric: string;
  value: number;
  unit: string;
  target?: string;
  met?: boolean;
}

export function printTable(title: string, rows: readonly BenchRow[]): void {
  console.log(`\n## ${title}\n`);
  console.log('| metric | value | unit | target | met |');
  console.log('|---|---:|---|---|---|');
  for (const r of rows) {
    const v = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(2);
    console.log(
      `| ${r.metric} | ${v} | ${r.unit} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : 'no'} |`,
    );
  }
}

export function writeJson(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** Deterministic pseudo-random text of about `chars` characters, code-like, so token counts are realistic. */
export function syntheticBody(i: number, chars = 500): string {
  const words = [
    'frame',
    'crc',
    'parse',
    'speed',
    'motor',
    'reply',
    'int16',
    'encoder',
    'torque',
    'status',
    'buffer',
    'def',
    'return',
    'self',
    'data[4]',
    '0x9C',
    'struct.unpack_from("<h", data, 4)',
  ];
  let s = `# node ${i}\n`;
  let x = (i * 2654435761) >>> 0;
  while (s.length < chars) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += `${words[x % words.length]}${x % 7 === 0 ? '\n' : ' '}`;
  }
  return s.slice(0, chars);
}
