import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';
import { syntheticBody } from './synthetic.js';

/**
 * A long agent session of about `n` nodes with ~4 edges per node, shaped like real work: one task
 * and steering, then steps of action → tool call → result → evidence (a file view), every fifth step
 * an edit (artifact revision) and a test run (verifier outcome), every tenth a claim; each node also
 * depends on a few earlier ones. Committed in `batch`-step transactions.
 */
export function sessionGraph(n: number, batch = 500): Transaction[] {
  const txs: Transaction[] = [
    {
      epoch: 0,
      nodes: [
        { id: 'task', kind: 'task', authority: 'user', body: 'Fix the RMD-X CAN driver status decoding' },
        { id: 'steer', kind: 'steering', authority: 'user', body: 'Keep the public API stable' },
      ],
    },
  ];
  const steps = Math.max(1, Math.floor(n / 5));
  let nodes: NodeInput[] = [];
  let edges: EdgeInput[] = [];
  for (let s = 1; s <= steps; s++) {
    const act = `act:${s}`;
    const call = `call:${s}`;
    const res = `res:${s}`;
    const ev = `ev:${s}`;
    const path = `src/mod${s % 50}.c`;
    nodes.push(
      { id: act, kind: 'action', status: s === steps ? 'open' : 'resolved', body: syntheticBody(s * 7, 120) },
      { id: call, kind: 'tool_call', tool: 'bash', body: `sed -n '${s},${s + 40}p' ${path}` },
      { id: res, kind: 'tool_result', authority: 'tool:bash', body: syntheticBody(s * 7 + 1, 500) },
      {
        id: ev,
        kind: 'evidence',
        authority: 'repo',
        path,
        revision: `r${Math.floor(s / 5)}`,
        range: [(s % 400) + 1, (s % 400) + 40],
        body: syntheticBody(s * 7 + 2, 400),
      },
    );
    edges.push(
      { from: 'task', to: act, kind: 'plans' },
      { from: act, to: call, kind: 'invokes' },
      { from: call, to: res, kind: 'produces' },
      { from: res, to: ev, kind: 'cites' },
    );
    if (s > 3) {
      edges.push(
        { from: act, to: `act:${s - 1}`, kind: 'depends_on' },
        { from: act, to: `ev:${s - 3}`, kind: 'cites' },
      );
      edges.push({ from: ev, to: `ev:${s - 2}`, kind: 'depends_on' });
    }
    if (s % 5 === 0) {
      nodes.push({
        id: `ver:${s}`,
        kind: 'verifier_outcome',
        authority: 'tool:bash',
        verifier: `pytest tests/test_mod${s % 50}.py`,
        status: s % 10 === 0 ? 'passed' : 'failed',
        body: syntheticBody(s * 7 + 3, 200),
      });
      edges.push({ from: act, to: `ver:${s}`, kind: 'verified_by' }, { from: `ver:${s}`, to: ev, kind: 'cites' });
    }
    if (s % 10 === 0) {
      nodes.push({
        id: `claim:${s}`,
        kind: 'claim',
        status: s % 20 === 0 ? 'resolved' : 'open',
        body: syntheticBody(s * 7 + 4, 150),
      });
      edges.push(
        { from: 'task', to: `claim:${s}`, kind: 'requires' },
        { from: `claim:${s}`, to: ev, kind: 'supported_by' },
      );
    }
    if (s % batch === 0 || s === steps) {
      txs.push({ epoch: txs.length, nodes, edges });
      nodes = [];
      edges = [];
    }
  }
  return txs;
}
