import type { ExplanationRecord } from '../../src/working-set/types.js';
import { naturalCompare } from './natural-order.js';

/**
 * Why a candidate is in or out, in words a person reads once: the library's reason, the tier
 * named once, and for what the budget left out its size, its rank in its tier and the room that
 * was free. Pure (unit-tested).
 */

/** Budget presets the page offers; the default is chosen among them (see defaultBudget). */
export const BUDGET_PRESETS = [4_000, 8_000, 32_000, 128_000] as const;

/**
 * The budget a trace opens with: the largest preset at most half of what every record valid at
 * the last step needs, so that some of the trace is left out and the packing shows its choices
 * (a budget holding everything explains nothing); the smallest preset for a small trace.
 */
export function defaultBudget(totalTokens: number): number {
  const fits = BUDGET_PRESETS.filter((p) => p <= totalTokens / 2);
  return fits.at(-1) ?? BUDGET_PRESETS[0];
}

/** `4k`, `128k`, `1,500`. */
export const budgetLabel = (tokens: number): string =>
  tokens % 1000 === 0 && tokens > 0 ? `${tokens / 1000}k` : tokens.toLocaleString('en');

/** The channel rank the library gives a ranked record (`recency #4` → 4). */
const signalRank = (e: ExplanationRecord): number | undefined => {
  const m = e.signal ? /#(\d+)$/.exec(e.signal) : null;
  return m ? Number(m[1]) : undefined;
};

/**
 * Each ranked candidate's place among its tier's units (an action with its calls and results is
 * packed or dropped whole, and the library gives every member the unit's signal), in the order
 * packing offered them: the signal rank, ties by id. Candidates without a signal (tiers packed
 * whole, superseded or out-of-bound records) have none.
 */
export function tierRanks(explanation: readonly ExplanationRecord[]): Map<string, { rank: number; of: number }> {
  const byTier = new Map<number, Map<string, { signal: string; rank: number; ids: string[] }>>();
  for (const e of explanation) {
    const rank = signalRank(e);
    if (e.tier === undefined || rank === undefined || e.signal === undefined) continue;
    const units = byTier.get(e.tier) ?? byTier.set(e.tier, new Map()).get(e.tier)!;
    const unit = units.get(e.signal) ?? units.set(e.signal, { signal: e.signal, rank, ids: [] }).get(e.signal)!;
    unit.ids.push(e.id);
  }
  const out = new Map<string, { rank: number; of: number }>();
  for (const units of byTier.values()) {
    const list = [...units.values()].sort((a, b) => a.rank - b.rank || naturalCompare(a.signal, b.signal));
    list.forEach((u, i) => {
      for (const id of u.ids) out.set(id, { rank: i + 1, of: list.length });
    });
  }
  return out;
}

/**
 * What each record the budget left out needed: the tokens of its whole unit (the records that
 * share its tier and signal, or its tier and reason when unranked), since a unit goes in whole or
 * not at all.
 */
export function unitNeeds(
  explanation: readonly ExplanationRecord[],
  tokensOf: (id: string) => number | undefined,
): Map<string, number> {
  const sums = new Map<string, { tokens: number; ids: string[] }>();
  for (const e of explanation) {
    if (!byBudget(e)) continue;
    const key = `${e.tier}\u0000${e.signal ?? e.reason}`;
    const unit = sums.get(key) ?? sums.set(key, { tokens: 0, ids: [] }).get(key)!;
    unit.tokens += tokensOf(e.id) ?? 0;
    unit.ids.push(e.id);
  }
  const out = new Map<string, number>();
  for (const u of sums.values()) for (const id of u.ids) out.set(id, u.tokens);
  return out;
}

export interface WhyContext {
  /** The record's own tokens. */
  tokens?: number;
  rank?: { rank: number; of: number };
  /** Tokens its unit needed (budget exclusions only). */
  needs?: number;
  /** Budget tokens left unused after packing. */
  free: number;
}

/** Left out by the budget (its tier's room ran out), as opposed to superseded or beyond the bound. */
export const byBudget = (e: ExplanationRecord): boolean => e.code === 'budget';

/**
 * The one-line stub a left-out record gets in the conversation:
 * `✗ act:17 · 35 tok · rank 9 of 14 · needs 35, 12 free`.
 */
export function stubText(e: ExplanationRecord, c: WhyContext): string {
  const parts = [`✗ ${e.id}`];
  if (c.tokens !== undefined) parts.push(`${c.tokens} tok`);
  if (c.rank) parts.push(`rank ${c.rank.rank} of ${c.rank.of}`);
  if (byBudget(e)) parts.push(`needs ${c.needs ?? c.tokens ?? '?'}, ${c.free} free`);
  else if (!byBudget(e)) parts.push(e.reason);
  return parts.join(' · ');
}

/**
 * The sentence the details drawer gives: in or out, the library's reason as it stands (it
 * already names the tier in words, so the tier is not appended again), then the facts a reader
 * needs to judge it.
 */
export function whyText(e: ExplanationRecord, c: WhyContext, tierName: (tier: number) => string): string {
  const facts: string[] = [];
  if (e.tier !== undefined) facts.push(`tier ${e.tier + 1} ${tierName(e.tier)}`);
  if (c.rank) facts.push(`rank ${c.rank.rank} of ${c.rank.of} in its tier${e.signal ? ` (${e.signal})` : ''}`);
  else if (e.signal) facts.push(e.signal);
  if (c.tokens !== undefined) facts.push(`${c.tokens} tok`);
  const needs = c.needs ?? c.tokens;
  if (byBudget(e) && needs !== undefined)
    facts.push(
      needs > c.free
        ? `its unit needs ${needs}, ${c.free} free`
        : `its unit needs ${needs}; ${c.free} free now, but not when its tier was packed`,
    );
  return `${e.included ? 'In' : 'Out'}: ${e.reason}${facts.length > 0 ? ` — ${facts.join(' · ')}` : ''}`;
}

/** The current action's records the budget left out (tier 3, `current-action`): a warning to show. */
export function droppedCurrentAction(explanation: readonly ExplanationRecord[]): ExplanationRecord[] {
  return explanation.filter((e) => byBudget(e) && e.tier === CURRENT_ACTION_TIER);
}

/** Index of `current-action` in TIERS. */
export const CURRENT_ACTION_TIER = 2;
