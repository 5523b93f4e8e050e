import { textTerms } from '../text/text-terms.js';

/** A body's lines, each line's distinct terms in the order they first occur there, how many
 * lines hold each term, and, filled as excerpts ask for them, each line's tokens (plus one for
 * its newline). */
export interface LinedBody {
  lines: readonly string[];
  terms: ReadonlyArray<readonly string[]>;
  linesWith: ReadonlyMap<string, number>;
  tokens: Array<number | undefined>;
}

/** Characters of the bodies kept: as the retrieval index's body cache keeps. */
const CHARS_KEPT = 1_000_000;

/**
 * What one ledger's excerpts remember of the bodies they cut, across rankings: splitting a body
 * into lines, finding each line's terms and counting each line's tokens depend on the body alone
 * (by content hash), while every step ranks against a new query and so makes a new Excerpter. An
 * agent loop cuts excerpts of mostly the same outputs step after step (the ranked units a re-pack
 * would leave out), and that per-line work was most of an appending step's packing. Least recently
 * used first out, bounded by characters. Read-only once made, except the token counts, which are
 * the same whoever fills them.
 */
export class BodyLines {
  private readonly kept = new Map<string, LinedBody>();
  private chars = 0;

  of(hash: string, body: string): LinedBody {
    let hit = this.kept.get(hash);
    if (hit !== undefined) {
      this.kept.delete(hash);
      this.kept.set(hash, hit);
      return hit;
    }
    hit = linedBody(body);
    if (body.length > CHARS_KEPT) return hit;
    this.kept.set(hash, hit);
    this.chars += body.length;
    for (const [h, b] of this.kept) {
      if (this.chars <= CHARS_KEPT) break;
      this.kept.delete(h);
      this.chars -= charsOf(b);
    }
    return hit;
  }

  /** Whether the body with this content hash is kept (for tests of the bound). */
  holds(hash: string): boolean {
    return this.kept.has(hash);
  }
}

/** A body split into lines, with each line's distinct terms and each term's line count; no
 * token counted yet. */
export function linedBody(body: string): LinedBody {
  const lines = body.split('\n');
  const terms = lines.map((l) => [...new Set(textTerms(l))]);
  const linesWith = new Map<string, number>();
  for (const ts of terms) for (const t of ts) linesWith.set(t, (linesWith.get(t) ?? 0) + 1);
  return { lines, terms, linesWith, tokens: new Array(lines.length) };
}

/** The characters of the body a LinedBody was split from. */
function charsOf(b: LinedBody): number {
  let n = b.lines.length - 1;
  for (const l of b.lines) n += l.length;
  return n;
}
