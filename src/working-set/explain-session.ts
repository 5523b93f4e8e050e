import { explain } from './explain.js';
import type { Ranked } from './rank-candidates.js';
import type { SessionState } from './session-step.js';
import type { ExplanationRecord, Unit } from './types.js';

/**
 * One record per candidate and per item of a session-mode working set: the items in the order
 * sent (a kept item says so; one no longer current says what happened; a notice names what it is
 * about), then every exclusion by id as `explain` orders them — those the budget left out of a
 * re-pack as `budget (low watermark …)`, those an appending step did not add as held out since
 * the last re-pack.
 */
export function explainSession(
  state: SessionState,
  ranked: Ranked,
  budgetTokens: number,
  nidOf: (id: string) => number | undefined,
): ExplanationRecord[] {
  const shown = new Set<number>();
  const shownIds = new Set<string>();
  for (const i of state.items) {
    shownIds.add(i.id);
    const nid = i.notice === undefined ? nidOf(i.id) : undefined;
    if (nid !== undefined && ranked.tiers.has(nid)) shown.add(nid);
  }
  const included: Unit[] = [];
  const excluded: Unit[] = [];
  for (const u of ranked.units) {
    const out = u.members.filter((m) => !shown.has(m.nid));
    if (out.length < u.members.length) included.push(u);
    if (out.length > 0) excluded.push(out.length === u.members.length ? u : { ...u, members: out });
  }
  const ranksItems = state.items.filter((i) => i.notice === undefined && shown.has(nidOf(i.id) ?? -1));
  const graph = { ...ranked.graph, closed: ranked.graph.closed.filter((c) => !shownIds.has(c.id)) };
  const records = explain(ranksItems, included, excluded, { ...ranked, graph }, nidOf);
  const ofItem = new Map(records.slice(0, ranksItems.length).map((r) => [r.id, r]));
  const closed = new Map(ranked.graph.closed.map((c) => [c.id, c]));
  const skipped = new Set(state.skipped);
  const inPlace = new Set(state.keptInPlace);
  const out: ExplanationRecord[] = state.items.map((item, k) => {
    const kept = k < state.kept ? '; kept from the previous request (prompt cache)' : '';
    if (item.notice !== undefined)
      return {
        id: item.id,
        included: true,
        tier: item.tier,
        reason: `notice: ${item.notice.of} is no longer current`,
        code: 'notice',
      };
    if (inPlace.has(item.id))
      return {
        id: item.id,
        included: true,
        tier: item.tier,
        reason: `kept in place at this re-pack though the low watermark left it out: the items after it that the re-pack keeps weigh more, and stay cached only with it${kept}`,
        code: 'kept-in-prefix',
      };
    const own = ofItem.get(item.id);
    if (own !== undefined) return { ...own, reason: `${own.reason}${kept}` };
    const gone = closed.get(item.id);
    const reason =
      gone !== undefined
        ? `${gone.reason === 'archived' ? 'archived' : 'superseded'} at epoch ${gone.closedAt}: kept byte-identical in the cached prefix, followed by a notice that it is no longer current`
        : 'shown earlier and still valid, no longer reached by the closure';
    return { id: item.id, included: true, tier: item.tier, reason: `${reason}${kept}`, code: 'kept-in-prefix' };
  });
  const held = `held out since the re-pack at epoch ${state.repackedAt}: between re-packs a step adds only its action, the open work it brings in and what the action's own words and paths rank`;
  for (const r of records.slice(ranksItems.length)) {
    if (r.code !== 'budget') out.push(r);
    else if (state.repacked)
      out.push({
        ...r,
        reason: `budget (re-packed to ${state.fill} of ${budgetTokens} tokens, the low watermark or what the guaranteed tiers took; ${r.reason.slice(8)}`,
      });
    else if (skipped.size > 0 && skipped.has(unitOf(r.id, ranked))) out.push(r);
    else out.push({ ...r, reason: `${held} (${r.reason.slice(8)}`, code: 'held-out' });
  }
  return out;
}

function unitOf(id: string, ranked: Ranked): string {
  for (const u of ranked.units) if (u.members.some((m) => m.id === id)) return u.key;
  return '';
}
