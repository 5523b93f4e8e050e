import type { ClosureReason } from './ddl.js';
import type { NodeKind, Status } from './kinds.js';

/** Row shapes of the ledger's tables, as written to and read from DuckDB. */
export interface NodeRow {
  vkey: number;
  nid: number;
  id: string;
  kind: NodeKind;
  status: Status | null;
  authority: string;
  bkey: number | null;
  path: string | null;
  revision: string | null;
  range_start: number | null;
  range_end: number | null;
  verifier: string | null;
  tool: string | null;
  role: string | null;
  changed: string | null;
  meta: string | null;
  tx: number;
  valid_from: number;
  valid_to: number | null;
}

/** The body columns queries join onto node rows. */
export interface BodyColumns {
  body_hash: string | null;
  body: string | null;
  tokens: number | null;
}

export interface EdgeRow {
  ekey: number;
  src: number;
  dst: number;
  kind: string;
  tx: number;
  valid_from: number;
  valid_to: number | null;
}

export interface BodyRow {
  bkey: number;
  hash: string;
  text: string;
  tokens: number;
  chars: number;
  tx: number;
}

export interface ClosureRow {
  ckey: number;
  tx: number;
  epoch: number;
  target: 'node' | 'edge';
  key: number;
  reason: ClosureReason;
  by_nid: number | null;
}

export interface TransactionRow {
  tx: number;
  epoch: number;
  kind: 'commit' | 'archive';
  nodes: number;
  edges: number;
  transitions: number;
  archived_tx: number | null;
}

/** Scalar annotations of a node (the `meta` column holds them as a JSON object). */
export type NodeMeta = Record<string, string | number | boolean | null>;

/**
 * The row mappers every reader of node rows shares (graph view, working-set candidates, retrieved
 * evidence): a line range exists only with both ends, and `meta` is stored as JSON text.
 */
export function rowRange(r: Pick<NodeRow, 'range_start' | 'range_end'>): [number, number] | null {
  return r.range_start !== null && r.range_end !== null ? [r.range_start, r.range_end] : null;
}

export function rowMeta(r: Pick<NodeRow, 'meta'>): NodeMeta | null {
  return r.meta === null ? null : (JSON.parse(r.meta) as NodeMeta);
}
