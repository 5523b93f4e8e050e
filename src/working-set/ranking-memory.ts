import { BodyLines } from './body-lines.js';
import { BodyTerms } from './body-terms.js';
import { QueryTexts } from './query-terms.js';

/** What a ledger's rankings remember between materializes: work that depends only on text. */
export interface RankingMemory {
  queryTexts: QueryTexts;
  bodyTerms: BodyTerms;
  bodyLines: BodyLines;
}

/**
 * Keyed by the ledger (its `cacheOwner`) like the ranking and session caches: a process holding
 * several ledgers keeps each one's texts apart, and a ledger's go when it closes (or, unclosed,
 * with the ledger itself).
 */
const byOwner = new WeakMap<object, RankingMemory>();

/** The owner's memory, made on first use; a fresh one, kept by nobody, without an owner. */
export function rankingMemory(owner: object | undefined): RankingMemory {
  const held = owner === undefined ? undefined : byOwner.get(owner);
  if (held !== undefined) return held;
  const made = { queryTexts: new QueryTexts(), bodyTerms: new BodyTerms(), bodyLines: new BodyLines() };
  if (owner !== undefined) byOwner.set(owner, made);
  return made;
}

/** The owner's memory if it has one (never makes one). @internal Exported for its unit tests. */
export function heldRankingMemory(owner: object): RankingMemory | undefined {
  return byOwner.get(owner);
}

export function dropRankingMemory(owner: object): void {
  byOwner.delete(owner);
}
