import { type Costs, costsOf } from './framing.js';
import { readingOrder } from './order.js';
import type { Ranked } from './rank-candidates.js';
import type { Excerpt, Unit, WorkingSetItem } from './types.js';

/**
 * The packed units as items in reading order, each body once: the first item in reading order
 * carries it, later ones refer to it; an item whose body the set already shows elsewhere (a file
 * view by the evidence cut from it, a written file by the command that wrote it) refers to that.
 * An excerpted output carries its kept lines and is never a carrier: its body is not whole.
 * `shown` is what the request already holds when these items are appended to it (a session
 * step): the bodies it carries, by hash, and the nodes it shows whole.
 */
export function buildItems(
  included: readonly Unit[],
  excerpts: ReadonlyMap<number, Excerpt>,
  ranked: Pick<Ranked, 'graph' | 'coveredBy' | 'refCost'>,
  idOf: (nid: number) => string | undefined,
  shown?: { carriers: ReadonlyMap<string, string>; whole: ReadonlySet<number> },
  /** What items cost under the request's framing (default: their bodies). */
  costs: Costs = costsOf(ranked, 'none', () => 0),
): WorkingSetItem[] {
  const { graph, coveredBy } = ranked;
  const { refCost } = costs;
  // Nodes shown whole: only a whole body carries another node's lines.
  const includedNids = new Set(included.flatMap((u) => u.members.map((m) => m.nid)).filter((n) => !excerpts.has(n)));
  for (const nid of shown?.whole ?? []) includedNids.add(nid);
  const items: WorkingSetItem[] = [];
  const carrier = new Map<string, string>(shown?.carriers);
  for (const { member: m, unit } of readingOrder(included, graph.edges)) {
    const item: WorkingSetItem = {
      id: m.id,
      kind: m.kind,
      tier: unit.tier,
      tokens: 0,
      tx: m.tx,
      authority: m.authority,
      unit: unit.key,
    };
    const evidence = coveredBy.get(m.nid);
    const cut = excerpts.get(m.nid);
    if (cut !== undefined) {
      item.body = cut.body;
      item.excerpt = { lines: cut.lines.map(([a, b]) => [a, b]), of: cut.of };
      item.tokens = cut.tokens;
    } else if (m.bodyHash !== null && evidence?.every((e) => includedNids.has(e)) && m.tokens > refCost) {
      // A file view whose lines the working set already shows as exact evidence, or a file
      // revision whose content the command that wrote it shows.
      item.ref = idOf(Math.min(...evidence))!;
      item.tokens = costs.refTo(item.ref);
    } else if (m.bodyHash !== null) {
      const first = carrier.get(m.bodyHash);
      if (first !== undefined && m.tokens > refCost) {
        item.ref = first;
        item.tokens = Math.min(m.tokens, costs.refTo(first));
      } else {
        if (first === undefined) carrier.set(m.bodyHash, m.id);
        item.body = m.body ?? '';
        item.tokens = m.tokens;
      }
    }
    if (m.status !== null) item.status = m.status;
    if (m.path !== null) item.path = m.path;
    if (m.revision !== null) item.revision = m.revision;
    // A copy: the candidate is shared with later calls through the ranking cache.
    if (m.range !== null) item.range = [m.range[0], m.range[1]];
    if (m.verifier !== null) item.verifier = m.verifier;
    if (m.tool !== null) item.tool = m.tool;
    if (m.role !== null) item.role = m.role;
    item.tokens += costs.frame(m);
    items.push(item);
  }
  return items;
}
