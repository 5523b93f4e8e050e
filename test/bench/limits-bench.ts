import { openLedger } from '../../src/entries/node.js';
import { LIMITS } from '../../src/schema/limits.js';
import { type BenchRow, targetRow, timedCpu } from './bench-util.js';

/** Units whose runs are single pre-tokenizer pieces (the inputs whose token count was quadratic),
 * and a body mixing long runs of several of them. */
const RUN_UNITS = ['a', ' ', '#', '\n', '\u3000', '中', '🙂', 'x\u0301'];

function bodyOf(unit: string): string {
  if (unit !== 'mixed') return unit.repeat(Math.floor(LIMITS.maxBodyChars / unit.length));
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < LIMITS.maxBodyChars; i++) {
    const run = RUN_UNITS[i % RUN_UNITS.length]!.repeat(50_000);
    const part = run.slice(0, Math.min(run.length, LIMITS.maxBodyChars - length));
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, LIMITS.maxBodyChars);
}

/**
 * Commits of one body of the documented limit (LIMITS.maxBodyChars) made of runs of one
 * character, each in a fresh ledger: the worst wall time (target <= 2 s), its CPU time, and the
 * longest event-loop block seen meanwhile (a commit of one body is one synchronous count).
 */
export async function bodyLimitBench(): Promise<BenchRow[]> {
  let worst = { unit: '', ms: 0, cpuMs: 0 };
  const block = new LoopBlock();
  for (const unit of [...RUN_UNITS, 'mixed']) {
    const ledger = await openLedger();
    const body = bodyOf(unit);
    const [, ms, cpuMs] = await block.during(() =>
      timedCpu(() => ledger.commit({ epoch: 1, nodes: [{ id: 'result:big', kind: 'tool_result', body }] })),
    );
    console.log(`  commit of ${JSON.stringify(unit)} × limit: ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU`);
    if (ms > worst.ms) worst = { unit, ms, cpuMs };
    await ledger.close();
  }
  return [
    targetRow(
      `worst commit of a one-character body at the limit (${JSON.stringify(worst.unit)})`,
      Math.round(worst.ms),
      'ms',
      2000,
      true,
    ),
    { metric: 'its CPU time', value: Math.round(worst.cpuMs), unit: 'ms' },
    { metric: 'longest event-loop block during those commits', value: Math.round(block.max), unit: 'ms' },
  ];
}

/** The longest stretch the event loop did not turn while `fn` ran: the largest gap between the
 * ticks of a 1 ms interval (what a host's timers and I/O would have waited). */
export class LoopBlock {
  max = 0;

  async during<T>(fn: () => Promise<T>): Promise<T> {
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      this.max = Math.max(this.max, now - last);
      last = now;
    }, 1);
    try {
      return await fn();
    } finally {
      clearInterval(timer);
      this.max = Math.max(this.max, performance.now() - last);
    }
  }
}
