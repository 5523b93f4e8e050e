import { compareStrings } from '../text/compare.js';
import { textTerms } from '../text/text-terms.js';
import { distinctTerms, textIncludes } from './query-terms.js';
import type { Candidate, Unit } from './types.js';

/** Units at or above this tier are hard guarantees, packed by rule; the rest are ranked here. */
export const RANKED_FROM_TIER = 4;

/** The signals that can place a ranked unit, in tie-break order. */
export type Signal = 'exact path' | 'bm25' | 'action bm25' | 'current evidence' | 'recency';

export interface Placement {
  /** Position in the fused order (0 = first). */
  rank: number;
  /** The signal whose reciprocal rank contributed most. */
  signal: Signal;
  /** That signal's own rank (1-based), for the explanation. */
  signalRank: number;
}

export interface RelevanceQuery {
  /** Text of what the agent must do: open tasks, steering, unresolved claims. */
  text: string;
  /** Text of what it is doing now: the current action's thought and commands. */
  focus?: string;
  /** Commands of open work (the current action's calls): an older run of one is history. */
  commands?: ReadonlySet<string>;
  /** Paths open work touches (evidence it cites, revisions it made). */
  paths: ReadonlySet<string>;
  /** Nodes whose body is text the agent wrote whole itself: a command that writes a file from
   * its own text (a here-doc, `printf … >`) and the revision it wrote. BM25 does not score them. */
  authored?: ReadonlySet<number>;
}

/** Reciprocal-rank constant: the usual 60, so no single channel's head dominates the fusion. */
const RRF_K = 60;
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/**
 * Orders the units below the guaranteed tiers: relevance by reciprocal-rank fusion of BM25 of
 * the unit's text against what the agent must do (task, steering, claims), BM25 against what it
 * is doing now (the current action's thought and commands: a later edit needs the lines that
 * action is about, which the task may not name), exact path (a unit holding a file the query
 * names or open work touches, or a command naming one — an old view whose evidence was since
 * superseded still shows that file's earlier lines; newer first) and current evidence (a
 * still-valid file range, newer first). BM25 treats each body as a document and a unit scores
 * as its best member. A unit whose commands were all run again later (by a newer unit or by the
 * current action) is placed by recency only. Then
 * the units no channel scores, newest first, so whatever budget relevance leaves is filled as a
 * recency window would fill it. Each channel ranks only the units it scores; ties break by
 * transaction (newer first), then by key. Pure and deterministic.
 */
export function rankUnits(units: readonly Unit[], query: RelevanceQuery): Map<string, Placement> {
  const pool = [...units]
    .filter((u) => u.tier >= RANKED_FROM_TIER)
    .sort((a, b) => b.tx - a.tx || compareStrings(a.key, b.key));
  const channels = new Map<Signal, Map<string, number>>();
  const ranked = (signal: Signal, scored: Array<{ key: string; score: number }>) => {
    // pool order is the tie-break (stable sort): newer first, then key
    const order = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score);
    channels.set(signal, new Map(order.map((s, i) => [s.key, i + 1])));
  };

  ranked(
    'recency',
    pool.map((u, i) => ({ key: u.key, score: pool.length - i })),
  );
  ranked(
    'current evidence',
    pool.map((u) => ({ key: u.key, score: u.members.some((m) => m.kind === 'evidence') ? u.tx + 1 : 0 })),
  );
  const named = namedPaths(pool, query);
  const mentions = pathMentions(named);
  ranked(
    'exact path',
    pool.map((u) => ({
      key: u.key,
      score: u.members.some((m) => (m.path !== null && named.has(m.path)) || commandNames(m, mentions)) ? u.tx + 1 : 0,
    })),
  );
  // A file the agent wrote whole (a reproduction script) matches the task because the agent copied
  // the task's example into it, not because it shows the code the task is about: BM25 does not
  // place it (exact path still does while open work touches the file). Scoring it crowded file
  // views out of small budgets on the replay evaluation.
  const authored = query.authored ?? new Set<number>();
  ranked('bm25', bm25Scores(pool, query.text, authored));
  ranked('action bm25', bm25Scores(pool, query.focus ?? '', authored));

  // A command run again later (the reproduction script after each change) has its older outputs
  // placed by recency only: the newer run shows the state they described.
  const rerun = rerunUnits(pool, query.commands ?? new Set());
  // A finished action cut from its calls is the agent's own prose about them: its calls' outputs
  // are the evidence, so it is placed by recency only.
  for (const u of pool) if (u.members.every((m) => m.kind === 'action')) rerun.add(u.key);
  for (const channel of channels.values())
    for (const key of rerun) if (channel !== channels.get('recency')) channel.delete(key);

  // Relevance leads: units some relevance channel scores, in fused order; then the rest, newest
  // first (the recency fill). Fusing recency in at equal weight measured ~8 points lower at 8k
  // and 16k tokens on the replay evaluation: recent but irrelevant output crowded out old views.
  const relevance = fuse(pool, RELEVANCE_SIGNALS, channels);
  const recency = channels.get('recency')!;
  const scored = relevance.filter((f) => f.score > 0);
  const rest = relevance.filter((f) => f.score === 0).sort((a, b) => recency.get(a.key)! - recency.get(b.key)!);
  const placed = [
    ...scored.map((f) => ({ key: f.key, signal: f.best!.signal, signalRank: f.best!.rank })),
    ...rest.map((f) => ({ key: f.key, signal: 'recency' as Signal, signalRank: recency.get(f.key)! })),
  ];
  return new Map(placed.map((f, i) => [f.key, { rank: i, signal: f.signal, signalRank: f.signalRank }]));
}

const RELEVANCE_SIGNALS: readonly Signal[] = ['exact path', 'bm25', 'action bm25', 'current evidence'];

/** Units whose every command was run again by a newer unit or by open work (`later`). */
function rerunUnits(pool: readonly Unit[], later: ReadonlySet<string>): Set<string> {
  const newest = new Map<string, number>();
  for (const u of pool)
    for (const m of u.members)
      if (m.kind === 'tool_call' && m.body !== null) newest.set(m.body, Math.max(newest.get(m.body) ?? -1, u.tx));
  const out = new Set<string>();
  for (const u of pool) {
    const calls = u.members.filter((m) => m.kind === 'tool_call' && m.body !== null);
    if (calls.length > 0 && calls.every((c) => later.has(c.body!) || newest.get(c.body!)! > u.tx)) out.add(u.key);
  }
  return out;
}

/** Reciprocal-rank fusion of some channels; units no channel ranks keep pool order at score 0. */
function fuse(
  pool: readonly Unit[],
  signals: readonly Signal[],
  channels: ReadonlyMap<Signal, ReadonlyMap<string, number>>,
): Array<{ key: string; tx: number; score: number; best: { signal: Signal; part: number; rank: number } | null }> {
  const out = pool.map((u) => {
    let score = 0;
    let best: { signal: Signal; part: number; rank: number } | null = null;
    for (const signal of signals) {
      const r = channels.get(signal)?.get(u.key);
      if (r === undefined) continue;
      const part = 1 / (RRF_K + r);
      score += part;
      if (!best || part > best.part) best = { signal, part, rank: r };
    }
    return { key: u.key, tx: u.tx, score, best };
  });
  return out.sort((a, b) => b.score - a.score);
}

/** Paths open work touches, and paths of ranked units the query text names (full path, or its last
 * two segments, or a file name with an extension). */
function namedPaths(pool: readonly Unit[], query: RelevanceQuery): Set<string> {
  // Open work's own paths count even when no ranked unit holds them: a command may still name them.
  const out = new Set<string>(query.paths);
  const focus = query.focus ?? '';
  // In `text\nfocus`, a needle without a newline occurs in one of the two: the long, stable part is
  // asked through textIncludes' memory, the action's few lines directly.
  const includes = (needle: string) =>
    needle.includes('\n')
      ? `${query.text}\n${focus}`.includes(needle)
      : textIncludes(query.text, needle) || focus.includes(needle);
  // A path is tested once, however many members hold it (a long session views a file many times).
  const unnamed = new Set<string>();
  for (const u of pool) {
    for (const m of u.members) {
      const p = m.path;
      if (p === null || out.has(p) || unnamed.has(p)) continue;
      const parts = p.split('/').filter(Boolean);
      const tail = parts.slice(-2).join('/');
      const base = parts[parts.length - 1] ?? '';
      // Each form holds the file name: a name the text lacks rules the path out in one scan of
      // the text (on a long session the query holds every open claim: ~150k characters).
      if (base !== '' && !includes(base)) {
        unnamed.add(p);
        continue;
      }
      if (includes(p) || (parts.length >= 2 && includes(tail)) || (/\.\w+$/.test(base) && includes(base))) out.add(p);
      else unnamed.add(p);
    }
  }
  return out;
}

/** How a command names a path: the full path, its last two segments, or a file name with an
 * extension (the same forms namedPaths accepts in the query text). */
function pathMentions(paths: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const parts = p.split('/').filter(Boolean);
    const base = parts[parts.length - 1] ?? '';
    out.add(p);
    if (parts.length >= 2) out.add(parts.slice(-2).join('/'));
    if (/\.\w+$/.test(base)) out.add(base);
  }
  return [...out].sort();
}

/** An action or a tool call whose text names a path of the working files: a command that read,
 * searched or edited one of them carries no path of its own (its views may be superseded since),
 * yet its output is about that file — often the only place the file's earlier lines still show. */
const commandNames = (m: Candidate, mentions: readonly string[]): boolean =>
  (m.kind === 'tool_call' || m.kind === 'action') && m.body !== null && mentions.some((p) => m.body!.includes(p));

/** BM25 of each unit's text (its members' bodies but the `unscored` ones) against the query's
 * terms, with statistics over the pool itself. */
function bm25Scores(
  pool: readonly Unit[],
  queryText: string,
  unscored: ReadonlySet<number>,
): Array<{ key: string; score: number }> {
  const query = distinctTerms(queryText);
  if (query.length === 0) return [];
  // Each body is a document of its own and a unit scores as its best member: an action's long
  // thought and the short output of its command are different texts, and one long unit must not
  // dilute (by its length) the output that answers the query.
  const docs = new Map<string, { counts: Map<string, number>; length: number }>();
  for (const u of pool)
    for (const m of u.members) if (m.bodyHash !== null && !docs.has(m.bodyHash)) docs.set(m.bodyHash, bodyTerms(m));
  // A query holds every open claim's words (~1k terms on a long session) and a body a few hundred:
  // each body's matches are found from the smaller side, then summed in query order, so the
  // floating-point sums are the ones a loop over the query terms gives. A body's matches depend
  // only on the query and the body, and the query's text (open tasks, steering, claims) recurs
  // from step to step: they are kept per query (distinctTerms hands out one array per text).
  let known = hitsByQuery.get(query);
  if (known === undefined) {
    known = new Map();
    hitsByQuery.set(query, known);
  }
  let position: Map<string, number> | undefined;
  const matches = new Map<string, readonly number[]>();
  const df = new Array<number>(query.length).fill(0);
  for (const [hash, d] of docs) {
    let hits = known.get(hash);
    if (hits === undefined) {
      const found: number[] = [];
      if (d.counts.size < query.length) {
        position ??= new Map(query.map((q, i) => [q, i]));
        for (const t of d.counts.keys()) {
          const i = position.get(t);
          if (i !== undefined) found.push(i);
        }
        found.sort((a, b) => a - b);
      } else {
        for (let i = 0; i < query.length; i++) if (d.counts.has(query[i]!)) found.push(i);
      }
      hits = found;
      if (known.size >= TERM_CACHE_MAX) known.clear();
      known.set(hash, hits);
    }
    for (const i of hits) df[i]!++;
    matches.set(hash, hits);
  }
  let total = 0;
  for (const d of docs.values()) total += d.length;
  const avg = total / Math.max(1, docs.size);
  const idf = df.map((n) => Math.log(1 + (docs.size - n + 0.5) / (n + 0.5)));
  const scoreOf = new Map<string, number>();
  for (const [hash, d] of docs) {
    let score = 0;
    for (const i of matches.get(hash)!) {
      const f = d.counts.get(query[i]!)!;
      score += (idf[i]! * f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * d.length) / Math.max(1, avg)));
    }
    scoreOf.set(hash, score);
  }
  return pool.map((u) => ({
    key: u.key,
    score: Math.max(
      0,
      ...u.members.map((m) => (m.bodyHash === null || unscored.has(m.nid) ? 0 : scoreOf.get(m.bodyHash)!)),
    ),
  }));
}

/** Each body's matching query terms (positions in the query, ascending) by content hash, per
 * query; read-only once computed. */
const hitsByQuery = new WeakMap<readonly string[], Map<string, readonly number[]>>();

/** Term counts per body, cached by content hash: the same bodies are ranked on every materialize. */
const termCache = new Map<string, { counts: Map<string, number>; length: number }>();
const TERM_CACHE_MAX = 20_000;

function bodyTerms(m: Candidate): { counts: Map<string, number>; length: number } {
  if (m.body === null || m.bodyHash === null) return { counts: new Map(), length: 0 };
  let hit = termCache.get(m.bodyHash);
  if (!hit) {
    const counts = new Map<string, number>();
    const terms = textTerms(m.body);
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    hit = { counts, length: terms.length };
    if (termCache.size >= TERM_CACHE_MAX) termCache.delete(termCache.keys().next().value!);
    termCache.set(m.bodyHash, hit);
  }
  return hit;
}
