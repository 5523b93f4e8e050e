import fc from 'fast-check';
import { EDGE_JOINS, EDGE_KINDS, NODE_KINDS, type NodeKind, STATUS_RULES } from '../../src/schema/kinds.js';
import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';

/**
 * Random transaction scripts for property tests. Scripts are generated loosely (edges between
 * any earlier nodes, revisions of a few shared paths, outcomes of a few shared verifiers, status
 * transitions), then shaped by `toTransactions` so that kinds and statuses fit the schema. Some
 * transactions are still rejected by the ledger (an edge to a node superseded meanwhile): that is
 * part of the property — a rejection must change nothing.
 */
const nodeSpec = fc.record({
  kind: fc.constantFrom(...NODE_KINDS),
  status: fc.nat(5),
  authority: fc.constantFrom('user', 'agent', 'repo', 'tool:web'),
  body: fc.option(fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('shared body', 'int crc8(void);')), {
    nil: undefined,
  }),
  path: fc.constantFrom('src/can.c', 'src/crc.c', 'README.md'),
  revision: fc.constantFrom('r1', 'r2', 'r3'),
  range: fc.option(fc.tuple(fc.integer({ min: 1, max: 80 }), fc.nat(20)), { nil: undefined }),
  verifier: fc.constantFrom('pytest', 'make check'),
});

const txSpec = fc.record({
  epochStep: fc.nat(2),
  nodes: fc.array(nodeSpec, { maxLength: 5 }),
  edges: fc.array(fc.record({ from: fc.nat(), to: fc.nat(), kind: fc.constantFrom(...EDGE_KINDS) }), { maxLength: 6 }),
  transitions: fc.array(fc.record({ target: fc.nat(), status: fc.nat(5) }), { maxLength: 2 }),
});

export const arbitraryScript = fc.array(txSpec, { minLength: 1, maxLength: 8 });
type ArbitraryValue<A> = A extends fc.Arbitrary<infer T> ? T : never;
export type Script = ArbitraryValue<typeof arbitraryScript>;

export function toTransactions(script: Script, idPrefix = 'n'): Transaction[] {
  const kinds: Array<[string, NodeKind]> = [];
  let epoch = 0;
  return script.map((spec, t) => {
    epoch += spec.epochStep;
    const nodes: NodeInput[] = spec.nodes.map((n, i) => {
      const id = `${idPrefix}${t}.${i}`;
      const rule = STATUS_RULES[n.kind];
      const status =
        rule.default === null && n.kind !== 'verifier_outcome' && n.status % 2 === 0
          ? undefined
          : rule.allowed[n.status % rule.allowed.length];
      const node: NodeInput = { id, kind: n.kind, authority: n.authority };
      if (status !== undefined) node.status = status;
      if (n.body !== undefined) node.body = n.body;
      if (n.kind === 'evidence' || n.kind === 'artifact_revision') {
        node.path = n.path;
        node.revision = n.revision;
      }
      if (n.kind === 'evidence' && n.range) node.range = [n.range[0], n.range[0] + n.range[1]];
      if (n.kind === 'verifier_outcome') node.verifier = n.verifier;
      return node;
    });
    const known = [...kinds, ...nodes.map((n) => [n.id, n.kind] as [string, NodeKind])];
    const seen = new Set<string>();
    const edges: EdgeInput[] = [];
    for (const e of spec.edges) {
      if (known.length < 2) break;
      const [from, fromKind] = known[e.from % known.length]!;
      const [to, toKind] = known[e.to % known.length]!;
      const join = EDGE_JOINS[e.kind];
      const key = `${from}|${e.kind}|${to}`;
      if (from === to || seen.has(key) || !join.from.includes(fromKind) || !join.to.includes(toKind)) continue;
      if (e.kind === 'supersedes' && fromKind !== toKind) continue;
      seen.add(key);
      edges.push({ from, to, kind: e.kind });
    }
    const transitions = spec.transitions.flatMap((tr, i) => {
      if (kinds.length === 0 || i > 0) return [];
      const [id, kind] = kinds[tr.target % kinds.length]!;
      const allowed = STATUS_RULES[kind].allowed;
      return [{ id, status: allowed[tr.status % allowed.length]! }];
    });
    kinds.push(...nodes.map((n) => [n.id, n.kind] as [string, NodeKind]));
    return { epoch, nodes, edges, transitions };
  });
}
