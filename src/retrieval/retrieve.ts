import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { LedgerError } from '../errors.js';
import { type ChannelScores, type FusedCandidate, fuse } from '../rerank/fuse.js';
import { type SelectableRecord, selectDiverse } from '../rerank/select.js';
import { calibratedSupport, type SupportFeatures, supportFeatures, UNSEEN_LIMIT } from '../rerank/support.js';
import type { NodeKind, Status } from '../schema/kinds.js';
import type { NodeRow } from '../schema/rows.js';
import { bodyRowsSql } from '../sql/retrieval-sql.js';
import type { Embedder } from '../text/hashed-embedder.js';
import { textTerms } from '../text/text-terms.js';
import type { BodyVectors } from './body-vectors.js';
import type { ChannelHits } from './channel.js';
import { CONTRADICTS, type EdgeAdjacency } from './edge-adjacency.js';
import { queryNames, queryPhrases, statedTerms } from './entities.js';
import { exactChannel, type MissingEvidence } from './exact-channel.js';
import { graphChannel } from './graph-channel.js';
import { lexicalChannel } from './lexical-channel.js';
import { type RetrievalQuery, resolveRetrievalQuery } from './query.js';
import type { LedgerNodes, RetrievalIndex, VisibleSet } from './retrieval-index.js';
import { vectorChannel } from './vector-channel.js';

export interface RetrievedEvidence {
  id: string;
  kind: NodeKind;
  score: number;
  channels: ChannelScores;
  status?: Status;
  authority: string;
  path?: string;
  revision?: string;
  range?: [number, number];
  body?: string;
  /** The record's scalar annotations (e.g. `speaker`, `date` from fromConversation). */
  meta?: Record<string, string | number | boolean | null>;
  tokens: number;
  tx: number;
}

export interface RetrievalResult {
  status: 'supported' | 'abstain';
  /** Ranked support (empty when abstaining: no padding with weak results). */
  evidence: RetrievedEvidence[];
  /** What is missing, as specific requests (path, range, revision, claim). */
  missing: MissingEvidence[];
  /** The best candidates found when abstaining, for hosts that show partial support. */
  partial: RetrievedEvidence[];
  /**
   * Calibrated support in [0, 1]: for a text query, an estimate of the probability that the
   * returned records support it (rerank/support.ts); 1 or 0 for hard constraints; capped below
   * the threshold when something is missing. Compared with `threshold`.
   */
  support: number;
  /**
   * The uncalibrated measure: for a text query, the IDF-weighted share of its content words one
   * record (by the person it names, if any) contains; otherwise equal to `support` before capping.
   */
  rawSupport: number;
  /** The features `support` was computed from, for a text query (a host may refit the model on its own data). */
  supportFeatures?: SupportFeatures;
  threshold: number;
  contradictions: Array<{ from: string; to: string }>;
  /** Records matching the query that are no longer valid at the epoch (excluded, counted). */
  superseded: number;
  explanation: Array<{
    id: string;
    score: number;
    contributions: Record<string, number>;
    ranks: Record<string, number>;
    reasons: string[];
    kept: boolean;
    dropped?: string;
  }>;
}

export interface RetrieveContext {
  engine: Engine;
  /** The ledger's in-memory index (latest version of each node, key counters). */
  ledger: LedgerNodes;
  nidOf(id: string): number | undefined;
  idOf(nid: number): string | undefined;
  /** The retrieval index, caught up with the ledger. */
  index(): Promise<RetrievalIndex>;
  /** The body vectors, caught up (read only when the vector channel needs them). */
  vectors(): Promise<BodyVectors>;
  embedder: Embedder;
}

/**
 * Temporal hybrid retrieval (architecture §4): the union of exact, lexical, vector and graph
 * channels over the records valid at the epoch within the authority scopes; weighted
 * reciprocal-rank fusion where exact matches dominate; diversity and body-once selection within
 * the budget; abstention naming the missing evidence when support is below the threshold.
 */
export async function retrieve(ctx: RetrieveContext, query: RetrievalQuery): Promise<RetrievalResult> {
  const q = resolveRetrievalQuery(query, ctx.ledger.lastEpoch);
  const seedIds = [q.task, q.action, ...q.claims].filter((x): x is string => x !== null);
  const fields = [
    q.task !== null ? 'task' : null,
    q.action !== null ? 'action' : null,
    ...q.claims.map((_, i) => `claims[${i}]`),
  ].filter((x): x is string => x !== null);
  seedIds.forEach((id, i) => {
    if (ctx.nidOf(id) === undefined) throw new LedgerError('UNKNOWN_NODE', { field: fields[i], id });
  });
  const { engine } = ctx;
  const index = await ctx.index();
  const visible = await index.visible(engine, ctx.ledger, q.epoch, q.authority);
  const isVisible = (n: number) => visible.nodes[n] === 1;
  const nodeOf = (n: number) => ctx.ledger.byNid[n];
  const on = q.channels;
  // Vectors are read when a query vector is given or the embedder is semantic (a lexical one
  // embeds no query text); host scores replace the channel.
  const needVectors =
    on.has('vector') && q.scores === null && (q.vector !== null || (q.text !== null && !ctx.embedder.lexical));
  if (needVectors) await ctx.vectors();

  // At the last epoch or later every node's latest version is the valid one: exact lookups need
  // no engine call. An earlier epoch asks the engine for the versions valid then.
  const now = q.epoch >= ctx.ledger.lastEpoch ? { index, visible, ledger: ctx.ledger } : null;
  const exact = on.has('exact') ? await exactChannel(engine, q, now) : { hits: new Map(), missing: [], superseded: 0 };
  const names = q.text === null ? [] : queryNames(q.text);
  const lexical = on.has('lexical')
    ? lexicalChannel(index, visible, nodeOf, q, names)
    : {
        hits: new Map(),
        idf: new Map(),
        unseen: new Set<string>(),
        matched: new Map(),
        subjects: [],
        bySubject: new Set<number>(),
        evidential: new Set<number>(),
      };
  const vector = on.has('vector') ? await vectorChannel(engine, q, ctx.embedder, index, visible, ctx.nidOf) : new Map();
  const explicitSeeds = seedIds.map((id) => ctx.nidOf(id)!).filter(isVisible);
  const firstCandidates = topSeeds([exact.hits, lexical.hits], 8);
  // HippoRAG-style entity seeds: records about an entity the question names (by path) restart the
  // walk as strongly as the best lexical candidate, so a bridge passage is reached from the entity
  // even when the question's other words point elsewhere.
  const phrases = q.text === null || !on.has('graph') || q.hops === 0 ? [] : queryPhrases(q.text);
  for (const phrase of phrases) for (const nid of index.subjectRecords(phrase, visible)) firstCandidates.set(nid, 1);
  const graph = on.has('graph')
    ? graphChannel(index.adjacency, visible, q.epoch, explicitSeeds, firstCandidates, q.hops, q.perChannel)
    : { hits: new Map(), edges: [] };

  // Required support: each given claim (and each claim the task requires) needs a valid
  // supported_by target; those targets join the candidates with full graph score.
  const missing: MissingEvidence[] = [...exact.missing];
  const seedSet = new Set(explicitSeeds);
  const taskNid = q.task === null ? undefined : ctx.nidOf(q.task);
  const requiredClaims = new Set(q.claims.map((c) => ctx.nidOf(c)!));
  // The task's requirements count while unresolved: a resolved claim whose evidence a fix has
  // since superseded is history, not a gap.
  const statusAt = (n: number) => visible.versions.get(n)?.status ?? nodeOf(n)?.status ?? null;
  for (const e of graph.edges)
    if (e.src === taskNid && e.kind === 'requires' && isVisible(e.dst) && statusAt(e.dst) === 'open')
      requiredClaims.add(e.dst);
  const required = new Map<number, number[]>();
  for (const e of graph.edges)
    if (e.kind === 'supported_by' && requiredClaims.has(e.src))
      required.set(e.src, [...(required.get(e.src) ?? []), e.dst]);

  const channels: Record<keyof ChannelScores, ChannelHits> = {
    exact: exact.hits,
    lexical: lexical.hits,
    vector,
    graph: graph.hits,
  };
  const pool = new Map<number, ChannelScores>();
  for (const [name, hits] of Object.entries(channels) as Array<[keyof ChannelScores, ChannelHits]>) {
    for (const [nid, hit] of hits) {
      if (seedSet.has(nid) || !isVisible(nid)) continue;
      const s = pool.get(nid) ?? { exact: 0, lexical: 0, vector: 0, graph: 0 };
      s[name] = hit.score;
      pool.set(nid, s);
    }
  }
  for (const targets of required.values())
    for (const t of targets)
      if (!seedSet.has(t)) pool.set(t, { ...(pool.get(t) ?? { exact: 0, lexical: 0, vector: 0, graph: 0 }), graph: 1 });

  // Node fields come from the ledger's index (the version valid at the epoch where it differs);
  // only the returned records' bodies are read from the engine, after selection.
  const rows = [...pool.keys()]
    .filter((n) => nodeOf(n) !== undefined)
    .sort((a, b) => a - b)
    .map((n) => {
      const row = nodeOf(n)!;
      const version = visible.versions.get(n);
      return version === undefined ? row : { ...row, ...version };
    });
  const byNid = new Map(rows.map((r) => [r.nid, r]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const fused = fuse(new Map([...pool].filter(([n]) => byNid.has(n)).map(([n, s]) => [byNid.get(n)!.id, s])));
  const selectable = new Map<string, SelectableRecord>(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        path: r.path,
        range: r.range_start !== null && r.range_end !== null ? [r.range_start, r.range_end] : null,
        // Bodies are content-addressed: one key, one content.
        bodyHash: r.bkey === null ? null : `bkey:${r.bkey}`,
        chars: r.bkey === null ? 0 : index.postings.chars[r.bkey]!,
      },
    ]),
  );
  const { selected, dropped } = selectDiverse(fused, selectable, q.budget);
  const selectedNids = new Set(selected.map((f) => byId.get(f.id)!.nid));

  for (const claim of requiredClaims) {
    if (!isVisible(claim)) continue;
    const support = (required.get(claim) ?? []).filter((t) => byNid.has(t));
    if (support.length === 0)
      missing.push({
        claim: ctx.idOf(claim) ?? String(claim),
        reason: 'no valid supporting evidence within the authority scopes',
      });
  }
  for (const id of q.claims) {
    const nid = ctx.nidOf(id)!;
    if (!isVisible(nid))
      missing.push({ claim: id, reason: 'the claim is not valid at this epoch or outside the authority scopes' });
  }

  // One engine call: the bodies of the returned records, and of the question's subject's own
  // records among the lexical hits (their questions are told from their statements below).
  const selectedRows = selected.map((f) => byId.get(f.id)!);
  const subjectHits =
    lexical.subjects.length === 0
      ? []
      : [...lexical.matched.keys()].filter((n) => isVisible(n) && lexical.evidential.has(n));
  const bkeys = [
    ...new Set([...selectedRows, ...subjectHits.map(nodeOf)].flatMap((r) => (r?.bkey == null ? [] : [r.bkey]))),
  ];
  const bodies = new Map(
    bkeys.length === 0
      ? []
      : rowsOf<BodyRecord>(await engine.query(bodyRowsSql(bkeys.sort((a, b) => a - b)))).map((b) => [b.bkey, b]),
  );
  const bodyOf = (n: number) => {
    const bkey = nodeOf(n)?.bkey;
    return bkey == null ? '' : (bodies.get(bkey)?.text ?? '');
  };

  // Support: exact constraints and required claims count as hard requirements (missing above);
  // a text query's support is calibrated from how much of its content one record holds, and
  // whether that record is by the person the question names and *states* it: what a person asks
  // ("what got you into running?") is evidence about the one asked, not about the asker.
  let support = 1;
  let rawSupport = 1;
  let features: SupportFeatures | undefined;
  if (q.text !== null && lexical.idf.size > 0) {
    const subjectTerms = new Set(lexical.subjects.flatMap((n) => textTerms(n)));
    const f = supportFeatures(
      lexical.idf,
      lexical.unseen,
      subjectTerms,
      lexical.subjects.length > 0,
      [...lexical.matched]
        .filter(([nid]) => isVisible(nid) && !seedSet.has(nid) && lexical.evidential.has(nid))
        .map(([nid, matched]) =>
          lexical.bySubject.has(nid)
            ? { matched, bySubject: true, stated: statedTerms(bodyOf(nid), matched) }
            : lexical.subjects.length > 0
              ? { matched, bySubject: true, stated: statedTerms(bodyOf(nid), matched, true) }
              : { matched, bySubject: false },
        ),
    );
    rawSupport = f.subjectCoverage;
    features = { coverage: f.coverage, subjectCoverage: f.subjectCoverage, unseen: f.unseen };
    support = calibratedSupport(f);
    if (f.unseen > UNSEEN_LIMIT) {
      missing.push({
        reason: `most of the query appears in no valid record: ${[...lexical.unseen].filter((t) => !subjectTerms.has(t)).join(', ')}`,
      });
    } else if (support < q.supportThreshold) {
      const by = lexical.subjects.length > 0 ? ` by ${lexical.subjects.join(' or ')}` : '';
      missing.push({
        reason: `no valid record${by} covers the query; not found together: ${f.lacking.join(', ') || '(no content words)'}`,
      });
    }
  } else if (q.artifacts.length === 0 && requiredClaims.size === 0) {
    support =
      selected.length > 0
        ? Math.min(1, Math.max(...selected.map((f) => Math.max(f.channels.vector, f.channels.graph))))
        : 0;
    rawSupport = support;
    if (support < q.supportThreshold) missing.push({ reason: 'nothing valid supports the query' });
  }
  if (missing.length > 0) support = Math.min(support, q.supportThreshold > 0 ? q.supportThreshold / 2 : 0);

  const evidence = selected.map((f, i) => toEvidence(f, selectedRows[i]!, bodies));
  const contradictions = contradictionsAmong(index.adjacency, visible, q.epoch, selectedNids, ctx.idOf);
  const reasons = (nid: number) =>
    (Object.entries(channels) as Array<[string, ChannelHits]>).flatMap(([, hits]) =>
      hits.get(nid) ? [hits.get(nid)!.reason] : [],
    );
  const droppedWhy = new Map(dropped.map((d) => [d.id, d.reason]));
  const explanation = fused.map((f) => ({
    id: f.id,
    score: f.score,
    contributions: f.contributions,
    ranks: f.ranks as Record<string, number>,
    reasons: [
      ...reasons(byId.get(f.id)!.nid),
      ...(required.size && [...required.values()].some((t) => t.includes(byId.get(f.id)!.nid))
        ? ['supports a required claim']
        : []),
    ],
    kept: selectedNids.has(byId.get(f.id)!.nid),
    ...(droppedWhy.has(f.id) ? { dropped: droppedWhy.get(f.id)! } : {}),
  }));
  const supported = missing.length === 0 && support >= q.supportThreshold;
  return {
    status: supported ? 'supported' : 'abstain',
    evidence: supported ? evidence : [],
    missing,
    partial: supported ? [] : evidence,
    support,
    rawSupport,
    ...(features === undefined ? {} : { supportFeatures: features }),
    threshold: q.supportThreshold,
    contradictions,
    superseded: exact.superseded,
    explanation,
  };
}

/** A body as the engine returns it for the selected records. */
interface BodyRecord {
  bkey: number;
  hash: string;
  text: string;
  tokens: number;
}

function toEvidence(f: FusedCandidate, r: NodeRow, bodies: ReadonlyMap<number, BodyRecord>): RetrievedEvidence {
  const body = r.bkey === null ? undefined : bodies.get(r.bkey);
  const out: RetrievedEvidence = {
    id: r.id,
    kind: r.kind as NodeKind,
    score: f.score,
    channels: f.channels,
    authority: r.authority,
    tokens: body?.tokens ?? 0,
    tx: r.tx,
  };
  if (r.status !== null) out.status = r.status as Status;
  if (r.path !== null) out.path = r.path;
  if (r.revision !== null) out.revision = r.revision;
  if (r.range_start !== null && r.range_end !== null) out.range = [r.range_start, r.range_end];
  if (body !== undefined) out.body = body.text;
  if (r.meta !== null) out.meta = JSON.parse(r.meta) as NonNullable<RetrievedEvidence['meta']>;
  return out;
}

/** `contradicts` edges valid at the epoch between visible records, one end among the selected; by ids. */
function contradictionsAmong(
  adjacency: EdgeAdjacency,
  visible: VisibleSet,
  epoch: number,
  selected: ReadonlySet<number>,
  idOf: (nid: number) => string | undefined,
): Array<{ from: string; to: string }> {
  const pairs = new Map<string, { from: string; to: string }>();
  for (const n of selected) {
    for (let i = adjacency.first(n); i !== -1; i = adjacency.next[i]!) {
      const kd = adjacency.kindDir[i]!;
      const o = adjacency.other[i]!;
      if (kd >> 1 !== CONTRADICTS || adjacency.from[i]! > epoch || visible.nodes[o] !== 1) continue;
      const [src, dst] = (kd & 1) === 1 ? [n, o] : [o, n];
      pairs.set(`${src}>${dst}`, { from: idOf(src)!, to: idOf(dst)! });
    }
  }
  return [...pairs.values()].sort((a, b) => cmpStr(a.from, b.from) || cmpStr(a.to, b.to));
}

const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Seeds for PageRank from the first channels: the top `n` of each, weighted by normalised score. */
function topSeeds(channels: readonly ChannelHits[], n: number): Map<number, number> {
  const seeds = new Map<number, number>();
  for (const hits of channels) {
    const top = [...hits].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]).slice(0, n);
    const best = top[0]?.[1].score ?? 0;
    for (const [nid, h] of top) if (best > 0) seeds.set(nid, Math.max(seeds.get(nid) ?? 0, h.score / best));
  }
  return seeds;
}
