/**
 * Structural checks every adapted trace must pass: the shape validator the ledger runs, edge
 * kinds allowed by EDGE_JOINS, endpoints defined in the same or an earlier transaction, ids unique,
 * epochs starting with the task at 0 and never decreasing, tool calls paired with results.
 */
import { expect } from 'vitest';
import type { AdaptedTrace } from '../../src/adapters/types.js';
import { EDGE_JOINS, type NodeKind } from '../../src/schema/kinds.js';
import type { NodeInput } from '../../src/schema/types.js';
import { validateShape } from '../../src/schema/validate-shape.js';

export function checkTrace(trace: AdaptedTrace): void {
  const kinds = new Map<string, NodeKind>();
  const problems: string[] = [];
  let lastEpoch = -1;
  trace.transactions.forEach((tx, i) => {
    validateShape(tx);
    if (i === 0 && (tx.epoch !== 0 || tx.nodes?.[0]?.kind !== 'task'))
      problems.push('first transaction is not the task at epoch 0');
    if (tx.epoch < lastEpoch) problems.push(`epoch ${tx.epoch} after ${lastEpoch}`);
    lastEpoch = tx.epoch;
    for (const n of tx.nodes ?? []) {
      if (kinds.has(n.id)) problems.push(`duplicate id ${n.id}`);
      kinds.set(n.id, n.kind);
    }
    const seen = new Set<string>();
    for (const e of tx.edges ?? []) {
      const from = kinds.get(e.from);
      const to = kinds.get(e.to);
      if (!from || !to) {
        problems.push(`epoch ${tx.epoch}: dangling edge ${e.from} -${e.kind}-> ${e.to}`);
        continue;
      }
      const rule = EDGE_JOINS[e.kind];
      if (!rule.from.includes(from) || !rule.to.includes(to))
        problems.push(`epoch ${tx.epoch}: ${from} -${e.kind}-> ${to} not allowed`);
      const key = `${e.from}|${e.kind}|${e.to}`;
      if (seen.has(key)) problems.push(`duplicate edge ${key}`);
      seen.add(key);
    }
    // Pairing: every call in the transaction produces exactly one result of the same transaction.
    const calls = (tx.nodes ?? []).filter((n) => n.kind === 'tool_call');
    for (const c of calls) {
      const produced = (tx.edges ?? []).filter((e) => e.from === c.id && e.kind === 'produces');
      if (produced.length !== 1) problems.push(`call ${c.id} produces ${produced.length} results`);
    }
  });
  expect(problems).toEqual([]);
}

/** All nodes of a trace, in order. */
export const allNodes = (trace: AdaptedTrace): NodeInput[] => trace.transactions.flatMap((tx) => [...(tx.nodes ?? [])]);

/** Nodes of one kind. */
export const nodesOf = (trace: AdaptedTrace, kind: NodeKind): NodeInput[] =>
  allNodes(trace).filter((n) => n.kind === kind);

/** The node with an id (throws when absent, so tests fail loudly). */
export function node(trace: AdaptedTrace, id: string): NodeInput {
  const n = allNodes(trace).find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
}

/** Edges of the whole trace as `from kind to` strings. */
export const edgeStrings = (trace: AdaptedTrace): string[] =>
  trace.transactions.flatMap((tx) => (tx.edges ?? []).map((e) => `${e.from} ${e.kind} ${e.to}`));
