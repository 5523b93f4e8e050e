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
  /** Step (epoch) that recorded it. */
  step: number;
  /** Column (kind lane), row (the step's place among the steps drawn: a step's action, call and
   * result share one row) and slot (order within its lane and row) of the preset layout. */
  lane: number;
  row: number;
  slot: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: string;
  /** An edge of a task: the task links to nearly everything, so these are drawn only on demand. */
  hub?: boolean;
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
 * kind lanes with one row per step (time flows down), with the edges among them and the
 * supersession links (the `supersedes` edges, plus a link from whatever closed a superseded
 * node). `lanes` names the lanes drawn, left to right.
 */
export function closureGraph(
  explanation: readonly ExplanationRecord[],
  source: RdfSource,
): { nodes: GraphNode[]; edges: GraphEdge[]; lanes: NodeKind[] } {
  const records = new Map<string, NodeRecord>();
  for (const n of [...source.nodes, ...source.superseded]) records.set(n.id, n);
  const placed = explanation
    .map((e) => ({ e, rec: records.get(e.id) }))
    .filter((x): x is { e: ExplanationRecord; rec: NodeRecord } => x.rec !== undefined)
    .sort((a, b) => a.rec.validFrom - b.rec.validFrom || a.rec.tx - b.rec.tx || naturalCompare(a.e.id, b.e.id));
  // Only lanes and steps with a node in them take space: the graph stays as small as it can.
  const lanes = LANES.filter((k) => placed.some((p) => p.rec.kind === k));
  const steps = [...new Set(placed.map((p) => p.rec.validFrom))];
  const rowOf = new Map(steps.map((s, i) => [s, i]));
  const slots = new Map<string, number>();
  const nodes: GraphNode[] = placed.map(({ e, rec }) => {
    const lane = Math.max(0, lanes.indexOf(rec.kind));
    const row = rowOf.get(rec.validFrom) ?? 0;
    const cell = `${lane}:${row}`;
    const slot = slots.get(cell) ?? 0;
    slots.set(cell, slot + 1);
    return {
      id: e.id,
      kind: rec.kind,
      state: stateOf(e),
      reason: e.reason,
      ...(e.tier === undefined ? {} : { tier: e.tier }),
      step: rec.validFrom,
      lane,
      row,
      slot,
    };
  });
  const kinds = new Map(nodes.map((n) => [n.id, n.kind]));
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const link = (source: string, target: string, kind: string): void => {
    const id = `${kind}:${source}->${target}`;
    if (!kinds.has(source) || !kinds.has(target) || seen.has(id)) return;
    seen.add(id);
    const hub = kinds.get(source) === 'task' || kinds.get(target) === 'task';
    edges.push({ id, source, target, kind, ...(hub ? { hub: true } : {}) });
  };
  for (const e of source.edges) link(e.from, e.to, e.kind);
  for (const s of source.superseded) if (s.supersededBy) link(s.supersededBy, s.id, 'supersedes');
  return { nodes, edges, lanes };
}

/** The selection and its direct neighbours (task links included), for the neighbourhood mode. */
export function neighbourhood(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  centre: string,
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const keep = new Set([centre]);
  for (const e of edges) {
    if (e.source === centre) keep.add(e.target);
    if (e.target === centre) keep.add(e.source);
  }
  return {
    nodes: nodes.filter((n) => keep.has(n.id)),
    edges: edges.filter(
      (e) => keep.has(e.source) && keep.has(e.target) && (e.source === centre || e.target === centre),
    ),
  };
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

/** What a step list row says: the step's action (its first line, or its command), by epoch. */
export function stepLabels(records: readonly NodeRecord[], lastEpoch: number): string[] {
  const labels: string[] = Array.from({ length: lastEpoch + 1 }, () => '');
  const firstLine = (text: string | undefined) =>
    (text ?? '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0 && !/^(THOUGHT|DISCUSSION|```)/i.test(l)) ?? '';
  const byTx = [...records].sort((a, b) => a.tx - b.tx || naturalCompare(a.id, b.id));
  for (const kind of ['tool_call', 'action', 'task', 'message', 'claim'] as const)
    for (const n of byTx) {
      const at = n.validFrom;
      if (n.kind !== kind || at > lastEpoch || labels[at]) continue;
      const line = firstLine(n.body);
      if (line) labels[at] = kind === 'tool_call' ? `$ ${line}` : line;
    }
  return labels.map((l, e) => l || (e === 0 ? 'start' : '(no action recorded)'));
}

/**
 * A retrieved body's text around the first query word it contains (at most `max` characters), so a hit can be judged without opening it.
 */
export function snippet(body: string, query: string, max = 240): string {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_./-]+/u)
    .filter((w) => w.length >= 3);
  const lower = body.toLowerCase();
  const hits = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  // Start at the line holding the hit when it is near, else a third of the window before it.
  const lineStart = body.lastIndexOf('\n', at) + 1;
  const start = at - lineStart <= max / 3 ? lineStart : at - Math.floor(max / 3);
  const text = body.slice(start, start + max);
  return `${start > 0 ? '…' : ''}${text}${start + max < body.length ? '…' : ''}`;
}
