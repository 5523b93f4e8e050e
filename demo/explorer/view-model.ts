import type { RdfSource } from '../../src/rdf/view.js';
import type { NodeKind } from '../../src/schema/kinds.js';
import type { NodeRecord } from '../../src/schema/types.js';
import type { ExplanationRecord, WorkingSetItem } from '../../src/working-set/types.js';
import { naturalCompare } from './natural-order.js';

/**
 * What the explorer draws, computed from plain data (no DOM, unit-tested): the closure graph,
 * the budget segments, the timeline markers, the working-set diff, example queries and the
 * explanation rows.
 */

export type NodeState = 'included' | 'excluded' | 'superseded';

export interface GraphNode {
  id: string;
  kind: NodeKind;
  state: NodeState;
  reason: string;
  tier?: number;
  /** Column (kind lane) and row (order within the lane) of the preset layout. */
  lane: number;
  row: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: string;
}

/** Lanes left to right: what was asked and believed, then what was done and what it made. */
export const LANES: readonly NodeKind[] = [
  'steering',
  'task',
  'claim',
  'evidence',
  'message',
  'action',
  'tool_call',
  'tool_result',
  'artifact_revision',
  'verifier_outcome',
];

const stateOf = (e: ExplanationRecord): NodeState =>
  e.included ? 'included' : /^(superseded|archived)/.test(e.reason) ? 'superseded' : 'excluded';

/**
 * The closure at the epoch: every node the materializer considered (its explanation), drawn in
 * kind lanes ordered by recording order, with the edges among them and the supersession links
 * (the `supersedes` edges, plus a link from whatever closed a superseded node).
 */
export function closureGraph(
  explanation: readonly ExplanationRecord[],
  source: RdfSource,
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const records = new Map<string, NodeRecord>();
  for (const n of [...source.nodes, ...source.superseded]) records.set(n.id, n);
  const placed = explanation
    .map((e) => ({ e, rec: records.get(e.id) }))
    .filter((x): x is { e: ExplanationRecord; rec: NodeRecord } => x.rec !== undefined)
    .sort((a, b) => a.rec.tx - b.rec.tx || naturalCompare(a.e.id, b.e.id));
  // Only lanes with a node in them take space: the graph stays as wide as it needs.
  const used = LANES.filter((k) => placed.some((p) => p.rec.kind === k));
  const rows = new Map<NodeKind, number>();
  const nodes: GraphNode[] = placed.map(({ e, rec }) => {
    const row = rows.get(rec.kind) ?? 0;
    rows.set(rec.kind, row + 1);
    return {
      id: e.id,
      kind: rec.kind,
      state: stateOf(e),
      reason: e.reason,
      ...(e.tier === undefined ? {} : { tier: e.tier }),
      lane: Math.max(0, used.indexOf(rec.kind)),
      row,
    };
  });
  const ids = new Set(nodes.map((n) => n.id));
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const link = (source: string, target: string, kind: string): void => {
    const id = `${kind}:${source}->${target}`;
    if (!ids.has(source) || !ids.has(target) || seen.has(id)) return;
    seen.add(id);
    edges.push({ id, source, target, kind });
  };
  for (const e of source.edges) link(e.from, e.to, e.kind);
  for (const s of source.superseded) if (s.supersededBy) link(s.supersededBy, s.id, 'supersedes');
  return { nodes, edges };
}

export interface BudgetSegment {
  tier: number;
  tokens: number;
  items: number;
}

/** Tokens per tier, in tier order; the bar draws each as a share of the budget. */
export function budgetSegments(items: readonly WorkingSetItem[]): BudgetSegment[] {
  const byTier = new Map<number, BudgetSegment>();
  for (const i of items) {
    const s = byTier.get(i.tier) ?? { tier: i.tier, tokens: 0, items: 0 };
    s.tokens += i.tokens;
    s.items += 1;
    byTier.set(i.tier, s);
  }
  return [...byTier.values()].sort((a, b) => a.tier - b.tier);
}

export const MARKERS = ['commit', 'revision', 'verifier', 'supersession', 'contradiction'] as const;
export type MarkerKind = (typeof MARKERS)[number];
export type EpochMarkers = Record<MarkerKind, number> & { epoch: number; failed: number };

/** What happened at each epoch 0..last, from the whole history (a source taken at the last epoch). */
export function epochMarkers(source: RdfSource, lastEpoch: number): EpochMarkers[] {
  const out: EpochMarkers[] = Array.from({ length: lastEpoch + 1 }, (_, epoch) => ({
    epoch,
    commit: 0,
    revision: 0,
    verifier: 0,
    supersession: 0,
    contradiction: 0,
    failed: 0,
  }));
  const txs = new Map<number, Set<number>>();
  for (const n of [...source.nodes, ...source.superseded]) {
    const at = out[n.validFrom];
    if (!at) continue;
    (txs.get(n.validFrom) ?? txs.set(n.validFrom, new Set()).get(n.validFrom))?.add(n.tx);
    if (n.kind === 'artifact_revision') at.revision += 1;
    if (n.kind === 'verifier_outcome') {
      at.verifier += 1;
      if (n.status === 'failed' || n.status === 'error') at.failed += 1;
    }
  }
  for (const s of source.superseded) {
    const at = out[s.validTo];
    if (at && s.reason !== 'archived') at.supersession += 1;
  }
  for (const e of source.edges) {
    const at = out[e.validFrom];
    if (!at) continue;
    (txs.get(e.validFrom) ?? txs.set(e.validFrom, new Set()).get(e.validFrom))?.add(e.tx);
    if (e.kind === 'contradicts') at.contradiction += 1;
  }
  for (const [epoch, set] of txs) {
    const at = out[epoch];
    if (at) at.commit = set.size;
  }
  return out;
}

/** Ids that entered and left the working set between two epochs, in natural order. */
export function workingSetDiff(
  previous: readonly { id: string }[],
  current: readonly { id: string }[],
): { entered: string[]; left: string[] } {
  const before = new Set(previous.map((i) => i.id));
  const now = new Set(current.map((i) => i.id));
  return {
    entered: [...now].filter((id) => !before.has(id)).sort(naturalCompare),
    left: [...before].filter((id) => !now.has(id)).sort(naturalCompare),
  };
}

const words = (text: string, n: number): string =>
  text
    .replace(/[`*_#>[\]()]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, n)
    .join(' ');

/**
 * Questions to try on the loaded trace: the task's opening words, the newest claim, the file
 * the trace revised or cited most, and the newest verifier. Deterministic, at most four.
 */
export function exampleQueries(nodes: readonly NodeRecord[]): string[] {
  const out: string[] = [];
  const push = (q: string | undefined) => {
    const t = q?.trim();
    if (t && t.length >= 3 && !out.includes(t)) out.push(t);
  };
  const byTx = [...nodes].sort((a, b) => a.tx - b.tx || naturalCompare(a.id, b.id));
  const task = byTx.find((n) => n.kind === 'task' && n.body);
  if (task?.body) push(words(task.body, 7));
  const claim = byTx.filter((n) => n.kind === 'claim' && n.body).at(-1);
  if (claim?.body) push(words(claim.body, 7));
  const paths = new Map<string, number>();
  for (const n of nodes)
    if (n.path && (n.kind === 'evidence' || n.kind === 'artifact_revision'))
      paths.set(n.path, (paths.get(n.path) ?? 0) + 1);
  const top = [...paths].sort((a, b) => b[1] - a[1] || naturalCompare(a[0], b[0]))[0];
  if (top) push(top[0]);
  const verifier = byTx.filter((n) => n.kind === 'verifier_outcome' && n.verifier).at(-1);
  if (verifier?.verifier) push(verifier.verifier);
  return out.slice(0, 4);
}

/** Included rows first by tier, then the rows left out; ids in natural order (`act:2` before `act:10`). */
export function explanationRows(explanation: readonly ExplanationRecord[]): ExplanationRecord[] {
  const tier = (e: ExplanationRecord) => (e.included ? (e.tier ?? Number.MAX_SAFE_INTEGER) : 0);
  return [...explanation].sort(
    (a, b) => Number(b.included) - Number(a.included) || tier(a) - tier(b) || naturalCompare(a.id, b.id),
  );
}

/** Rows matching a filter (case-insensitive substring of id, tier name or reason) and a side. */
export function filterRows(
  rows: readonly ExplanationRecord[],
  text: string,
  side: 'all' | 'in' | 'out',
  tierName: (tier: number | undefined) => string,
): ExplanationRecord[] {
  const needle = text.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (side === 'all' || (side === 'in') === r.included) &&
      (needle === '' || `${r.id} ${tierName(r.tier)} ${r.reason}`.toLowerCase().includes(needle)),
  );
}
