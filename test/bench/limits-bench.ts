import { openLedger } from '../../src/entries/node.js';
import { ledgerCore } from '../../src/ledger/ledger.js';
import { LIMITS } from '../../src/schema/limits.js';
import type { EdgeInput, NodeInput } from '../../src/schema/types.js';
import { type BenchRow, syntheticBody, targetRow, timedCpu } from './bench-util.js';
import { sessionGraph } from './session-graph.js';

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
    // With the engine's write of the body, which a step-sized commit leaves to the next read
    // (write-behind): blocking the event loop, that write is part of what accepting the body costs.
    const [, ms, cpuMs] = await block.during(() =>
      timedCpu(async () => {
        await ledger.commit({ epoch: 1, nodes: [{ id: 'result:big', kind: 'tool_result', body }] });
        await ledgerCore(ledger).pending.flush();
      }),
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

/**
 * The longest event-loop block of each public call given inputs at the request limits, on a
 * session-shaped ledger of `n` nodes (see session-graph.ts) with a `depends_on` chain of `chain`
 * claims hanging off its task (the shape on which `hops: 1e9` used to walk for minutes): every
 * dimension at its ceiling at once. Target: about 1 s at most per call.
 */
export async function requestLimitsBench(n = 10_000, chain = 5_000): Promise<BenchRow[]> {
  const ledger = await openLedger();
  for (const tx of sessionGraph(n)) await ledger.commit(tx);
  const nodes: NodeInput[] = [];
  const edges: EdgeInput[] = [];
  for (let i = 0; i < chain; i++) {
    nodes.push({ id: `chain:${i}`, kind: 'claim', body: `claim ${i} depends on the one before` });
    edges.push({ from: i === 0 ? 'task' : `chain:${i - 1}`, to: `chain:${i}`, kind: 'depends_on' });
  }
  const epoch = ledger.lastEpoch;
  const commitBlock = new LoopBlock();
  await commitBlock.during(() => ledger.commit({ epoch, nodes, edges }));
  const ids = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const authority = ['user', 'agent', ...ids(LIMITS.maxAuthorityScopes - 2, 'scope:')];
  const calls: Array<[string, () => Promise<unknown>]> = [
    [
      'materialize: hops, maxNodes, roots and authority at their ceilings',
      async () =>
        (
          await ledger.materialize({
            budget: { tokens: 100_000 },
            hops: LIMITS.maxHops,
            maxNodes: LIMITS.maxClosureNodes,
            roots: ['task', ...ids(LIMITS.maxRoots - 1, 'chain:')],
            authority,
          })
        ).explanation.length,
    ],
    [
      'retrieve: artifacts, claims, authority, hops, perChannel, scores and text at their ceilings',
      () =>
        ledger.retrieve({
          text: syntheticBody(3, LIMITS.maxQueryChars),
          claims: ids(LIMITS.maxClaims, 'chain:'),
          artifacts: ids(LIMITS.maxArtifacts, 'src/mod').map((p, i) => ({ path: `${p}.c`, range: [i + 1, i + 40] })),
          authority,
          hops: LIMITS.maxHops,
          perChannel: LIMITS.maxPerChannel,
          scores: Object.fromEntries(ids(LIMITS.maxScores, 'res:').map((id, i) => [id, (i % 97) / 97])),
        }),
    ],
    ['asOf the last epoch', () => ledger.asOf({ epoch })],
    ['rerunCandidates with every scope', () => ledger.rerunCandidates({ epoch, authority })],
  ];
  const rows: BenchRow[] = [
    {
      metric: `event-loop block: commit of a ${chain}-claim depends_on chain`,
      value: Math.round(commitBlock.max),
      unit: 'ms',
    },
  ];
  let worst = 0;
  for (const [name, call] of calls) {
    await call(); // warm-up: first-query compilation
    const block = new LoopBlock();
    await block.during(call);
    rows.push({ metric: `event-loop block: ${name}`, value: Math.round(block.max), unit: 'ms' });
    worst = Math.max(worst, block.max);
  }
  rows.push(targetRow('worst event-loop block of a request at the limits', Math.round(worst), 'ms', 1000, true));
  await ledger.close();
  return rows;
}
