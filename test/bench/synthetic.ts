/**
 * Synthetic ledgers for the benchmarks. No Node imports: the workerd bench Worker builds the same
 * transactions inside the isolate.
 */
import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';

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

/** A bulk graph: `n` messages with ~500-character bodies, 4 depends_on edges per node to earlier nodes. */
export function bulkTransactions(n: number, batch = 10_000, offset = 0): Transaction[] {
  const txs: Transaction[] = [];
  for (let start = 0; start < n; start += batch) {
    const nodes: NodeInput[] = [];
    const edges: EdgeInput[] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) {
      const id = `n${offset + i}`;
      nodes.push({ id, kind: i % 10 === 0 ? 'task' : 'message', body: syntheticBody(offset + i) });
      for (let k = 1; k <= 4; k++) {
        const j = i - k * 7 - (i % 13);
        if (j >= 0) edges.push({ from: id, to: `n${offset + j}`, kind: 'depends_on' });
      }
    }
    txs.push({ epoch: 1 + start / batch, nodes, edges });
  }
  return txs;
}

/** The workerd bench's warm step (POST /warm, and the same calls run in Node): a task requiring an open claim. */
export function warmStepTransaction(i: number, epoch: number): Transaction {
  return {
    epoch,
    nodes: [
      { id: `task${i}`, kind: 'task', body: `Step ${i}: fix the status decoding` },
      { id: `claim${i}`, kind: 'claim', status: 'open', body: `Claim ${i}: byte 4 holds the speed` },
    ],
    edges: [{ from: `task${i}`, to: `claim${i}`, kind: 'requires' }],
  };
}
