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
    const selected = own.tier === item.tier;
    const reason = selected ? own.reason : `kept with ${item.unit} (${unitReason.get(item.unit)})`;
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
      code: selected ? 'selected' : 'kept-with-unit',
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
        reason: unit.reasoning
          ? `budget (${tiers.get(m.nid)!.reason}: its thought, packed after the ranked evidence)`
          : `budget (${tiers.get(m.nid)!.reason})`,
        code: 'budget',
        ...signalOf(placement.get(unit.key)),
      });
  }
  for (const c of unanswered)
    out.push({
      id: c.id,
      included: false,
      tier: tiers.get(c.nid)!.tier,
      reason: 'unanswered call: a call is never shown without its result',
      code: 'unanswered-call',
    });
  const closed = new Set<ExplanationRecord>();
  for (const c of graph.closed) {
    const record: ExplanationRecord = {
      id: c.id,
      included: false,
      reason: c.reason === 'archived' ? 'archived' : `superseded${c.by ? ` by ${c.by}` : ''} at epoch ${c.closedAt}`,
      code: c.reason === 'archived' ? 'archived' : 'superseded',
    };
    out.push(record);
    closed.add(record);
  }
  out.sort((a, b) => compareStrings(a.id, b.id));
  // The nodes beyond the bound (tens of thousands on a long session, against hundreds of other
  // exclusions) are sorted as bare ids and merged in, in the order one stable sort of every
  // exclusion gives — budget and unanswered records, then those beyond the bound, then closed
  // ones, by id: sorting the records together cost most of explaining at 86k nodes.
  const beyond = graph.beyondBound;
  let b = 0;
  for (const record of out) {
    while (b < beyond.length && (beyond[b]! < record.id || (beyond[b] === record.id && closed.has(record))))
      explanation.push(beyondBound(beyond[b++]!));
    explanation.push(record);
  }
  while (b < beyond.length) explanation.push(beyondBound(beyond[b++]!));
  return explanation;
}

/** `lines 3-9, 40-41 of 120` (or `no lines of 120`). */
const excerptLines = (e: NonNullable<WorkingSetItem['excerpt']>): string =>
  `${e.lines.length === 0 ? 'no lines' : `lines ${e.lines.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ')}`} of ${e.of}`;

/** The signal that placed a ranked unit, and its rank in that channel. */
const signalOf = (p: Placement | undefined): { signal?: string } =>
  p === undefined ? {} : { signal: `${p.signal} #${p.signalRank}` };

const beyondBound = (id: string): ExplanationRecord => ({
  id,
  included: false,
  reason: 'beyond the bound',
  code: 'beyond-bound',
});
