import type { Budget } from './pack.js';
import type { Ranked } from './rank-candidates.js';
import type { WorkingSetItem } from './types.js';

/** What an item renders from (its tier aside): two items with the same key draw the same bytes. */
export const renderKey = (i: WorkingSetItem): string =>
  JSON.stringify([
    i.id,
    i.kind,
    i.body,
    i.ref,
    i.excerpt,
    i.status,
    i.path,
    i.revision,
    i.range,
    i.verifier,
    i.tool,
    i.role,
    i.unit,
  ]);

/** An action's log: its items' status follows the loop (an action resolves when its calls return),
 * so a status change there is no news the session notices or keeps an item out for. */
export const LOG_KINDS: ReadonlySet<string> = new Set(['action', 'tool_call', 'tool_result']);

/**
 * A re-pack's items with units of the previous request kept in place. `items` is the re-pack's
 * layout (the head, then the items it keeps from `was` in the order they were sent, then the
 * rest). Where the previous request had runs of units the re-pack left out between items it keeps,
 * a run dropped breaks the cached prefix there, and every kept item after it is written again;
 * kept in place, it lets them stay cached. So the first runs stay, as many as leave the most kept
 * tokens cached beyond what the runs themselves weigh (the fewest on a tie; none when no run is
 * outweighed). No constant is involved: a run kept costs its tokens at the cache-read price in
 * each request until the next re-pack, and saves writing more tokens than that now.
 *
 * A unit stays only when it can be shown exactly as before: whole (every item the previous request
 * showed of it), still a candidate of this ranking and current (not closed, its status unchanged),
 * its references to items placed before it, no body the re-pack shows (whole or cut) or another
 * kept unit carries, and within the budget. Pure and deterministic; returns `items` itself when
 * nothing stays.
 */
export function keepInPlace(
  items: WorkingSetItem[],
  was: readonly WorkingSetItem[],
  ranked: Ranked,
  budget: Budget,
  nidOf: (id: string) => number | undefined,
): { items: WorkingSetItem[]; kept: string[] } {
  const keys = items.map(renderKey);
  const wasKeys = was.map(renderKey);
  const ids = new Set(items.map((i) => i.id));
  const closed = new Set(ranked.graph.closed.map((c) => c.id));
  const candidate = (i: WorkingSetItem) => ranked.graph.candidates.get(nidOf(i.id) ?? -1);
  const hashOf = (i: WorkingSetItem) => (i.body === undefined || i.notice ? null : (candidate(i)?.bodyHash ?? null));
  const unitSize = new Map<string, number>();
  for (const i of was) unitSize.set(i.unit, (unitSize.get(i.unit) ?? 0) + 1);
  /** Ids placed so far (what a reference may point at), and the bodies shown, whole or cut. */
  const placed = new Set<string>();
  const shownBodies = new Set<string>();
  const showBody = (i: WorkingSetItem) => {
    const h = hashOf(i);
    if (h !== null) shownBodies.add(h);
  };
  for (const i of items) showBody(i);

  /** The previous request's unit starting at `from`, when it can stay as it was shown. */
  const unitAt = (from: number): WorkingSetItem[] | null => {
    const unit = was[from]!.unit;
    let end = from;
    while (end < was.length && was[end]!.unit === unit) end++;
    if (end - from !== unitSize.get(unit)) return null;
    const members = was.slice(from, end);
    for (const m of members) {
      const c = candidate(m);
      if (m.notice !== undefined || ids.has(m.id) || closed.has(m.id) || c === undefined) return null;
      if (!LOG_KINDS.has(m.kind) && (c.status ?? undefined) !== m.status) return null;
      if (m.ref !== undefined && !placed.has(m.ref)) return null;
      const h = hashOf(m);
      if (h !== null && shownBodies.has(h)) return null;
    }
    return members;
  };
  const matches = (a: number, b: number) => a < was.length && b < items.length && keys[b] === wasKeys[a];
  // The items the re-pack keeps in place at the front, as they are.
  let i = 0;
  let j = 0;
  for (; matches(i, j); i++, j++) placed.add(items[j]!.id);
  // Then, alternately, a run of left-out units that could stay, and the kept items after it. A run
  // is weighed as if every run before it stays: only a leading choice of them is ever kept.
  const segments: Array<{ run: WorkingSetItem[]; tokens: number; chars: number; to: number; after: number }> = [];
  for (let at = i, b = j; at < was.length; ) {
    const run: WorkingSetItem[] = [];
    while (at < was.length && !matches(at, b)) {
      const members = unitAt(at);
      if (members === null) break;
      for (const m of members) {
        run.push(m);
        placed.add(m.id);
        showBody(m);
      }
      at += members.length;
    }
    if (run.length === 0 || !matches(at, b)) break;
    let after = 0;
    for (; matches(at, b); at++, b++) {
      after += items[b]!.tokens;
      placed.add(items[b]!.id);
    }
    let runTokens = 0;
    let runChars = 0;
    for (const m of run) {
      runTokens += m.tokens;
      runChars += m.body?.length ?? 0;
    }
    segments.push({ run, tokens: runTokens, chars: runChars, to: b, after });
  }
  // As many segments as leave the most tokens cached beyond what the runs weigh (the fewest on a
  // tie), within the budget.
  let tokens = 0;
  let chars = 0;
  for (const item of items) {
    tokens += item.tokens;
    chars += item.body?.length ?? 0;
  }
  let records = items.length;
  let best = 0;
  let bestSurplus = 0;
  let surplus = 0;
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!;
    tokens += seg.tokens;
    chars += seg.chars;
    records += seg.run.length;
    if (tokens > budget.tokens || records > budget.records || chars > budget.chars) break;
    surplus += seg.after - seg.tokens;
    if (surplus > bestSurplus) {
      best = k + 1;
      bestSurplus = surplus;
    }
  }
  if (best === 0) return { items, kept: [] };
  const out: WorkingSetItem[] = items.slice(0, j);
  const kept: string[] = [];
  for (const seg of segments.slice(0, best)) {
    for (const m of seg.run) {
      const tier = ranked.tiers.get(nidOf(m.id)!)?.tier;
      out.push(tier === undefined || tier === m.tier ? m : { ...m, tier });
      kept.push(m.id);
    }
    out.push(...items.slice(j, seg.to));
    j = seg.to;
  }
  out.push(...items.slice(j));
  return { items: out, kept };
}
