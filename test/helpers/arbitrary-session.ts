import fc from 'fast-check';
import { expect } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';

/**
 * Random agent sessions shaped like real ones: a task and steering, then steps of an action with
 * one or two tool calls and their results, sometimes a file view (evidence cited by the result),
 * an edit (artifact revision), a test run (verifier outcome checking the latest revisions), a
 * claim the task requires; the last action may stay open and cite evidence. Bodies come from a
 * small pool so identical bodies (body-once) occur.
 */
const BODIES = [
  'ok',
  'int crc8(const uint8_t *p, size_t n);',
  'FAILED test_speed',
  '4 passed',
  'x'.repeat(300),
  'def parse_status_2(data):\n    return data[4:6]',
  '',
];
const PATHS = ['drv/can.c', 'drv/crc.c', 'tests/test_can.py'];

const stepSpec = fc.record({
  calls: fc.integer({ min: 0, max: 2 }),
  body: fc.nat(BODIES.length - 1),
  resultBody: fc.oneof(fc.nat(BODIES.length - 1), fc.string({ maxLength: 200 })),
  view: fc.option(
    fc.record({ path: fc.nat(PATHS.length - 1), start: fc.integer({ min: 1, max: 200 }), len: fc.nat(40) }),
    { nil: undefined },
  ),
  edit: fc.option(fc.record({ path: fc.nat(PATHS.length - 1), line: fc.integer({ min: 1, max: 240 }) }), {
    nil: undefined,
  }),
  test: fc.option(fc.boolean(), { nil: undefined }),
  claim: fc.option(fc.boolean(), { nil: undefined }),
  authority: fc.constantFrom('agent', 'repo', 'tool:web'),
});

export const arbitrarySession = fc.record({
  steps: fc.array(stepSpec, { minLength: 1, maxLength: 12 }),
  lastOpen: fc.boolean(),
});
type ArbitraryValue<A> = A extends fc.Arbitrary<infer T> ? T : never;
export type Session = ArbitraryValue<typeof arbitrarySession>;

export function sessionTransactions(session: Session): Transaction[] {
  const txs: Transaction[] = [
    {
      epoch: 0,
      nodes: [
        { id: 'task', kind: 'task', authority: 'user', body: 'Fix the CAN driver of the RMD-X servo' },
        { id: 'steer', kind: 'steering', authority: 'user', body: 'Keep the public API' },
      ],
    },
  ];
  const revisions = new Map<string, string>();
  const evidence: string[] = [];
  session.steps.forEach((s, idx) => {
    const t = idx + 1;
    const last = idx === session.steps.length - 1;
    const act = `act:${t}`;
    const nodes: NodeInput[] = [
      { id: act, kind: 'action', status: last && session.lastOpen ? 'open' : 'resolved', body: BODIES[s.body]! },
    ];
    const edges: EdgeInput[] = [{ from: 'task', to: act, kind: 'plans' }];
    const resultBody = typeof s.resultBody === 'number' ? BODIES[s.resultBody]! : s.resultBody;
    for (let k = 0; k < s.calls; k++) {
      nodes.push({ id: `call:${t}:${k}`, kind: 'tool_call', tool: 'bash', body: `cmd ${t} ${k}` });
      nodes.push({
        id: `res:${t}:${k}`,
        kind: 'tool_result',
        authority: s.authority,
        body: k === 0 ? resultBody : BODIES[(s.body + k) % BODIES.length]!,
      });
      edges.push(
        { from: act, to: `call:${t}:${k}`, kind: 'invokes' },
        { from: `call:${t}:${k}`, to: `res:${t}:${k}`, kind: 'produces' },
      );
    }
    if (s.view && s.calls > 0) {
      const path = PATHS[s.view.path]!;
      const id = `ev:${t}`;
      nodes.push({
        id,
        kind: 'evidence',
        authority: 'repo',
        path,
        revision: revisions.get(path) ?? 'base',
        range: [s.view.start, s.view.start + s.view.len],
        body: `${path} ${s.view.start}\n${resultBody}`,
      });
      edges.push({ from: `res:${t}:0`, to: id, kind: 'cites' });
      if (last && session.lastOpen) edges.push({ from: act, to: id, kind: 'cites' });
      evidence.push(id);
    }
    if (s.edit) {
      const path = PATHS[s.edit.path]!;
      const id = `rev:${t}`;
      nodes.push({
        id,
        kind: 'artifact_revision',
        path,
        revision: id,
        changed: [[s.edit.line, s.edit.line]],
        body: `edit ${path}:${s.edit.line}`,
      });
      edges.push({ from: act, to: id, kind: 'mutates' });
      revisions.set(path, id);
    }
    if (s.test !== undefined) {
      const id = `ver:${t}`;
      nodes.push({
        id,
        kind: 'verifier_outcome',
        authority: 'tool:bash',
        verifier: 'pytest',
        status: s.test ? 'passed' : 'failed',
        body: s.test ? '4 passed' : 'FAILED test_speed',
      });
      edges.push({ from: act, to: id, kind: 'verified_by' });
      for (const rev of new Set(revisions.values())) edges.push({ from: rev, to: id, kind: 'verified_by' });
      const cited = evidence[evidence.length - 1];
      if (cited) edges.push({ from: id, to: cited, kind: 'cites' });
    }
    if (s.claim !== undefined) {
      const id = `claim:${t}`;
      nodes.push({ id, kind: 'claim', status: s.claim ? 'open' : 'resolved', body: `claim ${t}` });
      edges.push({ from: 'task', to: id, kind: 'requires' });
      const cited = evidence[evidence.length - 1];
      if (cited) edges.push({ from: id, to: cited, kind: 'supported_by' });
    }
    txs.push({ epoch: t, nodes, edges });
  });
  return txs;
}

/** Commits one step of such a session; a rejected edge to evidence an edit superseded meanwhile is
 * legitimate (false: the step was not committed). */
export async function commitSessionStep(ledger: Ledger, tx: Transaction): Promise<boolean> {
  try {
    await ledger.commit(tx);
    return true;
  } catch (e) {
    expect((e as { code?: string }).code).toBe('DANGLING_EDGE');
    return false;
  }
}
