import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import type { FusedCandidate } from '../rerank/fuse.js';
import type { NodeKind, Status } from '../schema/kinds.js';
import { type NodeRow, rowMeta, rowRange } from '../schema/rows.js';
import { bodyRowsSql } from '../sql/retrieval-sql.js';
import type { BodyCache, BodyRecord } from '../text/body-cache.js';
import type { RetrievedEvidence } from './result.js';

/**
 * The bodies of the given records, each body once (records sharing content share one key): those
 * in `cache` from it, the others in one engine call (none when all are cached or no record
 * carries a body), then cached.
 */
export async function readBodies(
  engine: Engine,
  rows: Iterable<Pick<NodeRow, 'bkey'> | undefined>,
  cache: BodyCache,
): Promise<Map<number, BodyRecord>> {
  const bkeys = [...new Set([...rows].flatMap((r) => (r?.bkey == null ? [] : [r.bkey])))].sort((a, b) => a - b);
  const out = new Map<number, BodyRecord>();
  const missing: number[] = [];
  for (const bkey of bkeys) {
    const cached = cache.get(bkey);
    if (cached === undefined) missing.push(bkey);
    else out.set(bkey, cached);
  }
  if (missing.length === 0) return out;
  for (const b of rowsOf<BodyRecord>(await engine.query(bodyRowsSql(missing)))) {
    out.set(b.bkey, b);
    cache.set(b);
  }
  return out;
}

/** A selected candidate as returned evidence: the row's set fields, its body and token count. */
export function toEvidence(f: FusedCandidate, r: NodeRow, bodies: ReadonlyMap<number, BodyRecord>): RetrievedEvidence {
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
  const range = rowRange(r);
  if (range !== null) out.range = range;
  if (body !== undefined) out.body = body.text;
  const meta = rowMeta(r);
  if (meta !== null) out.meta = meta;
  return out;
}
