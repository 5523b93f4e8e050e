import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { rerunCandidatesSql } from '../sql/rerun.js';

/** A failed verifier outcome whose sources got a newer revision since it ran. */
export interface RerunCandidate {
  id: string;
  verifier: string | null;
  status: 'failed' | 'error';
  tx: number;
  validFrom: number;
  /** The sources that changed since the verifier ran. */
  changed: Array<{ path: string; checkedRevision: string | null; newerRevision: string | null; newerId: string }>;
}

/** Failed verifiers whose sources got a newer revision: the checks worth running again. */
export async function rerunCandidates(
  engine: Engine,
  epoch: number,
  authority: readonly string[] | null,
): Promise<RerunCandidate[]> {
  const rows = rowsOf<{
    id: string;
    verifier: string | null;
    status: 'failed' | 'error';
    tx: number;
    valid_from: number;
    path: string;
    checked_revision: string | null;
    newer_id: string;
    newer_revision: string | null;
  }>(await engine.query(rerunCandidatesSql(epoch, authority)));
  const out: RerunCandidate[] = [];
  for (const r of rows) {
    let c = out[out.length - 1];
    if (!c || c.id !== r.id) {
      c = { id: r.id, verifier: r.verifier, status: r.status, tx: r.tx, validFrom: r.valid_from, changed: [] };
      out.push(c);
    }
    c.changed.push({
      path: r.path,
      checkedRevision: r.checked_revision,
      newerRevision: r.newer_revision,
      newerId: r.newer_id,
    });
  }
  return out;
}
