import { textTerms } from '../text/text-terms.js';

/**
 * The distinct terms of a relevance query's text, in the order they first occur (BM25 sums its
 * terms in that order). Ranking asks for them twice per materialize (BM25, excerpts), and an
 * agent's next step asks again for mostly the same text — the open tasks, steering and claims,
 * ~150k characters on a long session, ~6 ms of tokenising each time — so the last few texts'
 * terms are kept: a hit costs a hash and a comparison of the string. Pure; read-only results.
 */
export function distinctTerms(text: string): readonly string[] {
  const hit = recent.get(text);
  if (hit !== undefined) {
    // Most recent last: the oldest is the one dropped.
    recent.delete(text);
    recent.set(text, hit);
    return hit;
  }
  const terms = [...new Set(textTerms(text))];
  if (recent.size >= KEPT) recent.delete(recent.keys().next().value!);
  recent.set(text, terms);
  return terms;
}

/** Texts kept: a ranking's query text and action focus, with room for a second ledger's. */
const KEPT = 4;
const recent = new Map<string, readonly string[]>();

/**
 * `text.includes(needle)`, remembered for the last few texts: the query's text on a long session
 * is ~150k characters, and the paths tested against it recur from step to step. Pure.
 */
export function textIncludes(text: string, needle: string): boolean {
  let known = includes.get(text);
  if (known === undefined) {
    if (includes.size >= KEPT) includes.delete(includes.keys().next().value!);
    known = new Map();
    includes.set(text, known);
  }
  let hit = known.get(needle);
  if (hit === undefined) {
    hit = text.includes(needle);
    if (known.size >= NEEDLES_KEPT) known.clear();
    known.set(needle, hit);
  }
  return hit;
}

const includes = new Map<string, Map<string, boolean>>();
const NEEDLES_KEPT = 50_000;
