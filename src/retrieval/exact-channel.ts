import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { exactSql } from '../sql/retrieval-sql.js';
import { addHit, type ChannelHits } from './channel.js';
import type { ResolvedQuery } from './query.js';
import type { LedgerNodes, RetrievalIndex, VisibleSet } from './retrieval-index.js';

/** What a retrieval could not support, and why: a path, range, revision or claim to fetch instead of guessing. */
export interface MissingEvidence {
  path?: string;
  range?: readonly [number, number];
  revision?: string;
  claim?: string;
  reason: string;
}

/**
 * Exact lookup, run first: records of the constrained path (and revision, body hash, line range).
 * Score 1 for a full match of the range at the asked revision, less for a partial overlap or
 * another revision. A constraint nothing valid covers is reported missing — with the count of
 * superseded records that once covered it, since "it changed" is a different request from "never
 * seen".
 */
export async function exactChannel(
  engine: Engine,
  q: ResolvedQuery,
  current: { index: RetrievalIndex; visible: VisibleSet; ledger: LedgerNodes } | null,
): Promise<{ hits: ChannelHits; missing: MissingEvidence[]; superseded: number }> {
  const hits: ChannelHits = new Map();
  const missing: MissingEvidence[] = [];
  let superseded = 0;
  if (q.artifacts.length === 0) return { hits, missing, superseded };
  const all =
    current === null
      ? rowsOf<ExactRow>(await engine.query(exactSql(q.epoch, q.authority, q.artifacts)))
      : exactRowsNow(q, current.index, current.visible, current.ledger);
  for (const [a, c] of q.artifacts.entries()) {
    const rows = all.filter((r) => r.a === a && r.old === null);
    const old = { n: all.find((r) => r.a === a && r.old !== null)?.old ?? 0 };
    superseded += old.n;
    let covered = false;
    for (const r of rows) {
      const range = r.range_start !== null && r.range_end !== null ? ([r.range_start, r.range_end] as const) : null;
      // A record without a line range (a whole-file revision, a tool result naming the path)
      // matches the path, but cannot vouch for specific lines.
      const overlap = c.range ? (range ? coveredShare(c.range, range) : 0.3) : 1;
      const revisionFactor = c.revision === undefined || r.revision === c.revision ? 1 : 0.5;
      if (overlap === 0) continue;
      const score = overlap * revisionFactor;
      if (score >= 0.5) covered = true;
      addHit(
        hits,
        r.nid!,
        score,
        `exact: ${c.path}${range ? `:${range[0]}-${range[1]}` : ''}${r.revision ? ` @${r.revision}` : ''}`,
      );
    }
    if (!covered) {
      const entry: MissingEvidence = {
        path: c.path,
        reason:
          old.n > 0
            ? `only superseded evidence covers it (${old.n} record(s)); read the current revision`
            : rows.length > 0
              ? 'no valid evidence covers this range at this revision'
              : 'no record of this path',
      };
      if (c.range) entry.range = c.range;
      if (c.revision) entry.revision = c.revision;
      missing.push(entry);
    }
  }
  return { hits, missing, superseded };
}

/** Share of the asked range the record covers. */
function coveredShare(asked: readonly [number, number], have: readonly [number, number]): number {
  const overlap = Math.min(asked[1], have[1]) - Math.max(asked[0], have[0]) + 1;
  return overlap <= 0 ? 0 : overlap / (asked[1] - asked[0] + 1);
}

/** A row of `exactSql`: a matching record (`old` null), or the count of superseded ones. @internal Exported for its unit tests. */
export interface ExactRow {
  a: number;
  nid: number | null;
  revision: string | null;
  range_start: number | null;
  range_end: number | null;
  old: number | null;
}

const EXACT_KINDS = new Set(['evidence', 'artifact_revision', 'tool_result', 'verifier_outcome']);

/**
 * `exactSql`'s rows at the last epoch or later, from the ledger's index with no engine call: each
 * node's latest version is the one valid then, and a node of the path whose latest version is
 * closed is superseded.
 * @internal Exported for its unit tests.
 */
export function exactRowsNow(
  q: ResolvedQuery,
  index: RetrievalIndex,
  visible: VisibleSet,
  ledger: LedgerNodes,
): ExactRow[] {
  const scopes = q.authority === null ? null : new Set(q.authority);
  const out: ExactRow[] = [];
  for (const [a, c] of q.artifacts.entries()) {
    const bkey = c.hash === undefined ? undefined : (ledger.bodyKeys.get(c.hash) ?? -1);
    let old = 0;
    for (const nid of index.pathRecords(c.path)) {
      const r = ledger.byNid[nid]!;
      if (!visible.nodes[nid]) {
        if (r.valid_to !== null && (scopes === null || scopes.has(r.authority))) old++;
        continue;
      }
      if (!EXACT_KINDS.has(r.kind)) continue;
      if (c.revision !== undefined && r.revision !== c.revision) continue;
      if (bkey !== undefined && r.bkey !== bkey) continue;
      if (
        c.range !== undefined &&
        r.range_start !== null &&
        !(r.range_start <= c.range[1] && r.range_end !== null && r.range_end >= c.range[0])
      )
        continue;
      out.push({ a, nid, revision: r.revision, range_start: r.range_start, range_end: r.range_end, old: null });
    }
    out.push({ a, nid: null, revision: null, range_start: null, range_end: null, old });
  }
  return out;
}
