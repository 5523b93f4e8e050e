import { dropRankings } from './rank-candidates.js';
import { dropRankingMemory } from './ranking-memory.js';
import { dropSessionFolds } from './session.js';

/**
 * Drops everything the working set keeps for a ledger (`cacheOwner`): its rankings, session folds
 * and ranking memory. A closed ledger answers no more requests, so what they hold — bodies, query
 * texts, packed states — would only pin memory until the ledger object itself is collected.
 */
export function dropLedgerCaches(owner: object): void {
  dropRankings(owner);
  dropSessionFolds(owner);
  dropRankingMemory(owner);
}
