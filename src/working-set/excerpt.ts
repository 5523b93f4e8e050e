import { textTerms } from '../text/text-terms.js';
import { type BodyLines, linedBody } from './body-lines.js';
import type { QueryTexts } from './query-terms.js';
import { excerptText } from './ref-text.js';
import type { Candidate, Excerpt, Excerpts } from './types.js';

/** Lines kept on each side of a relevant line: a line alone rarely reads without its neighbours
 * (the statement it continues, the block it opens). */
const EXCERPT_CONTEXT = 2;

/** A line that is only a comment (`#`, `//`, `/*`, `*` after the indentation). */
const COMMENT = /^\s*(?:#|\/\/|\/\*|\*(?!\*))/;

/** A body split into lines, each line's relevance to the query and (lazily) its tokens. */
interface ScoredBody {
  lines: readonly string[];
  /** Relevant lines (score > 0), best first, then by position. */
  hits: number[];
  tokens: Array<number | undefined>;
}

/**
 * Cuts excerpts of long tool outputs for one ranking: the lines relevant to what the agent must
 * do and is doing (the relevance query's text: task, steering, claims, the current action), each
 * with `EXCERPT_CONTEXT` lines around it (and up to as many comment lines just above those: what
 * the code is for), best lines first until the token limit; the rest
 * elided, by marker lines naming the node whose stored body holds them. A line's relevance is the
 * summed inverse line frequency (within that body) of the query terms it holds, so a name the
 * task uses scores high and a term on every line does not. Deterministic; per-body work is cached
 * for the ranking's lifetime.
 */
export class Excerpter implements Excerpts {
  private readonly query: ReadonlySet<string>;
  private readonly scored = new Map<string, ScoredBody>();

  /** `query`: the query's text, or its parts (their terms are the same as those of the parts
   * joined by newlines; as parts, each one's terms come from `queryTexts`, the ledger's memory
   * of them, when given). `bodyLines`: the ledger's memory of bodies' lines, their terms and
   * tokens, shared by its rankings (`countTokens` must then be the ledger's own). */
  constructor(
    query: string | readonly string[],
    private readonly countTokens: (text: string) => number,
    queryTexts?: QueryTexts,
    private readonly bodyLines?: BodyLines,
  ) {
    const parts = typeof query === 'string' ? [query] : query;
    this.query = new Set(parts.flatMap((text) => queryTexts?.distinctTerms(text) ?? textTerms(text)));
  }

  /**
   * The best excerpt of the candidate's body within `maxTokens` (rendered), or null when the body
   * has no relevant line or not even one fits. A body with a relevant line and no room for it
   * gives null, so a caller can fall back to leaving the whole unit out.
   */
  cut(c: Candidate, maxTokens: number): Excerpt | null {
    if (c.body === null || c.bodyHash === null || maxTokens <= 0) return null;
    const s = this.score(c.bodyHash, c.body);
    const of = s.lines.length;
    if (s.hits.length === 0) return null;
    const lineTokens = (i: number) => {
      let t = s.tokens[i];
      if (t === undefined) {
        t = this.countTokens(s.lines[i]!) + 1;
        s.tokens[i] = t;
      }
      return t;
    };
    // An estimate while choosing (line tokens plus a marker per gap), then the exact count of the
    // rendered text; a choice the exact count refuses drops its last span.
    const marker = this.countTokens(excerptText(c.id, '', [], of));
    const keep = new Uint8Array(of);
    const added: number[][] = [];
    let estimate = marker;
    for (const hit of s.hits) {
      if (keep[hit]) continue;
      const span: number[] = [];
      // A comment just above the window says what its code is for: it goes with it.
      let from = Math.max(0, hit - EXCERPT_CONTEXT);
      for (let n = 0; n < EXCERPT_CONTEXT && from > 0 && COMMENT.test(s.lines[from - 1]!); n++) from--;
      for (let i = from; i <= Math.min(of - 1, hit + EXCERPT_CONTEXT); i++) if (!keep[i]) span.push(i);
      let cost = marker;
      for (const i of span) cost += lineTokens(i);
      if (estimate + cost > maxTokens) continue;
      for (const i of span) keep[i] = 1;
      added.push(span);
      estimate += cost;
    }
    while (added.length > 0) {
      const out = this.render(c.id, s.lines, keep);
      if (out.tokens <= maxTokens) return out;
      for (const i of added.pop()!) keep[i] = 0;
    }
    return null;
  }

  /** The body with every line elided: one marker naming the node. */
  elided(c: Candidate): Excerpt {
    // Only the line count: scoring the body's lines (most of packing's time at 8.6k nodes, for
    // every unit the budget leaves out) is for cut().
    const of = c.body === null ? 0 : lineCount(c.body);
    return { body: '', lines: [], of, tokens: this.countTokens(excerptText(c.id, '', [], of)) };
  }

  private render(id: string, lines: readonly string[], keep: Uint8Array): Excerpt {
    const ranges: Array<[number, number]> = [];
    const kept: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!keep[i]) continue;
      kept.push(lines[i]!);
      const last = ranges[ranges.length - 1];
      if (last && last[1] === i) last[1] = i + 1;
      else ranges.push([i + 1, i + 1]);
    }
    const body = kept.join('\n');
    return {
      body,
      lines: ranges,
      of: lines.length,
      tokens: this.countTokens(excerptText(id, body, ranges, lines.length)),
    };
  }

  private score(hash: string, body: string): ScoredBody {
    let s = this.scored.get(hash);
    if (s) return s;
    const { lines, terms, linesWith, tokens } = this.bodyLines?.of(hash, body) ?? linedBody(body);
    const n = lines.length;
    // A query term's weight by the lines holding it, each worked out once.
    const weights = new Map<string, number>();
    const weight = (t: string) => {
      let w = weights.get(t);
      if (w === undefined) {
        const df = linesWith.get(t)!;
        w = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        weights.set(t, w);
      }
      return w;
    };
    const scored: Array<{ x: number; i: number }> = [];
    for (let i = 0; i < n; i++) {
      let x = 0;
      for (const t of terms[i]!) if (this.query.has(t)) x += weight(t);
      if (x > 0) scored.push({ x, i });
    }
    const hits = scored.sort((a, b) => b.x - a.x || a.i - b.i).map((h) => h.i);
    s = { lines, hits, tokens };
    this.scored.set(hash, s);
    return s;
  }
}

/** `body.split('\n').length`, without the split. */
function lineCount(body: string): number {
  let n = 1;
  for (let i = body.indexOf('\n'); i >= 0; i = body.indexOf('\n', i + 1)) n++;
  return n;
}
