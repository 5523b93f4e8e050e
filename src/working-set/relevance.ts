import { bm25Idf, bm25LengthNorm, bm25TermShare } from '../scoring/bm25.js';
import { fuseRanks, rankByScore } from '../scoring/rank-fusion.js';
import { compareStrings } from '../text/compare.js';
import { type BodyHits, type BodyTermCounts, rememberHits } from './body-terms.js';
import { type RankingMemory, rankingMemory } from './ranking-memory.js';
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
 * transaction (newer first), then by key. Deterministic; `memory` (the ledger's, see
 * ranking-memory.ts) only saves work across calls.
 */
export function rankUnits(
  units: readonly Unit[],
  query: RelevanceQuery,
  memory: RankingMemory = rankingMemory(undefined),
): Map<string, Placement> {
  const pool = [...units]
    .filter((u) => u.tier >= RANKED_FROM_TIER)
    .sort((a, b) => b.tx - a.tx || compareStrings(a.key, b.key));
  // Pool order is every tie-break: newer first, then key.
  const position = new Map(pool.map((u, i) => [u.key, i]));
  const byPosition = (a: string, b: string) => position.get(a)! - position.get(b)!;
  const channels = new Map<Signal, Map<string, number>>();
  const ranked = (signal: Signal, scored: Array<{ key: string; score: number }>) => {
    channels.set(
      signal,
      rankByScore(
        scored.map((s) => [s.key, s.score] as const),
        byPosition,
      ),
    );
  };

  ranked(
    'recency',
    pool.map((u, i) => ({ key: u.key, score: pool.length - i })),
  );
  ranked(
    'current evidence',
    pool.map((u) => ({ key: u.key, score: u.members.some((m) => m.kind === 'evidence') ? u.tx + 1 : 0 })),
  );
  const named = namedPaths(pool, query, memory);
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
  const bodies = bm25Pool(pool, memory);
  ranked('bm25', bm25Scores(pool, bodies, query.text, authored, memory));
  ranked('action bm25', bm25Scores(pool, bodies, query.focus ?? '', authored, memory));

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
  const relevance = fuseRanks(
    pool.map((u) => u.key),
    channels,
    { channels: RELEVANCE_SIGNALS, k: RRF_K, weights: RELEVANCE_WEIGHTS, compareIds: byPosition },
  );
  const recency = channels.get('recency')!;
  const scored = relevance.filter((f) => f.score > 0);
  const rest = relevance.filter((f) => f.score === 0).sort((a, b) => recency.get(a.id)! - recency.get(b.id)!);
  const placed = [
    ...scored.map((f) => ({ key: f.id, signal: f.best!.channel, signalRank: f.best!.rank })),
    ...rest.map((f) => ({ key: f.id, signal: 'recency' as Signal, signalRank: recency.get(f.id)! })),
  ];
  return new Map(placed.map((f, i) => [f.key, { rank: i, signal: f.signal, signalRank: f.signalRank }]));
}

const RELEVANCE_SIGNALS: readonly Signal[] = ['exact path', 'bm25', 'action bm25', 'current evidence'];
/** Every relevance signal counts alike: a unit's first-placed signal names why it is in. */
const RELEVANCE_WEIGHTS: Readonly<Record<Signal, number>> = {
  'exact path': 1,
  bm25: 1,
  'action bm25': 1,
  'current evidence': 1,
  // Not fused: recency orders what no relevance signal places.
  recency: 0,
};

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

/** Paths open work touches, and paths of ranked units the query text names (full path, or its last
 * two segments, or a file name with an extension). */
function namedPaths(pool: readonly Unit[], query: RelevanceQuery, memory: RankingMemory): Set<string> {
  // Open work's own paths count even when no ranked unit holds them: a command may still name them.
  const out = new Set<string>(query.paths);
  const focus = query.focus ?? '';
  // In `text\nfocus`, a needle without a newline occurs in one of the two: the long, stable part is
  // asked through the memory's textIncludes, the action's few lines directly.
  const includes = (needle: string) =>
    needle.includes('\n')
      ? `${query.text}\n${focus}`.includes(needle)
      : memory.queryTexts.textIncludes(query.text, needle) || focus.includes(needle);
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

/** The pool's bodies as BM25 documents, each once (by content hash, in pool order), with their
 * mean length: what every BM25 channel of one ranking scores. */
interface Bm25Pool {
  docs: BodyTermCounts[];
  hashes: string[];
  index: Map<string, number>;
  avgdl: number;
}

function bm25Pool(pool: readonly Unit[], memory: RankingMemory): Bm25Pool {
  // Each body is a document of its own and a unit scores as its best member: an action's long
  // thought and the short output of its command are different texts, and one long unit must not
  // dilute (by its length) the output that answers the query.
  const docs: BodyTermCounts[] = [];
  const hashes: string[] = [];
  const index = new Map<string, number>();
  for (const u of pool)
    for (const m of u.members)
      if (m.bodyHash !== null && !index.has(m.bodyHash)) {
        index.set(m.bodyHash, docs.length);
        hashes.push(m.bodyHash);
        docs.push(memory.bodyTerms.of(m));
      }
  let total = 0;
  for (const d of docs) total += d.length;
  // Floored at one term: a pool of empty or near-empty bodies must not inflate a short one's score.
  const avgdl = Math.max(1, total / Math.max(1, docs.length));
  return { docs, hashes, index, avgdl };
}

/** BM25 of each unit's text (its members' bodies but the `unscored` ones) against the query's
 * terms, with statistics over the pool itself. */
function bm25Scores(
  pool: readonly Unit[],
  bodies: Bm25Pool,
  queryText: string,
  unscored: ReadonlySet<number>,
  memory: RankingMemory,
): Array<{ key: string; score: number }> {
  const query = memory.queryTexts.distinctTerms(queryText);
  if (query.length === 0) return [];
  const { docs, hashes, index, avgdl } = bodies;
  // A query holds every open claim's words (~1k terms on a long session) and a body a few hundred:
  // each body's matches are found from the smaller side, then summed in query order, so the
  // floating-point sums are the ones a loop over the query terms gives. A body's matches depend
  // only on the query and the body, and the query's text (open tasks, steering, claims) recurs
  // from step to step: they are kept per query (distinctTerms hands out one array per text).
  const known = memory.bodyTerms.hitsFor(query);
  let position: Map<string, number> | undefined;
  const matches: BodyHits[] = [];
  const df = new Array<number>(query.length).fill(0);
  for (let k = 0; k < docs.length; k++) {
    const d = docs[k]!;
    let hits = known.get(hashes[k]!);
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
      hits = { terms: found, counts: found.map((i) => d.counts.get(query[i]!)!) };
      rememberHits(known, hashes[k]!, hits);
    }
    for (const i of hits.terms) df[i]!++;
    matches.push(hits);
  }
  const idf = df.map((n) => bm25Idf(docs.length, n));
  const scores = new Float64Array(docs.length);
  for (let k = 0; k < docs.length; k++) {
    const { terms, counts } = matches[k]!;
    const norm = bm25LengthNorm(docs[k]!.length, avgdl);
    let score = 0;
    for (let j = 0; j < terms.length; j++) score += bm25TermShare(idf[terms[j]!]!, counts[j]!, norm);
    scores[k] = score;
  }
  return pool.map((u) => {
    let best = 0;
    for (const m of u.members)
      if (m.bodyHash !== null && !unscored.has(m.nid)) best = Math.max(best, scores[index.get(m.bodyHash)!]!);
    return { key: u.key, score: best };
  });
}
