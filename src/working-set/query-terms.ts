import { textTerms } from '../text/text-terms.js';

/** Texts kept: a ranking's query text and action focus, and those of the ranking before it. */
const KEPT = 4;
const NEEDLES_KEPT = 50_000;

/**
 * What one ledger's rankings remember of their query texts. Ranking asks for a text's terms twice
 * per materialize (BM25, excerpts), and an agent's next step asks again for mostly the same text —
 * the open tasks, steering and claims, ~150k characters on a long session, ~6 ms of tokenising
 * each time — so the last few texts' terms are kept: a hit costs a hash and a comparison of the
 * string. Held per ledger (see ranking-memory.ts), so one ledger's texts never stay alive in, or
 * evict from, another's. Answers are those of the plain functions; results are read-only.
 */
export class QueryTexts {
  private readonly recent = new Map<string, readonly string[]>();
  private readonly includes = new Map<string, Map<string, boolean>>();

  /** The distinct terms of a text, in the order they first occur (BM25 sums its terms in that
   * order); the same array while the text is kept. */
  distinctTerms(text: string): readonly string[] {
    const hit = this.recent.get(text);
    if (hit !== undefined) {
      // Most recent last: the oldest is the one dropped.
      this.recent.delete(text);
      this.recent.set(text, hit);
      return hit;
    }
    const terms = [...new Set(textTerms(text))];
    if (this.recent.size >= KEPT) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(text, terms);
    return terms;
  }

  /** `text.includes(needle)`: the paths tested against the query's text recur from step to step. */
  textIncludes(text: string, needle: string): boolean {
    let known = this.includes.get(text);
    if (known === undefined) {
      if (this.includes.size >= KEPT) this.includes.delete(this.includes.keys().next().value!);
      known = new Map();
      this.includes.set(text, known);
    }
    let hit = known.get(needle);
    if (hit === undefined) {
      hit = text.includes(needle);
      if (known.size >= NEEDLES_KEPT) known.clear();
      known.set(needle, hit);
    }
    return hit;
  }

  /** Texts whose terms are kept (for tests of the memory's scope). */
  get size(): number {
    return this.recent.size;
  }
}
