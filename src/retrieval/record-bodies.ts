import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import type { FusedCandidate } from '../rerank/fuse.js';
import type { NodeKind, Status } from '../schema/kinds.js';
import { type NodeRow, rowMeta, rowRange } from '../schema/rows.js';
import { bodyRowsSql } from '../sql/retrieval-sql.js';
import type { RetrievedEvidence } from './result.js';

/** A body as the engine returns it for the records that need one. */
export interface BodyRecord {
  bkey: number;
  text: string;
  tokens: number;
}

/**
 * The bodies of the given records, each body once (records sharing content share one key), in one
 * engine call; none when no record carries a body.
 */
export async function readBodies(
  engine: Engine,
  rows: Iterable<Pick<NodeRow, 'bkey'> | undefined>,
): Promise<Map<number, BodyRecord>> {
  const bkeys = [...new Set([...rows].flatMap((r) => (r?.bkey == null ? [] : [r.bkey])))].sort((a, b) => a - b);
  if (bkeys.length === 0) return new Map();
  return new Map(rowsOf<BodyRecord>(await engine.query(bodyRowsSql(bkeys))).map((b) => [b.bkey, b]));
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
