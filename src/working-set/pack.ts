import { compareStrings } from '../text/compare.js';
import type { Candidate, Excerpt, Excerpts, Unit } from './types.js';

export interface Budget {
  tokens: number;
  records: number;
  chars: number;
}

export interface PackResult {
  included: Unit[];
  excluded: Unit[];
  /** Members shown as an excerpt (nid → the excerpt): tool outputs and file ranges of included
   * units that did not fit whole. */
  excerpts: Map<number, Excerpt>;
}

/**
 * Packs whole units into the budget, tier by tier (within a tier the most recent first, then by
 * key; the ranked tiers in their fused relevance order), skipping a unit that does not fit and
 * trying the next. With `excerpts`, what the whole units leave goes to the ranked units left out,
 * in their order, before the recency fill (ranked units no relevance signal placed): a unit fits
 * when its tool outputs and file ranges are cut to excerpts (their lines relevant to the task and
 * the current action, the rest elided) and some kept line is relevant. The finished current
 * action's thought (a `reasoning` unit) comes after those and before the fill, whole or not at all.
 * Calls, actions and every other member stay whole, so a call is never shown without its
 * (possibly excerpted) result. A body already packed costs only its reference (`refTokens`), so
 * each body is paid for once; so does a tool result whose lines are all carried by evidence
 * already packed whole (a file view and the exact range cut from it); a member paid whole before
 * its carriers were packed is charged back down to a reference once they are. An excerpt pays for no
 * body: the same output elsewhere is still paid whole. Pure and deterministic.
 */
export function packUnits(
  units: readonly Unit[],
  budget: Budget,
  refTokens: number,
  /** Bodies carried by other nodes once those are packed (a tool result by the evidence cut from
   * it, a written file by the command that wrote it): nid → the nids that carry it. */
  coveredBy: ReadonlyMap<number, readonly number[]> = new Map(),
  /** Fused relevance position of the units below the guaranteed tiers (unit key → rank); units
   * it ranks are packed after every unit it does not, in its order; `signal: 'recency'` marks the
   * recency fill. */
  ranked: ReadonlyMap<string, { rank: number; signal?: string }> = new Map(),
  /** When given, the budget left after the whole units goes to excerpts of ranked units. */
  excerpts?: Excerpts,
  /** Tokens the rendering adds to a member beyond its body, reference or excerpt (see framing.ts). */
  frame: (m: Candidate) => number = () => 0,
): PackResult {
  const packed = new Set<number>();
  const covered = (nid: number, unit: Unit) => {
    const ev = coveredBy.get(nid);
    return ev !== undefined && ev.length > 0 && ev.every((e) => packed.has(e) || unit.members.some((m) => m.nid === e));
  };
  const position = (u: Unit) => ranked.get(u.key)?.rank;
  // Each unit's position looked up once, not at every comparison.
  const ordered = units
    .map((unit) => ({ unit, pos: position(unit) }))
    .sort((a, b) => {
      const pa = a.pos;
      const pb = b.pos;
      if (pa !== undefined && pb !== undefined) return pa - pb;
      if (pa !== undefined || pb !== undefined) return pa === undefined ? -1 : 1;
      return a.unit.tier - b.unit.tier || b.unit.tx - a.unit.tx || compareStrings(a.unit.key, b.unit.key);
    })
    .map((o) => o.unit);
  const paid = new Set<string>();
  let tokens = 0;
  let records = 0;
  let chars = 0;
  const included: Unit[] = [];
  const excluded: Unit[] = [];
  const cuts = new Map<number, Excerpt>();
  const fits = (t: number, n: number, c: number) =>
    tokens + t <= budget.tokens && records + n <= budget.records && chars + c <= budget.chars;
  const place = (unit: Unit, mayCut: boolean): boolean => {
    let t = 0;
    let c = 0;
    const fresh: Candidate[] = [];
    for (const m of unit.members) {
      t += frame(m);
      if (m.bodyHash === null) continue;
      if (paid.has(m.bodyHash) || fresh.some((f) => f.bodyHash === m.bodyHash) || covered(m.nid, unit)) {
        t += Math.min(m.tokens, refTokens);
        continue;
      }
      fresh.push(m);
      t += m.tokens;
      c += m.body?.length ?? 0;
    }
    const n = unit.members.length;
    let cut: Map<number, Excerpt> | null = null;
    if (!fits(t, n, c) && excerpts && mayCut)
      cut = excerptUnit(
        fresh.filter((m) => !coveredBy.has(m.nid)),
        t,
        budget.tokens - tokens,
        excerpts,
      );
    if (cut !== null && !fits(cutCost(fresh, t, cut), n, cutChars(fresh, c, cut))) cut = null;
    if (!fits(t, n, c) && cut === null) return false;
    tokens += cut === null ? t : cutCost(fresh, t, cut);
    records += n;
    chars += cut === null ? c : cutChars(fresh, c, cut);
    for (const m of fresh) if (!cut?.has(m.nid)) paid.add(m.bodyHash!);
    for (const [nid, ex] of cut ?? []) cuts.set(nid, ex);
    // An excerpted member carries no other node's body (a view is not covered by an excerpt).
    for (const m of unit.members) {
      if (cut?.has(m.nid)) continue;
      packed.add(m.nid);
      if (m.bodyHash !== null) sharing.set(m.bodyHash, (sharing.get(m.bodyHash) ?? 0) + 1);
    }
    for (const m of fresh) if (!cut?.has(m.nid) && coveredBy.has(m.nid)) paidWhole.push(m);
    refund();
    return true;
  };
  // A member paid whole before the nodes that carry its body were packed (the current action's
  // output, packed before the view cut from it; a range packed before the wider view holding it)
  // is shown as a reference once they all are: what it was charged beyond a reference goes back
  // to the budget. Not when another packed member shares its body (that one relies on it).
  const sharing = new Map<string, number>();
  const paidWhole: Candidate[] = [];
  const refund = () => {
    for (let i = paidWhole.length - 1; i >= 0; i--) {
      const m = paidWhole[i]!;
      if (!coveredBy.get(m.nid)!.every((e) => packed.has(e))) continue;
      paidWhole.splice(i, 1);
      if (m.tokens <= refTokens || sharing.get(m.bodyHash!)! > 1) continue;
      tokens -= m.tokens - refTokens;
      chars -= m.body?.length ?? 0;
      paid.delete(m.bodyHash!);
    }
  };
  // Whole units first, in order, the recency fill (ranked units no relevance signal placed: they
  // come last in the order) aside; then excerpts of the relevance-placed units left out; then the
  // recency fill, whole and then as excerpts. Without excerpts this is the plain order. Cutting
  // units as soon as they did not fit whole (or only those larger than all the room the guaranteed
  // tiers left) took the place of whole units ranked after them and measured lower recall on the
  // replay evaluation at 1,000 and 2,000 tokens; an excerpt of a relevant output before the
  // recency fill measured higher at 1,000 and the same above.
  const isFill = (u: Unit) => ranked.get(u.key)?.signal === 'recency';
  const cutLeft = (units: readonly Unit[], rest: Unit[]) => {
    for (const unit of units)
      (excerpts && position(unit) !== undefined && place(unit, true) ? included : rest).push(unit);
  };
  const left: Unit[] = [];
  for (const unit of ordered) if (!isFill(unit) && !unit.reasoning) (place(unit, false) ? included : left).push(unit);
  cutLeft(left, excluded);
  // The current action's thought (whole or not at all) after the ranked evidence and before the
  // recency fill: its words already rank the evidence (the focus query), and the thought often
  // runs to hundreds of tokens: packed with its calls in tier 2, or at its own fused relevance
  // rank, it measured lower recall at small budgets on the replay evaluation
  // (docs/evaluation/experiments.md).
  for (const unit of ordered) if (unit.reasoning) (place(unit, false) ? included : excluded).push(unit);
  const fillLeft: Unit[] = [];
  for (const unit of ordered) if (isFill(unit)) (place(unit, false) ? included : fillLeft).push(unit);
  cutLeft(fillLeft, excluded);
  return { included, excluded, excerpts: cuts };
}

/** The unit's tool outputs cut to excerpts within `room` tokens (what the rest of the unit
 * leaves), the longest first, or null when none keeps a relevant line: an output with no
 * relevant line that fits is elided whole (a marker naming it). */
export function excerptUnit(
  cuttable: readonly Candidate[],
  tokens: number,
  room: number,
  cutter: Excerpts,
): Map<number, Excerpt> | null {
  const outputs = cuttable
    .filter((m) => EXCERPTED_KINDS.has(m.kind))
    .sort((a, b) => b.tokens - a.tokens || a.nid - b.nid);
  if (outputs.length === 0) return null;
  const out = new Map(outputs.map((m) => [m.nid, cutter.elided(m)]));
  // Every output's marker is paid first, so one output's excerpt cannot starve another's marker.
  let left = room - tokens;
  for (const m of outputs) left += m.tokens - out.get(m.nid)!.tokens;
  if (left < 0) return null;
  let kept = false;
  for (const m of outputs) {
    const marker = out.get(m.nid)!;
    const ex = cutter.cut(m, left + marker.tokens);
    if (ex === null) continue;
    out.set(m.nid, ex);
    left -= ex.tokens - marker.tokens;
    kept = true;
  }
  return kept ? out : null;
}

/** What may be cut to an excerpt: tool outputs and the file ranges (evidence) cut from them. */
const EXCERPTED_KINDS: ReadonlySet<string> = new Set(['tool_result', 'evidence']);

/** A unit's tokens and characters with some members shown as excerpts. */
export function cutCost(fresh: readonly Candidate[], tokens: number, cut: ReadonlyMap<number, Excerpt>): number {
  for (const m of fresh) {
    const ex = cut.get(m.nid);
    if (ex) tokens += ex.tokens - m.tokens;
  }
  return tokens;
}

export function cutChars(fresh: readonly Candidate[], chars: number, cut: ReadonlyMap<number, Excerpt>): number {
  for (const m of fresh) {
    const ex = cut.get(m.nid);
    if (ex) chars += ex.body.length - (m.body?.length ?? 0);
  }
  return chars;
}

/** Code-unit order, independent of locale. */
