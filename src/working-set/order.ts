import { compareStrings } from '../text/compare.js';
import type { Candidate, CandidateEdge, Unit } from './types.js';

/**
 * The order a model should read the working set in: what it is doing (tasks, steering), what it
 * must establish (claims, requirements), the evidence and checks grouped by file and line, then
 * the action log in the order it happened — so the current action comes last, nearest the
 * question. Within an action transaction: the action, each tool call followed by its results,
 * then the revisions it produced.
 */
export function readingOrder(
  units: readonly Unit[],
  edges: readonly CandidateEdge[],
): Array<{ member: Candidate; unit: Unit }> {
  const produces = new Map<number, number[]>();
  for (const e of edges) if (e.kind === 'produces') produces.set(e.src, [...(produces.get(e.src) ?? []), e.dst]);

  const keyed = units.map((unit) => ({ unit, key: sortKey(unit) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  const out: Array<{ member: Candidate; unit: Unit }> = [];
  for (const { unit } of keyed) for (const member of unitOrder(unit, produces)) out.push({ member, unit });
  return out;
}

const SECTION: Record<string, number> = { task: 0, steering: 0, claim: 1 };

function sortKey(unit: Unit): Array<number | string> {
  const head = unit.members[0]!;
  const isLog = unit.members.some((m) => m.kind === 'action' || m.kind === 'tool_call');
  if (isLog) {
    // One action's units (its thought, each call with its results) share a transaction: the
    // thought comes first, then the calls in the order they were recorded. Ids decide nothing
    // here — an adapter's id scheme may sort a call before its action, or `step-10` before `step-2`.
    const tx = Math.min(...unit.members.map((m) => m.tx));
    const role = unit.members.some((m) => m.kind === 'action') ? 0 : 1;
    return [3, '', 0, tx, role, Math.min(...unit.members.map((m) => m.nid)), unit.key];
  }
  const section = SECTION[head.kind] ?? 2;
  if (section < 2) return [section, '', 0, head.tx, unit.key];
  return [2, head.path ?? '\uffff', head.range?.[0] ?? 0, head.tx, unit.key];
}

function compareKeys(a: Array<number | string>, b: Array<number | string>): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const d = typeof x === 'number' && typeof y === 'number' ? x - y : compareStrings(String(x), String(y));
    if (d !== 0) return d;
  }
  return 0;
}

function unitOrder(unit: Unit, produces: ReadonlyMap<number, number[]>): Candidate[] {
  const rank = (c: Candidate) => (c.kind === 'action' ? 0 : c.kind === 'tool_call' || c.kind === 'tool_result' ? 1 : 2);
  const members = [...unit.members].sort((a, b) => rank(a) - rank(b) || a.tx - b.tx || a.nid - b.nid);
  const placed = new Set<number>();
  const out: Candidate[] = [];
  const inUnit = new Map(unit.members.map((m) => [m.nid, m]));
  for (const m of members) {
    if (placed.has(m.nid) || m.kind === 'tool_result') continue;
    out.push(m);
    placed.add(m.nid);
    if (m.kind === 'tool_call') {
      for (const r of produces.get(m.nid) ?? []) {
        const result = inUnit.get(r);
        if (result && !placed.has(r)) {
          out.push(result);
          placed.add(r);
        }
      }
    }
  }
  for (const m of members) if (!placed.has(m.nid)) out.push(m);
  return out;
}
