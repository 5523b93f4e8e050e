import { compareStrings } from '../text/compare.js';
import type { Unit } from './types.js';

export interface Budget {
  tokens: number;
  records: number;
  chars: number;
}

export interface PackResult {
  included: Unit[];
  excluded: Unit[];
}

/**
 * Packs whole units into the budget, tier by tier (within a tier the most recent first, then by
 * key; the ranked tiers in their fused relevance order), skipping a unit that does not fit and trying the next. A body already packed costs only
 * its reference (`refTokens`), so each body is paid for once; so does a tool result whose lines
 * are all carried by evidence already packed (a file view and the exact range cut from it).
 * Pure and deterministic.
 */
export function packUnits(
  units: readonly Unit[],
  budget: Budget,
  refTokens: number,
  /** Bodies carried by other nodes once those are packed (a tool result by the evidence cut from
   * it, a written file by the command that wrote it): nid → the nids that carry it. */
  coveredBy: ReadonlyMap<number, readonly number[]> = new Map(),
  /** Fused relevance position of the units below the guaranteed tiers (unit key → rank); units
   * it ranks are packed after every unit it does not, in its order. */
  ranked: ReadonlyMap<string, { rank: number }> = new Map(),
): PackResult {
  const packed = new Set<number>();
  const covered = (nid: number, unit: Unit) => {
    const ev = coveredBy.get(nid);
    return ev !== undefined && ev.length > 0 && ev.every((e) => packed.has(e) || unit.members.some((m) => m.nid === e));
  };
  const position = (u: Unit) => ranked.get(u.key)?.rank;
  const ordered = [...units].sort((a, b) => {
    const pa = position(a);
    const pb = position(b);
    if (pa !== undefined && pb !== undefined) return pa - pb;
    if (pa !== undefined || pb !== undefined) return pa === undefined ? -1 : 1;
    return a.tier - b.tier || b.tx - a.tx || compareStrings(a.key, b.key);
  });
  const paid = new Set<string>();
  let tokens = 0;
  let records = 0;
  let chars = 0;
  const included: Unit[] = [];
  const excluded: Unit[] = [];
  for (const unit of ordered) {
    let t = 0;
    let c = 0;
    const fresh: string[] = [];
    for (const m of unit.members) {
      if (m.bodyHash === null) continue;
      if (paid.has(m.bodyHash) || fresh.includes(m.bodyHash) || covered(m.nid, unit)) {
        t += Math.min(m.tokens, refTokens);
        continue;
      }
      fresh.push(m.bodyHash);
      t += m.tokens;
      c += m.body?.length ?? 0;
    }
    if (tokens + t <= budget.tokens && records + unit.members.length <= budget.records && chars + c <= budget.chars) {
      tokens += t;
      records += unit.members.length;
      chars += c;
      for (const h of fresh) paid.add(h);
      for (const m of unit.members) packed.add(m.nid);
      included.push(unit);
    } else {
      excluded.push(unit);
    }
  }
  return { included, excluded };
}

/** Code-unit order, independent of locale. */
