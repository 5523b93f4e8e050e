import type { NodeInput, Transaction } from '../schema/types.js';

/**
 * The adapters' side of the ledger's text rule (src/schema/text-rule.ts). The ledger refuses,
 * with INVALID_TEXT, any string that would not read back exactly: a lone surrogate anywhere, a
 * leading U+FEFF, a U+FEFF inside a name. A trajectory holding one (a tool output cut mid-pair,
 * a file printed with its byte-order mark) is still a trajectory, so the adapters make what they
 * hand over well-formed instead: a lone surrogate becomes U+FFFD, a leading U+FEFF is dropped,
 * and names (ids, paths, revisions, scopes, tools, verifiers) lose every U+FEFF. The same
 * function maps an id wherever it appears, so edges keep pointing at their nodes.
 */

// With the `u` flag a well-formed pair is one code point, so only lone halves match.
const LONE_SURROGATE = /[\ud800-\udfff]/gu;

/** @internal Exported for its unit tests. */
export function wellFormedText(s: string): string {
  let out = s.replace(LONE_SURROGATE, '\ufffd');
  while (out.charCodeAt(0) === 0xfeff) out = out.slice(1);
  return out;
}

export const wellFormedName = (s: string): string => wellFormedText(s).replaceAll('\ufeff', '');

const NAME_FIELDS = ['id', 'authority', 'path', 'revision', 'verifier', 'tool'] as const;

function wellFormedNode(n: NodeInput): NodeInput {
  let out: NodeInput = n;
  const set = (patch: Partial<NodeInput>) => {
    out = out === n ? { ...n, ...patch } : Object.assign(out, patch);
  };
  for (const field of NAME_FIELDS) {
    const value = n[field];
    if (value !== undefined && wellFormedName(value) !== value) set({ [field]: wellFormedName(value) });
  }
  if (n.body !== undefined && wellFormedText(n.body) !== n.body) set({ body: wellFormedText(n.body) });
  if (n.meta !== undefined) {
    const entries = Object.entries(n.meta);
    const clean = entries.map(([k, v]) => [wellFormedText(k), typeof v === 'string' ? wellFormedText(v) : v] as const);
    if (clean.some(([k, v], i) => k !== entries[i]![0] || v !== entries[i]![1]))
      set({ meta: Object.fromEntries(clean) });
  }
  return out;
}

/** `tx` with every string well-formed; the same object when nothing needed it. */
export function wellFormedTransaction(tx: Transaction): Transaction {
  const nodes = tx.nodes?.map(wellFormedNode);
  const edges = tx.edges?.map((e) =>
    wellFormedName(e.from) === e.from && wellFormedName(e.to) === e.to
      ? e
      : { ...e, from: wellFormedName(e.from), to: wellFormedName(e.to) },
  );
  const transitions = tx.transitions?.map((t) =>
    wellFormedName(t.id) === t.id ? t : { ...t, id: wellFormedName(t.id) },
  );
  const same = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined) =>
    a === b || (a !== undefined && b !== undefined && a.every((x, i) => x === b[i]));
  if (same(tx.nodes, nodes) && same(tx.edges, edges) && same(tx.transitions, transitions)) return tx;
  return {
    ...tx,
    ...(nodes && { nodes }),
    ...(edges && { edges }),
    ...(transitions && { transitions }),
  };
}
