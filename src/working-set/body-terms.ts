import { textTerms } from '../text/text-terms.js';
import type { Candidate } from './types.js';

/** A body's terms as a BM25 document. */
export interface BodyTermCounts {
  counts: Map<string, number>;
  length: number;
}

const EMPTY: BodyTermCounts = { counts: new Map(), length: 0 };
/** Bodies (and, per query, bodies' matches) kept: more than a long session's closure holds. */
const BODIES_KEPT = 20_000;

/**
 * What one ledger's rankings remember of the bodies they scored: the same bodies are ranked on
 * every materialize, and a body's terms and its matches against a query depend only on the body
 * (by content hash) and the query. Held per ledger (see ranking-memory.ts), so one ledger's
 * bodies never stay alive in, or evict from, another's. Read-only once computed.
 */
export class BodyTerms {
  private readonly counts = new Map<string, BodyTermCounts>();
  /** Per query (QueryTexts hands out one array per text): each body's matching query terms. */
  private readonly hitsByQuery = new WeakMap<readonly string[], Map<string, BodyHits>>();

  /** Term counts of a candidate's body. */
  of(m: Candidate): BodyTermCounts {
    if (m.body === null || m.bodyHash === null) return EMPTY;
    let hit = this.counts.get(m.bodyHash);
    if (!hit) {
      const counts = new Map<string, number>();
      const terms = textTerms(m.body);
      for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
      hit = { counts, length: terms.length };
      if (this.counts.size >= BODIES_KEPT) this.counts.delete(this.counts.keys().next().value!);
      this.counts.set(m.bodyHash, hit);
    }
    return hit;
  }

  /** The known matches of each body against `query`, by content hash (rememberHits adds to it). */
  hitsFor(query: readonly string[]): Map<string, BodyHits> {
    let known = this.hitsByQuery.get(query);
    if (known === undefined) {
      known = new Map();
      this.hitsByQuery.set(query, known);
    }
    return known;
  }

  /** Whether the body with this content hash has its terms kept (for tests of the memory's scope). */
  holds(bodyHash: string): boolean {
    return this.counts.has(bodyHash);
  }
}

/** A body's matches against a query: the matching terms' positions in the query, ascending, and
 * each one's count in the body (what scoring reads, without a lookup by term). */
export interface BodyHits {
  terms: readonly number[];
  counts: readonly number[];
}

/** Records a body's matches in a query's `known` map, bounded like the term counts. */
export function rememberHits(known: Map<string, BodyHits>, hash: string, hits: BodyHits): void {
  if (known.size >= BODIES_KEPT) known.clear();
  known.set(hash, hits);
}
