/**
 * Measurement shared by every method and the ceiling, so no method is judged by a kinder rule:
 * which gold lines a text shows, recall, precision, tool-call pairing, and a deterministic
 * bootstrap interval.
 */
import type { GoldFile } from './gold-lines.js';

/** A gold line, its text with trailing whitespace trimmed. */
export interface GoldLine {
  path: string;
  line: number;
  text: string;
}

/**
 * Gold lines with fewer non-space characters than this are ignored everywhere (methods and
 * ceiling alike): a blank line, `)` or `else:` is "shown" by almost any text and says nothing
 * about whether the evidence was in view.
 */
export const MIN_GOLD_CHARS = 4;

/** The usable gold lines of a patch's files, and how many were dropped as blank or too short. */
export function usableGold(files: readonly GoldFile[]): { lines: GoldLine[]; dropped: number } {
  const lines: GoldLine[] = [];
  let dropped = 0;
  for (const f of files) {
    for (const l of f.lines) {
      const text = l.text.trimEnd();
      if (text.replace(/\s/g, '').length < MIN_GOLD_CHARS) dropped++;
      else lines.push({ path: f.path, line: l.line, text });
    }
  }
  return { lines, dropped };
}

/**
 * Decides which gold lines a text shows. A line of the text shows a gold line when, trailing
 * whitespace trimmed, it ends with the gold text and nothing identifier-like runs into it from the
 * left — so `nl -ba` and `cat -n` listings, `grep -n` output (`path:12:…`) and diff markers count,
 * while `self.x = 1` does not show a gold `x = 1`. Results are cached per text, since the same
 * bodies recur across budgets and events.
 */
export class LineMatcher {
  private readonly byText = new Map<string, number[]>();
  private readonly cache = new Map<string, ReadonlySet<number>>();

  constructor(readonly gold: readonly GoldLine[]) {
    gold.forEach((g, i) => {
      const list = this.byText.get(g.text);
      if (list) list.push(i);
      else this.byText.set(g.text, [i]);
    });
  }

  /** Indices (into `gold`) of the gold lines the text shows. */
  shown(text: string): ReadonlySet<number> {
    const hit = this.cache.get(text);
    if (hit) return hit;
    const out = new Set<number>();
    if (this.byText.size > 0) {
      for (const raw of text.split('\n')) {
        const line = raw.trimEnd();
        for (const [g, ids] of this.byText) {
          if (line.length >= g.length && line.endsWith(g) && !IDENT.test(line.charAt(line.length - g.length - 1))) {
            for (const i of ids) out.add(i);
          }
        }
      }
    }
    this.cache.set(text, out);
    return out;
  }

  /** Union of the gold lines several texts show. */
  shownBy(texts: Iterable<string>): Set<number> {
    const out = new Set<number>();
    for (const t of texts) for (const i of this.shown(t)) out.add(i);
    return out;
  }
}

const IDENT = /[A-Za-z0-9_.]/;

/** Share of `gold` (indices) among `present`; 0 for an empty gold set. */
export function recallOf(present: ReadonlySet<number>, gold: readonly number[]): number {
  if (gold.length === 0) return 0;
  return gold.filter((g) => present.has(g)).length / gold.length;
}

/**
 * Share of a context's tokens that are gold evidence: the token count of each gold line it shows
 * (each line once — a repeated copy is not more evidence), over the context's tokens.
 */
export function precisionOf(
  present: ReadonlySet<number>,
  gold: readonly number[],
  goldTokens: readonly number[],
  contextTokens: number,
): number {
  if (contextTokens <= 0) return 0;
  let t = 0;
  for (const g of gold) if (present.has(g)) t += goldTokens[g] ?? 0;
  return Math.min(1, t / contextTokens);
}

/** Which tool results each call produced (from the transactions' `produces` edges). */
export interface Pairing {
  resultsOf: ReadonlyMap<string, readonly string[]>;
  callOf: ReadonlyMap<string, string>;
}

/** True when every shown call has all its results shown and every shown result its call. */
export function pairsIntact(shown: ReadonlySet<string>, pairing: Pairing): boolean {
  for (const id of shown) {
    const results = pairing.resultsOf.get(id);
    if (results?.some((r) => !shown.has(r))) return false;
    const call = pairing.callOf.get(id);
    if (call !== undefined && !shown.has(call)) return false;
  }
  return true;
}

/** mulberry32: a tiny seeded PRNG, so bootstrap intervals are reproducible run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BootstrapOptions {
  samples: number;
  seed: number;
  /** Two-sided coverage, e.g. 0.95. */
  level: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { samples: 2000, seed: 1, level: 0.95 };

/**
 * Percentile bootstrap interval of the mean of all values, resampling whole groups (one group per
 * trajectory): events of one trajectory are correlated, so resampling them one by one would
 * claim more certainty than the data holds. Empty groups are ignored.
 */
export function bootstrapMeanCI(
  groups: readonly (readonly number[])[],
  options: BootstrapOptions = DEFAULT_BOOTSTRAP,
): [number, number] {
  const sums = groups.filter((g) => g.length > 0).map((g) => ({ sum: g.reduce((a, b) => a + b, 0), n: g.length }));
  if (sums.length === 0) return [0, 0];
  const random = seededRandom(options.seed);
  const means: number[] = [];
  for (let s = 0; s < options.samples; s++) {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < sums.length; i++) {
      const g = sums[Math.floor(random() * sums.length)]!;
      sum += g.sum;
      n += g.n;
    }
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  const tail = (1 - options.level) / 2;
  const at = (q: number) => means[Math.min(means.length - 1, Math.max(0, Math.round(q * (means.length - 1))))]!;
  return [at(tail), at(1 - tail)];
}

export const mean = (xs: readonly number[]): number =>
  xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
