import { compareStrings } from '../text/compare.js';
import type { Ranked } from './rank-candidates.js';
import type { Placement } from './relevance.js';
import type { ExplanationRecord, Unit, WorkingSetItem } from './types.js';

/**
 * One record per candidate: the included items in reading order (their tier's reason, or the
 * unit that kept them, and the body they share), then every exclusion sorted by id — budget,
 * unanswered call, beyond the bound, superseded or archived.
 */
export function explain(
  items: readonly WorkingSetItem[],
  included: readonly Unit[],
  excluded: readonly Unit[],
  { graph, tiers, unanswered, placement }: Pick<Ranked, 'graph' | 'tiers' | 'unanswered' | 'placement'>,
  nidOf: (id: string) => number | undefined,
): ExplanationRecord[] {
  const explanation: ExplanationRecord[] = [];
  const unitReason = new Map(included.map((u) => [u.key, u.reason]));
  for (const item of items) {
    const own = tiers.get(nidOf(item.id)!)!;
    const reason = own.tier === item.tier ? own.reason : `kept with ${item.unit} (${unitReason.get(item.unit)})`;
    const how = item.ref
      ? `; body shared with ${item.ref}`
      : item.excerpt
        ? `; excerpt: ${excerptLines(item.excerpt)} (lines relevant to the task and current action; the rest elided, whole body by id)`
        : '';
    explanation.push({
      id: item.id,
      included: true,
      tier: item.tier,
      reason: `${reason}${how}`,
      ...signalOf(placement.get(item.unit)),
    });
  }
  const out: ExplanationRecord[] = [];
  for (const unit of excluded) {
    for (const m of unit.members)
      out.push({
        id: m.id,
        included: false,
        tier: unit.tier,
        reason: `budget (${tiers.get(m.nid)!.reason})`,
        ...signalOf(placement.get(unit.key)),
      });
  }
  for (const c of unanswered)
    out.push({
      id: c.id,
      included: false,
      tier: tiers.get(c.nid)!.tier,
      reason: 'unanswered call: a call is never shown without its result',
    });
  for (const b of graph.beyondBound) out.push({ id: b.id, included: false, reason: 'beyond the bound' });
  for (const c of graph.closed) {
    out.push({
      id: c.id,
      included: false,
      reason: c.reason === 'archived' ? 'archived' : `superseded${c.by ? ` by ${c.by}` : ''} at epoch ${c.closedAt}`,
    });
  }
  out.sort((a, b) => compareStrings(a.id, b.id));
  explanation.push(...out);
  return explanation;
}

/** `lines 3-9, 40-41 of 120` (or `no lines of 120`). */
const excerptLines = (e: NonNullable<WorkingSetItem['excerpt']>): string =>
  `${e.lines.length === 0 ? 'no lines' : `lines ${e.lines.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ')}`} of ${e.of}`;

/** The signal that placed a ranked unit, and its rank in that channel. */
const signalOf = (p: Placement | undefined): { signal?: string } =>
  p === undefined ? {} : { signal: `${p.signal} #${p.signalRank}` };
