import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeDirectoryStorage, openLedger } from '../../src/entries/node.js';
import { type BenchRow, syntheticBody, timedCpu } from './bench-util.js';

/**
 * Reopening a directory ledger after `steps` agent steps (a message and a tool output each, the
 * output depending on the message), committed with the default options: the host never calls
 * `compact()`. Measured with the default compaction policy and with it turned off, alternately in
 * the same run.
 */
export async function reopenBench(steps = 5000): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const autoCompact of [false, true]) {
    const dir = await mkdtemp(join(tmpdir(), 'ctxl-reopen-bench-'));
    try {
      const storage = await nodeDirectoryStorage(dir, { autoCompact });
      const ledger = await openLedger({ storage });
      for (let s = 0; s < steps; s++) {
        await ledger.commit({
          epoch: s,
          nodes: [
            { id: `a${s}`, kind: 'message', role: 'assistant', body: syntheticBody(s, 200) },
            { id: `o${s}`, kind: 'message', role: 'tool', body: syntheticBody(1e6 + s, 800) },
          ],
          edges: [{ from: `o${s}`, to: `a${s}`, kind: 'depends_on' }],
        });
      }
      const logged = storage.logRecords;
      await ledger.close();
      const [reopened, ms] = await timedCpu(async () => openLedger({ storage: await nodeDirectoryStorage(dir) }));
      if (reopened.lastTx !== steps) throw new Error(`reopened ${reopened.lastTx} of ${steps} transactions`);
      await reopened.close();
      rows.push({
        metric: `reopen a directory ledger after ${steps} steps, ${autoCompact ? 'default policy' : 'autoCompact: false'} (${logged} log records)`,
        value: Math.round(ms),
        unit: 'ms',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
