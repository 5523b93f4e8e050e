import type { Engine } from '../engine/engine.js';
import { LedgerError } from '../errors.js';
import type { Embedder } from '../text/hashed-embedder.js';
import type { BodyVectors } from './body-vectors.js';
import { fuseCandidates } from './candidate-fusion.js';
import { gatherCandidates } from './candidates.js';
import { contradictionsAmong, explain } from './explanation.js';
import { type RetrievalQuery, resolveRetrievalQuery } from './query.js';
import { readBodies, toEvidence } from './record-bodies.js';
import { missingSupport, requiredSupport } from './required-support.js';
import type { RetrievalResult } from './result.js';
import type { LedgerNodes, RetrievalIndex } from './retrieval-index.js';
import { cappedSupport, estimateSupport } from './support-estimate.js';

export type { RetrievalResult } from './result.js';

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
 * channels over the records valid at the epoch within the authority scopes (candidates.ts);
 * weighted reciprocal-rank fusion where exact matches dominate, then diversity and body-once
 * selection within the budget (candidate-fusion.ts); required support (required-support.ts);
 * at most one engine call for the bodies the answer and the support estimate read (record-bodies.ts);
 * abstention naming the missing evidence when support is below the threshold
 * (support-estimate.ts); an explanation of every candidate (explanation.ts).
 */
export async function retrieve(ctx: RetrieveContext, query: RetrievalQuery): Promise<RetrievalResult> {
  const q = resolveRetrievalQuery(query, ctx.ledger.lastEpoch);
  const named = [
    ...(q.task === null ? [] : [{ field: 'task', id: q.task }]),
    ...(q.action === null ? [] : [{ field: 'action', id: q.action }]),
    ...q.claims.map((id, i) => ({ field: `claims[${i}]`, id })),
  ];
  for (const { field, id } of named)
    if (ctx.nidOf(id) === undefined) throw new LedgerError('UNKNOWN_NODE', { field, id });
  const { engine } = ctx;
  const index = await ctx.index();
  const visible = await index.visible(engine, ctx.ledger, q.epoch, q.authority);
  const isVisible = (n: number) => visible.nodes[n] === 1;
  const nodeOf = (n: number) => ctx.ledger.byNid[n];
  // Vectors are read when a query vector is given or the embedder is semantic (a lexical one
  // embeds no query text); host scores replace the channel.
  const vectors =
    q.channels.has('vector') && q.scores === null && (q.vector !== null || (q.text !== null && !ctx.embedder.lexical))
      ? await ctx.vectors()
      : null;

  const explicitSeeds = named.map(({ id }) => ctx.nidOf(id)!).filter(isVisible);
  const seeds = new Set(explicitSeeds);
  const found = await gatherCandidates(
    engine,
    ctx.ledger,
    index,
    visible,
    q,
    explicitSeeds,
    ctx.embedder,
    ctx.nidOf,
    vectors,
  );
  const statusAt = (n: number) => visible.versions.get(n)?.status ?? nodeOf(n)?.status ?? null;
  const claimNids = q.claims.map((id) => ({ id, nid: ctx.nidOf(id)! }));
  const required = requiredSupport(
    found.graph.edges,
    visible,
    q.task === null ? undefined : ctx.nidOf(q.task),
    claimNids.map((c) => c.nid),
    statusAt,
  );
  const fusion = fuseCandidates(found.channels, required.targets.values(), seeds, visible, index, nodeOf, q.budget);
  const kept = new Set(fusion.selectedRows.map((r) => r.nid));
  const missing = [
    ...found.exact.missing,
    ...missingSupport(required, visible, (n) => fusion.byNid.has(n), claimNids, ctx.idOf),
  ];

  // At most one engine call (bodies returned lately are cached): the bodies of the returned
  // records, and of the question's subject's own records among the lexical hits (the support
  // estimate tells their questions from statements).
  const { lexical } = found;
  const subjectHits =
    lexical.subjects.length === 0
      ? []
      : [...lexical.matched.keys()].filter((n) => isVisible(n) && lexical.evidential.has(n));
  const bodies = await readBodies(engine, [...fusion.selectedRows, ...subjectHits.map(nodeOf)], index.bodies);
  const bodyOf = (n: number) => {
    const bkey = nodeOf(n)?.bkey;
    return bkey == null ? '' : (bodies.get(bkey)?.text ?? '');
  };
  const estimate = estimateSupport(
    q,
    lexical,
    found.temporal.dateTerms,
    (n) => isVisible(n) && !seeds.has(n),
    bodyOf,
    fusion.selected,
    required.claims.size,
  );
  missing.push(...estimate.missing);
  const support = cappedSupport(estimate.support, q.supportThreshold, missing.length);

  const evidence = fusion.selected.map((f, i) => toEvidence(f, fusion.selectedRows[i]!, bodies));
  const supported = missing.length === 0 && support >= q.supportThreshold;
  return {
    status: supported ? 'supported' : 'abstain',
    evidence: supported ? evidence : [],
    missing,
    partial: supported ? [] : evidence,
    support,
    rawSupport: estimate.rawSupport,
    ...(estimate.features === undefined ? {} : { supportFeatures: estimate.features }),
    threshold: q.supportThreshold,
    contradictions: contradictionsAmong(index.adjacency, visible, q.epoch, kept, ctx.idOf),
    superseded: found.exact.superseded,
    explanation: explain(
      fusion.fused,
      found.channels,
      (id) => fusion.byId.get(id)!.nid,
      kept,
      fusion.dropped,
      new Set([...required.targets.values()].flat()),
    ),
  };
}
