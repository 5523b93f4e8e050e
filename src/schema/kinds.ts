/**
 * The graph's vocabulary: node kinds, edge kinds, which kinds each edge may join, and the
 * statuses each node kind may carry. Validation reads these tables (schema/validate-shape.ts for
 * kinds and statuses, ledger/commit/plan-edges.ts for the edge joins, plan-nodes.ts for the status
 * defaults), and so does anything that must agree with it (e.g. what a working set's projection
 * may cite). Kind sets elsewhere are policies over these kinds (tiers, archiving, rendering), typed `NodeKind`.
 */

export const NODE_KINDS = [
  'task',
  'steering',
  'claim',
  'evidence',
  'action',
  'tool_call',
  'tool_result',
  'artifact_revision',
  'verifier_outcome',
  'message',
] as const;
/** One of `NODE_KINDS`. */
export type NodeKind = (typeof NODE_KINDS)[number];

/** Every edge kind; `EDGE_JOINS` says which node kinds each may join. */
export const EDGE_KINDS = [
  'requires',
  'supported_by',
  'plans',
  'invokes',
  'produces',
  'mutates',
  'verified_by',
  'cites',
  'supersedes',
  'contradicts',
  'depends_on',
] as const;
/** One of `EDGE_KINDS`. */
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** Every node status; `STATUS_RULES` says which each node kind may take. */
export const STATUSES = ['open', 'resolved', 'terminal', 'passed', 'failed', 'error'] as const;
/** One of `STATUSES`. */
export type Status = (typeof STATUSES)[number];

const ALL: readonly NodeKind[] = NODE_KINDS;

/** `from` kinds → `to` kinds each edge kind may join. `supersedes` additionally needs equal kinds. */
export const EDGE_JOINS: Readonly<Record<EdgeKind, { from: readonly NodeKind[]; to: readonly NodeKind[] }>> = {
  requires: {
    from: ['task', 'steering', 'claim', 'action'],
    to: ['task', 'claim', 'evidence', 'artifact_revision', 'verifier_outcome', 'action'],
  },
  supported_by: {
    from: ['claim', 'task', 'action'],
    to: ['evidence', 'tool_result', 'artifact_revision', 'verifier_outcome', 'message', 'claim'],
  },
  plans: { from: ['task', 'action', 'steering'], to: ['action'] },
  invokes: { from: ['action'], to: ['tool_call'] },
  produces: { from: ['tool_call'], to: ['tool_result'] },
  mutates: { from: ['action', 'tool_call'], to: ['artifact_revision'] },
  verified_by: {
    from: ['artifact_revision', 'claim', 'task', 'action', 'evidence'],
    to: ['verifier_outcome'],
  },
  cites: {
    from: ALL,
    to: ['evidence', 'artifact_revision', 'tool_result', 'message', 'claim', 'task', 'steering'],
  },
  supersedes: { from: ALL, to: ALL },
  contradicts: {
    from: ['claim', 'evidence', 'verifier_outcome', 'tool_result', 'message'],
    to: ['claim'],
  },
  depends_on: { from: ALL, to: ALL },
};

/** Statuses a kind may carry, and the one it gets when the transaction names none. */
export const STATUS_RULES: Readonly<Record<NodeKind, { allowed: readonly Status[]; default: Status | null }>> = {
  task: { allowed: ['open', 'resolved', 'terminal'], default: 'open' },
  steering: { allowed: ['open', 'resolved', 'terminal'], default: 'open' },
  claim: { allowed: ['open', 'resolved', 'terminal'], default: 'open' },
  action: { allowed: ['open', 'resolved', 'terminal'], default: 'open' },
  tool_call: { allowed: ['open', 'terminal'], default: 'terminal' },
  tool_result: { allowed: ['terminal', 'error'], default: 'terminal' },
  evidence: { allowed: ['open', 'resolved', 'terminal'], default: null },
  artifact_revision: { allowed: ['open', 'resolved', 'terminal'], default: null },
  verifier_outcome: { allowed: ['passed', 'failed', 'error'], default: null },
  message: { allowed: ['open', 'resolved', 'terminal'], default: null },
};

export const isNodeKind = (k: unknown): k is NodeKind =>
  typeof k === 'string' && (NODE_KINDS as readonly string[]).includes(k);
export const isEdgeKind = (k: unknown): k is EdgeKind =>
  typeof k === 'string' && (EDGE_KINDS as readonly string[]).includes(k);
